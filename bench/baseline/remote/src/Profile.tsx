import { useEffect, useState } from 'react';
import { auth } from 'baseline-auth';

/**
 * The remote's API call in its plainest form: `fetch` with `Authorization: Bearer` and keycloak-js's token as the host
 * keeps it (the bench's demo API for the baseline takes bearer tokens: `--allow-bearer`). No `updateToken(30)` first,
 * which keycloak-js's docs put before a call: with the login-status frame on it asks the frame each time, a cost of
 * keycloak-js and not of a bearer call. On `globalThis` under a registered symbol so that the bench times the very call
 * the remote makes (bench/lib/measure.mjs).
 */
export function callApi(): Promise<Response> {
  return fetch(API_URL, { headers: { Authorization: `Bearer ${auth.token ?? ''}` } });
}
Object.defineProperty(globalThis, Symbol.for('gatehouse.bench.baseline-api'), { value: callApi, configurable: true });

/** What the demo API answers: who called. */
interface ApiAnswer {
  user: string;
}

export default function Profile() {
  // like Gatehouse's profile remote (its ApiCard), the page calls its API once it has mounted
  const [answer, setAnswer] = useState('Calling…');
  useEffect(() => {
    let current = true;
    callApi()
      .then(async (response) => {
        if (!response.ok) throw new Error(`HTTP ${response.status}: ${(await response.text()).slice(0, 200)}`);
        return (await response.json()) as ApiAnswer;
      })
      .then(
        (body) => current && setAnswer(`Signed in as ${body.user}`),
        (error: unknown) => current && setAnswer(`Refused (${error instanceof Error ? error.message : String(error)})`),
      );
    return () => {
      current = false;
    };
  }, []);
  return (
    <main>
      <h1 elementtiming="profile-heading">Profile</h1>
      <p>
        Signed in as {auth.username}; token of {auth.token?.length ?? 0} characters.
      </p>
      <p data-testid="api-answer">
        <span role="status">{answer}</span>
      </p>
    </main>
  );
}
