import { AuthProvider, createSession, type ApiBinding, type Session, type SessionConfig } from '@gatehouse/auth-lib';
import { StrictMode, type ComponentType } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { StandaloneFrame } from './StandaloneFrame';

/** What `runStandalone` needs: the remote's title and the component it exposes as `./App`. */
export interface StandaloneApp {
  readonly title: string;
  readonly App: ComponentType;
  /**
   * where the remote's own config is; default `/config.json` with `{ "identityProvider": {url, realm, clientId} }`,
   * and the remote's `api` as in the shell's registry entry (its token is then for that API alone)
   */
  readonly configUrl?: string;
}

/**
 * Runs a remote as a full app on its own port: reads its own config.json, creates the page's session
 * through auth-lib (same realm and client as the shell) and renders the remote's `./App` at `/`,
 * the way the shell renders it under its route.
 *
 * @example
 * // remotes/profile/src/bootstrap.tsx
 * runStandalone({ title: 'Profile', App });
 */
export async function runStandalone({ title, App, configUrl = '/config.json' }: StandaloneApp): Promise<void> {
  const container = document.getElementById('root');
  if (!container) throw new Error('A standalone remote needs a <div id="root"> in its index.html.');
  const root = createRoot(container);
  let session: Session;
  try {
    const { identityProvider, api } = await readConfig(configUrl);
    const page = createSession(api ? { ...identityProvider, scopes: [...(identityProvider.scopes ?? []), api.scope] } : identityProvider);
    // as in the shell: a remote that names its API gets the session's view for it (decisions/0054)
    session = api ? page.forApi(api) : page;
  } catch (error) {
    root.render(
      <main className="gh-main">
        <h1>{title} cannot start</h1>
        <p className="gh-card gh-error" role="alert">
          {error instanceof Error ? error.message : String(error)}
        </p>
      </main>,
    );
    return;
  }
  root.render(
    <StrictMode>
      <AuthProvider session={session}>
        <BrowserRouter>
          <StandaloneFrame title={title}>
            <Routes>
              <Route path="/*" element={<App />} />
            </Routes>
          </StandaloneFrame>
        </BrowserRouter>
      </AuthProvider>
    </StrictMode>,
  );
}

async function readConfig(configUrl: string): Promise<{ identityProvider: SessionConfig; api?: ApiBinding }> {
  const response = await fetch(configUrl, { cache: 'no-store' });
  if (!response.ok) throw new Error(`${configUrl} answered HTTP ${response.status}: put a config.json in the remote's public/ folder.`);
  const config = (await response.json()) as { identityProvider?: SessionConfig; api?: ApiBinding };
  if (typeof config.identityProvider !== 'object' || config.identityProvider === null) {
    throw new Error(`${configUrl} has no "identityProvider" object with url, realm and clientId.`);
  }
  return config.api ? { identityProvider: config.identityProvider, api: config.api } : { identityProvider: config.identityProvider };
}
