import { Component, type ErrorInfo, type ReactNode } from 'react';
import { classifyFailure } from '../registry/classify';
import type { RemoteFailureCode, RemoteLoadError } from '../registry/RemoteLoadError';

interface Props {
  readonly remote: string;
  readonly title: string;
  readonly manifest: string;
  readonly onRetry: () => void;
  /** the slot failed (loading or rendering); telemetry hears the reason */
  readonly onFailed?: (reason: RemoteFailureCode) => void;
  readonly children: ReactNode;
}

interface State {
  readonly error: RemoteLoadError | null;
}

/**
 * Keeps a remote's failure inside its slot: whatever the remote throws while loading or rendering,
 * the slot says which remote failed and why, and offers a retry. The rest of the page keeps working.
 */
export class RemoteErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error as RemoteLoadError };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    // Not swallowed: the browser console keeps the original error and where it happened.
    console.error(`Gatehouse: the remote "${this.props.remote}" failed`, error, info.componentStack);
    this.props.onFailed?.(classifyFailure(this.props.remote, this.props.manifest, 'render', error).code);
  }

  private readonly retry = () => {
    this.setState({ error: null });
    this.props.onRetry();
  };

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    const failure = classifyFailure(this.props.remote, this.props.manifest, 'render', error);
    return (
      <section className="gh-card gh-error" role="alert" data-remote={this.props.remote} data-reason={failure.code}>
        <h2>{this.props.title} is unavailable</h2>
        <p>{failure.message}</p>
        <button type="button" className="gh-button" onClick={this.retry}>
          Retry
        </button>
      </section>
    );
  }
}
