import { AuthProvider, type Session } from '@gatehouse/auth-lib';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import type { RemoteConfig } from '../config/types';
import type { RemoteRegistry } from '../registry/RemoteRegistry';
import { RemoteRoute } from '../routing/RemoteRoute';
import { ShellContext } from '../ShellContext';

/**
 * The slot's side of the registry as a route test needs it: a remote that opens to nothing, is ready at once, holds no
 * failure and has no new release; tests override what they are about (`open`, or spies on the retries).
 */
export function slotRegistry<Overrides extends object>(overrides: Overrides) {
  return {
    open: async (): Promise<{ default: () => null }> => ({ default: () => null }),
    ready: () => undefined,
    loaded: () => undefined,
    heldFailure: () => undefined,
    lookForUpdate: async () => false,
    retryWhenDue: () => undefined,
    cancelRetry: () => undefined,
    ...overrides,
  };
}

/** `<RemoteRoute remote>` at `path` as the shell routes to it: under the session, with `registry` in the shell's context. */
export function renderRemoteRoute(session: Session, remote: RemoteConfig, registry: object, path: string) {
  return render(
    <AuthProvider session={session}>
      <ShellContext.Provider
        value={{
          config: { identityProvider: { url: 'http://idp', realm: 'r', clientId: 'c' }, remotes: [remote] },
          registry: registry as unknown as RemoteRegistry,
        }}
      >
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path={`${remote.route}/*`} element={<RemoteRoute remote={remote} />} />
          </Routes>
        </MemoryRouter>
      </ShellContext.Provider>
    </AuthProvider>,
  );
}
