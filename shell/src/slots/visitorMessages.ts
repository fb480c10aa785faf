import type { RemoteFailureCode } from '../registry/RemoteLoadError';

/**
 * What a visitor reads when a remote's slot fails, by failure code: what happened and what to do, in plain
 * words. The technical message (addresses, federation errors, commands for the remote's team) stays in the
 * slot's "Details" and in the console. shell/README.md lists every visitor-facing message.
 */
export const SLOT_MESSAGES: Record<RemoteFailureCode, (title: string) => string> = {
  unreachable: (title) => `${title} cannot be reached right now. Try again in a moment with Retry; the rest of Gatehouse still works.`,
  'manifest-missing': (title) =>
    `${title} is not available at the moment, perhaps because it is being updated. Try again in a moment with Retry; if it stays like this, tell the site's administrators.`,
  'code-unavailable': (title) =>
    `${title} could not be loaded completely, perhaps because it was just updated. Try again with Retry; if it stays like this, tell the site's administrators.`,
  'incompatible-auth-lib': (title) =>
    `${title} has been updated and does not work with this version of Gatehouse yet. Please try again later, or tell the site's administrators.`,
  'incompatible-shared': (title) =>
    `${title} has been updated and does not work with this version of Gatehouse yet. Please try again later, or tell the site's administrators.`,
  'code-failed': (title) =>
    `${title} stopped because of an error. Try again with Retry; if it happens again, tell the site's administrators.`,
  'code-refused': (title) =>
    `${title} was not loaded because its code comes from an address this site does not trust. Please tell the site's administrators.`,
  'release-unverified': (title) =>
    `This release of ${title} could not be verified, so it was not run. Its team has been told; the rest of Gatehouse still works.`,
  'no-app': (title) => `${title} is not set up correctly, so it cannot be shown. Please tell the site's administrators.`,
};
