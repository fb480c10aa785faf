/**
 * keycloak-js's `init` and `updateToken` wait forever when the provider's frame never answers, so
 * every wait on the provider goes through this: it settles like `promise`, or rejects with
 * `onTimeout()` after `ms`. The timer is cleared either way so nothing keeps running after.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(onTimeout()), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
