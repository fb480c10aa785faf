/**
 * Wraps an async operation so that callers arriving while it runs share the one run in flight
 * instead of starting another: 50 concurrent `getToken()` calls make one token request.
 */
export function singleFlight<T>(operation: () => Promise<T>): () => Promise<T> {
  let inFlight: Promise<T> | null = null;
  return () => {
    if (!inFlight) {
      inFlight = operation().finally(() => {
        inFlight = null;
      });
    }
    return inFlight;
  };
}
