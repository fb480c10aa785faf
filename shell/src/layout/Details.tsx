import type { ReactNode } from 'react';

/**
 * The technical side of a message a visitor sees: a closed "Details" disclosure with the error code and the
 * developer's message, for whoever helps the visitor. The same detail goes to the console where it arises.
 */
export function Details({ code, children }: { code?: string; children: ReactNode }) {
  return (
    <details className="gh-details" data-testid="details">
      <summary>Details</summary>
      {code ? (
        <p>
          Code: <code data-testid="details-code">{code}</code>
        </p>
      ) : null}
      <div>{children}</div>
    </details>
  );
}
