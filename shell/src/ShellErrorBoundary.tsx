import { Component, type ErrorInfo, type ReactNode } from 'react';

interface State {
  readonly failed: boolean;
}

/**
 * The last line of defence around the whole shell: an error that escapes every remote's own boundary
 * (a bug in the shell, a hostile value that got past the config's checks) leaves the visitor a sentence
 * and a way out, never a blank page. The console keeps the error.
 */
export class ShellErrorBoundary extends Component<{ readonly children: ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('Gatehouse: the shell failed', error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <main>
        <h1>Something went wrong</h1>
        <p>The page could not be shown. Reload to try again.</p>
        <button type="button" onClick={() => window.location.reload()}>
          Reload
        </button>
      </main>
    );
  }
}
