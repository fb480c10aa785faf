/** The default loading and error states of the guards: plain, accessible, easy to replace. */

export function Waiting() {
  return (
    <p role="status" aria-live="polite">
      Checking your sign-in…
    </p>
  );
}

export function SessionProblem({ error, retry }: { error: unknown; retry: () => Promise<unknown> }) {
  const message = error instanceof Error ? error.message : 'Signing in did not work.';
  return (
    <div role="alert">
      <p>{message}</p>
      <button type="button" onClick={() => void retry()}>
        Try again
      </button>
    </div>
  );
}
