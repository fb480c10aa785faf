import { AuthProvider, type Session } from '@gatehouse/auth-lib';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router-dom';
import type { ShellConfig } from '../config/types';
import { Header } from '../layout/Header';
import type { RemoteRegistry } from '../registry/RemoteRegistry';
import { ShellContext } from '../ShellContext';

/** The shell's header as its frame renders it: under the session, with `config` in the shell's context, in a router. */
export function headerTree(session: Session, config: ShellConfig): ReactElement {
  return (
    <AuthProvider session={session}>
      {/* the header opens no remote: no registry */}
      <ShellContext.Provider value={{ config, registry: {} as RemoteRegistry }}>
        <MemoryRouter>
          <Header />
        </MemoryRouter>
      </ShellContext.Provider>
    </AuthProvider>
  );
}
