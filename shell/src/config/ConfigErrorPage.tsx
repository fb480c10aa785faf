import { CONFIG_URL } from './load';

/** What a visitor sees instead of a blank page when the runtime config is missing or wrong. */
export function ConfigErrorPage({ problems }: { problems: readonly string[] }) {
  return (
    <main className="gh-main">
      <h1>Gatehouse cannot start</h1>
      <section className="gh-card gh-error" role="alert">
        <p>
          The shell's configuration (<code>{CONFIG_URL}</code>) has {problems.length === 1 ? 'a problem' : `${problems.length} problems`}:
        </p>
        <ul>
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
        <p className="gh-muted">The format is described in the shell's README (shell/README.md).</p>
      </section>
    </main>
  );
}
