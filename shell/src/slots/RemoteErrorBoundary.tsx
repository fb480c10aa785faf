import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Details } from '../layout/Details';
import { classifyFailure } from '../registry/classify';
import type { RemoteFailureCode, RemoteLoadError } from '../registry/RemoteLoadError';
import { SLOT_MESSAGES } from './visitorMessages';

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
 * the slot says which remote failed in plain words, and offers a retry; the failure code and the technical
 * message sit behind "Details" (and in the console). The rest of the page keeps working. The slot's heading
 * is the page's `h1`: the failed remote's own heading is gone with it.
 */
export class RemoteErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error as RemoteLoadError };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    // Not swallowed: the browser console keeps the original error and where it happened.
    const failure = classifyFailure(this.props.remote, this.props.manifest, 'render', error);
    console.error(`Gatehouse: the remote "${this.props.remote}" failed (${failure.code}): ${failure.message}`, error, info.componentStack);
    this.props.onFailed?.(failure.code);
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
        <h1>{this.props.title} is unavailable</h1>
        <p>{SLOT_MESSAGES[failure.code](this.props.title)}</p>
        <button type="button" className="gh-button" onClick={this.retry}>
          Retry
        </button>
        <Details code={failure.code}>
          <p>{failure.message}</p>
        </Details>
      </section>
    );
  }
}
