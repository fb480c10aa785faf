import { READY_URLS } from './system';

/** Waits until the identity provider, the shell and every remote answer (webServer waits for one URL only). */
export default async function globalSetup(): Promise<void> {
  const deadline = Date.now() + 180_000;
  for (const url of READY_URLS) {
    for (;;) {
      try {
        if ((await fetch(url, { signal: AbortSignal.timeout(2000) })).ok) break;
      } catch {
        // not up yet
      }
      if (Date.now() > deadline) throw new Error(`${url} did not answer within 3 minutes; is \`npm start\` working?`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}
