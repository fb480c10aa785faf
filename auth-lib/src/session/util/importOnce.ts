/**
 * Wraps a dynamic `import()` so that the module is requested once per page, however many callers ask
 * for it and whenever they ask (a preload before the config is known, then the session's start). A
 * failed request is forgotten, so the next call (the session's retry) requests the module again.
 */
export function importOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () => {
    if (pending === null) {
      const request = load();
      pending = request;
      request.catch(() => {
        if (pending === request) pending = null;
      });
    }
    return pending;
  };
}
