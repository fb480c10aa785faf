import { useAuth } from '@gatehouse/auth-lib';
import { useEffect, useState } from 'react';

/** What the demo API answers (demo-api/): who called, and the audience of the token it accepted. */
interface ApiAnswer {
  readonly user: string;
  readonly aud: readonly string[];
}

type ApiState =
  | { readonly status: 'calling' }
  | { readonly status: 'answered'; readonly answer: ApiAnswer }
  | { readonly status: 'refused'; readonly reason: string };

/**
 * This remote's own API, called with `authFetch` from the session the shell gave the remote: its token's audience
 * is this API alone (the registry entry's `api`; decisions/0054).
 */
export function ApiCard() {
  const { session, status } = useAuth();
  const api = session.api;
  const [state, setState] = useState<ApiState>({ status: 'calling' });

  useEffect(() => {
    if (!api || status !== 'authenticated') return undefined;
    let current = true;
    session
      .authFetch(api.url)
      .then(async (response) => {
        if (!response.ok) throw new Error(`HTTP ${response.status}: ${(await response.text()).slice(0, 200)}`);
        return (await response.json()) as ApiAnswer;
      })
      .then(
        (answer) => current && setState({ status: 'answered', answer }),
        (error: unknown) => current && setState({ status: 'refused', reason: error instanceof Error ? error.message : String(error) }),
      );
    return () => {
      current = false;
    };
  }, [session, api, status]);

  if (!api) return null;
  return (
    <section className="gh-card" aria-labelledby="api-card-heading">
      <h2 id="api-card-heading">Your API</h2>
      <dl className="gh-facts">
        <dt>Address</dt>
        <dd>
          <code>{api.url}</code>
        </dd>
        <dt>Answer</dt>
        <dd data-testid="api-answer">
          <span role="status">
            {state.status === 'calling'
              ? 'Calling…'
              : state.status === 'answered'
                ? `Signed in as ${state.answer.user}`
                : `Refused (${state.reason})`}
          </span>
        </dd>
        <dt>Token audience</dt>
        <dd data-testid="api-audience">{state.status === 'answered' ? state.answer.aud.join(', ') : '—'}</dd>
      </dl>
    </section>
  );
}
