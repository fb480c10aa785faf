import { AuthProvider, createSession, remoteView, VERSION, type SessionEvent } from '@gatehouse/auth-lib';
import { sessionConfigOf } from './config/sessionConfig';
import { loadRemote, registerPlugins, registerRemotes } from '@module-federation/enhanced/runtime';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { ConfigErrorPage } from './config/ConfigErrorPage';
import { loadPageConfig } from './config/load';
import { clearOverrides, resolveOverrides, tabStorage } from './overrides/RemoteOverrides';
import { RemoteOverridesBanner } from './overrides/RemoteOverridesBanner';
import { FailureLog } from './registry/FailureLog';
import { codeOriginPlugin } from './registry/codeOriginPlugin';
import { compatibilityPlugin } from './registry/compatibilityPlugin';
import { loadErrorPlugin } from './registry/loadErrorPlugin';
import { redeployRecoveryPlugin } from './registry/redeployRecoveryPlugin';
import { remoteAuthPlugin } from './registry/remoteAuthPlugin';
import { authModuleFor, type AuthLibModule } from './auth/remoteAuthModule';
import { RemoteRegistry } from './registry/RemoteRegistry';
import { ReleaseGate } from './registry/ReleaseGate';
import { installReleaseScriptGuard, releaseIntegrityPlugin } from './registry/releaseScriptGuard';
import { RemoteReleases } from './registry/RemoteReleases';
import { RemoteTimeline } from './registry/RemoteTimeline';
import { RetryBackoff } from './registry/RetryBackoff';
import type { RemoteEvent } from './registry/RemoteTimeline';
import { remoteToFetchEarly } from './routing/access';
import { ShellApp } from './ShellApp';
import { ShellContext } from './ShellContext';
import { ShellErrorBoundary } from './ShellErrorBoundary';

async function start(): Promise<void> {
  const container = document.getElementById('root');
  if (!container) throw new Error('The shell needs a <div id="root"> in index.html.');
  const root = createRoot(container);

  // Started by src/index.ts before the async boundary; this awaits the same request.
  const result = await loadPageConfig();
  if (!result.ok) {
    root.render(<ConfigErrorPage problems={result.problems} />);
    return;
  }
  // A remote team may point this tab at the remote it runs itself; off unless config.json allows it.
  const storage = tabStorage();
  const overrides = resolveOverrides(result.config, window.location.search, storage);
  if (overrides.cleanedSearch !== null) {
    window.history.replaceState(window.history.state, '', window.location.pathname + overrides.cleanedSearch + window.location.hash);
  }
  const config = { ...result.config, remotes: overrides.remotes };
  const clearAndReload = () => {
    clearOverrides(storage);
    window.location.reload();
  };

  let session;
  try {
    session = createSession(sessionConfigOf(config));
  } catch (error) {
    root.render(<ConfigErrorPage problems={[error instanceof Error ? error.message : String(error)]} />);
    return;
  }

  const failures = new FailureLog();
  const timeline = new RemoteTimeline();
  // Remotes whose entry pins signingKeys run only releases that verify (decisions/0117); a development build of the
  // shell lets an unsigned build of one run, marked on its slot. A production build never does.
  const gate = new ReleaseGate(() => config.remotes, {
    allowUnsigned: process.env.NODE_ENV !== 'production',
    onRefused: (refusal) => timeline.releaseRefused(refusal.remote, refusal.reason, refusal.message),
  });
  if (config.remotes.some((remote) => remote.signingKeys)) installReleaseScriptGuard(gate, failures);
  const registry = new RemoteRegistry(
    config.remotes,
    { registerRemotes, loadRemote },
    failures,
    timeline,
    new RemoteReleases(),
    new RetryBackoff(),
    gate,
  );
  registerPlugins([
    releaseIntegrityPlugin(gate, failures),
    codeOriginPlugin(failures, (name) => (overrides.active.some((o) => o.name === name) ? (config.overrides?.allowedOrigins ?? []) : null)),
    loadErrorPlugin(failures, () => config.remotes.map((remote) => remote.name), registry),
    compatibilityPlugin(failures),
    redeployRecoveryPlugin(() => config.remotes),
    // each remote's code gets its own @gatehouse/auth-lib, bound to its view of the session (decisions/0109)
    remoteAuthPlugin(
      (name, shellsModule) =>
        authModuleFor(
          remoteView(session, config.remotes.find((r) => r.name === name)?.api ?? null),
          shellsModule as AuthLibModule | undefined,
        ),
      VERSION,
    ),
  ]);
  // Telemetry for any script on the page, one line: window.addEventListener('gatehouse:telemetry', (e) => …).
  // Session events carry the user and times, remote events phases and durations; never a token.
  const publish = (detail: SessionEvent | RemoteEvent) => window.dispatchEvent(new CustomEvent('gatehouse:telemetry', { detail }));
  session.on(publish);
  registry.timeline.on(publish);
  // A deep link to a route that needs only a signed-in visitor fetches its remote in parallel with
  // the sign-in check (check-sso round trips) rather than after it.
  const early = remoteToFetchEarly(config.remotes, window.location.pathname);
  if (early) registry.prefetch(early);

  root.render(
    <StrictMode>
      <ShellErrorBoundary>
        <AuthProvider session={session}>
          <ShellContext.Provider value={{ config, registry }}>
            <RemoteOverridesBanner overrides={overrides} onClear={clearAndReload} />
            <BrowserRouter>
              <ShellApp />
            </BrowserRouter>
          </ShellContext.Provider>
        </AuthProvider>
      </ShellErrorBoundary>
    </StrictMode>,
  );
}

start().catch((error: unknown) => {
  // Last resort: a visitor gets a sentence instead of a blank page, the console gets the error.
  console.error('Gatehouse: the shell failed to start', error);
  const message = document.createElement('p');
  message.textContent = 'Gatehouse could not start. Reload the page to try again; if it stays like this, tell the site’s administrators.';
  document.body.append(message);
});
