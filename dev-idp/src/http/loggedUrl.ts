/**
 * A request's URL as the dev provider writes it to its log: the path, and the query's parameter names with every
 * value replaced by `…`. A query carries what must not land in a log file — `code`, `id_token_hint`, `state`,
 * `session_state`, `login_hint`, a token in `access_token` or `token` — and the log of a failed request would be
 * read by whoever collects the output; so no value is kept, not only the ones known to be secret today.
 */
export function loggedUrl(url: string | undefined): string {
  const raw = url ?? '/';
  const queryAt = raw.indexOf('?');
  const path = (queryAt === -1 ? raw : raw.slice(0, queryAt)).replace(/#.*$/s, '');
  if (queryAt === -1) return path;
  const names = raw
    .slice(queryAt + 1)
    .replace(/#.*$/s, '')
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const name = pair.split('=', 1)[0] ?? '';
      return `${name}=…`;
    });
  return names.length === 0 ? path : `${path}?${names.join('&')}`;
}
