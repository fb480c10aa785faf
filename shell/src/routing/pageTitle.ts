import type { RemoteConfig } from '../config/types';

/** The suffix of every page's title, and the title of a page that names nothing else. */
export const SITE_NAME = 'Gatehouse';

/**
 * The document title of a path: "Profile · Gatehouse" from the registry's title of the remote that owns it,
 * "Home · Gatehouse" at `/`, "Page not found · Gatehouse" anywhere else. Screen readers read it on every
 * page change, and it names the tab.
 */
export function pageTitle(pathname: string, remotes: readonly Pick<RemoteConfig, 'route' | 'title'>[]): string {
  if (pathname === '/' || pathname === '') return `Home · ${SITE_NAME}`;
  const owner = remotes.find((remote) => pathname === remote.route || pathname.startsWith(`${remote.route}/`));
  return `${owner ? owner.title : 'Page not found'} · ${SITE_NAME}`;
}
