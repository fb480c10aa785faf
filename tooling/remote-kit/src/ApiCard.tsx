import { useAuth, type Session } from '@gatehouse/auth-lib';
import { skipToken, useQuery } from '@tanstack/react-query';

/** What the API answers: the demo API (demo-api/) says who called and the audience of the token it accepted. */
interface ApiAnswer {
  readonly user: string;
  readonly aud: readonly string[];
}

/** One call: `authFetch` adds this remote's token, and a refusal (401, 403, …) becomes the query's error. */
async function callApi(session: Session, url: string): Promise<ApiAnswer> {
  const response = await session.authFetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status}: ${(await response.text()).slice(0, 200)}`);
  return (await response.json()) as ApiAnswer;
}

/**
 * This remote's own API (its registry entry's `api`), called through TanStack Query with `authFetch` from the session
 * the shell gave the remote: the token's audience is this API alone (decisions/0054). It calls once the visitor is
 * signed in, and once per mount: a refusal is shown, not retried (`authFetch` has already refreshed and retried a 401
 * once), and a focused window or a network back online calls nothing.
 */
export function ApiCard() {
  const { session, status } = useAuth();
  const api = session.api;
  const answer = useQuery({
    queryKey: ['api', api?.url],
    queryFn: api && status === 'authenticated' ? () => callApi(session, api.url) : skipToken,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

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
            {answer.isSuccess ? `Signed in as ${answer.data.user}` : answer.isError ? `Refused (${answer.error.message})` : 'Calling…'}
          </span>
        </dd>
        <dt>Token audience</dt>
        <dd data-testid="api-audience">{answer.isSuccess ? answer.data.aud.join(', ') : '—'}</dd>
      </dl>
    </section>
  );
}
