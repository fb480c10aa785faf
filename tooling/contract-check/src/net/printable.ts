// Matching control characters is what this module is for.
/* eslint-disable no-control-regex */
const UNPRINTABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
/* eslint-enable no-control-regex */

/**
 * A server's text made safe for a terminal: control characters other than newline and tab (ESC starts
 * terminal escape sequences), C1 controls and bidirectional overrides are shown as `\u{…}` instead of
 * acting on the terminal.
 */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => `\\u{${c.charCodeAt(0).toString(16)}}`);
}
