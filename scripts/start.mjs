#!/usr/bin/env node
// `npm start`: the dev identity provider, the shell and every remote with their dev servers, in one
// terminal. Prints the addresses and the demo users once everything answers; Ctrl-C stops it all
// (each app runs in its own process group, which is killed as a whole: npm → sh → webpack → workers).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** What runs, and the address that answers once it is ready. */
export const APPS = [
  { name: 'idp', args: ['run', 'idp'], ready: 'http://localhost:8080/realms/gatehouse/.well-known/openid-configuration' },
  { name: 'shell', args: ['start', '-w', '@gatehouse/shell'], ready: 'http://localhost:3000/config.json' },
  ...discoverRemotes(),
];

/**
 * Every folder of remotes/ with a package.json and a dev port (`port: 3001` in its webpack.config.ts),
 * so a remote made with `npm run new-remote` starts without editing this file.
 */
function discoverRemotes() {
  const dir = join(root, 'remotes');
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'package.json')))
    .flatMap((entry) => {
      const pkg = JSON.parse(readFileSync(join(dir, entry.name, 'package.json'), 'utf8'));
      const config = join(dir, entry.name, 'webpack.config.ts');
      const port = existsSync(config) ? /\bport:\s*(\d+)/.exec(readFileSync(config, 'utf8'))?.[1] : undefined;
      if (!port) return [];
      return [{ name: entry.name, args: ['start', '-w', pkg.name], ready: `http://localhost:${port}/mf-manifest.json`, port }];
    })
    .sort((a, b) => Number(a.port) - Number(b.port));
}

const COLORS = [35, 36, 32, 33, 34];
const children = new Map();
let stopping = false;

function prefixLines(name, color, stream, target) {
  let rest = '';
  stream.on('data', (chunk) => {
    const lines = (rest + chunk.toString()).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) target.write(`\x1b[${color}m${name.padEnd(8)}\x1b[0m| ${line}\n`);
  });
}

function startApp(app, index) {
  const child = spawn('npm', app.args, {
    cwd: root,
    detached: true, // its own process group, so stop() can kill the whole tree
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '1' },
  });
  children.set(app.name, child);
  const color = COLORS[index % COLORS.length];
  prefixLines(app.name, color, child.stdout, process.stdout);
  prefixLines(app.name, color, child.stderr, process.stderr);
  child.on('exit', (code, signal) => {
    children.delete(app.name);
    if (stopping) return;
    console.error(`\n${app.name} stopped (${signal ?? `exit code ${code}`}); stopping everything.`);
    stop(1);
  });
}

function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  if (children.size === 0) process.exit(code);
  for (const child of children.values()) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  // Anything that ignores SIGTERM gets SIGKILL after a grace period.
  const deadline = setTimeout(() => {
    for (const child of children.values()) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    process.exit(code);
  }, 3000);
  deadline.unref();
  const check = setInterval(() => {
    if (children.size === 0) {
      clearInterval(check);
      process.exit(code);
    }
  }, 100);
}

async function answers(url) {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
    return response.ok;
  } catch {
    return false;
  }
}

async function waitForAll(timeoutMs = 180_000) {
  const pending = new Set(APPS);
  const started = Date.now();
  while (pending.size > 0 && !stopping) {
    for (const app of [...pending]) if (await answers(app.ready)) pending.delete(app);
    if (pending.size === 0) return true;
    if (Date.now() - started > timeoutMs) {
      console.error(`Still waiting for: ${[...pending].map((a) => a.name).join(', ')}`);
      return false;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return pending.size === 0;
}

process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
process.on('SIGHUP', () => stop(0));

// Something already answering (say, an identity provider you started yourself) is used, not started twice.
for (const [index, app] of APPS.entries()) {
  if (await answers(app.ready)) console.log(`${app.name} is already running (${new URL(app.ready).origin}); using it.`);
  else startApp(app, index);
}

if (await waitForAll()) {
  console.log(`
  Gatehouse is running.

    shell              http://localhost:3000
${APPS.filter((app) => app.port).map((app) => `    ${`remote ${app.name}`.padEnd(18)} http://localhost:${app.port}   (standalone)\n`).join('')}    identity provider  http://localhost:8080   (realm "gatehouse")

  Demo users (password = username):
    alice / alice   Alice Anders   realm roles user, admin · client role reports/viewer
    bob   / bob     Bob Brown      realm role user
    carol / carol   Carol Chen     realm role user · client role reports/viewer

  Press Ctrl-C to stop everything.
`);
}
