import { useEffect } from 'react';
import { Details } from '../layout/Details';
import { CONFIG_URL } from './load';

/**
 * What a visitor sees instead of a blank page when the runtime config is missing or wrong: plain words for
 * them; every problem, each naming the field, behind "Details" and in the console for whoever deploys the shell.
 */
export function ConfigErrorPage({ problems }: { problems: readonly string[] }) {
  useEffect(() => {
    console.error(`Gatehouse cannot start: ${CONFIG_URL} has ${problems.length} problem(s):\n- ${problems.join('\n- ')}`);
  }, [problems]);
  return (
    <main className="gh-main">
      <h1>Gatehouse cannot start</h1>
      <section className="gh-card gh-error" role="alert">
        <p>
          Gatehouse cannot start because its settings have a mistake. Please try again later; if it stays like this, tell the site’s
          administrators.
        </p>
        <Details code="config-invalid">
          <p>
            The shell's configuration (<code>{CONFIG_URL}</code>) has {problems.length === 1 ? 'a problem' : `${problems.length} problems`}:
          </p>
          <ul>
            {problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
          <p>The format is described in the shell's README (shell/README.md).</p>
        </Details>
      </section>
    </main>
  );
}
