// Which process holds a TCP port, so `npm start` can say "port 3001 is taken by pid 4242 (node server.js)"
// before it starts anything, instead of an app failing with EADDRINUSE among everyone's output. On Linux the
// owner is read from /proc (the listening socket's inode in /proc/net/tcp{,6}, then the process whose
// /proc/<pid>/fd holds that socket); elsewhere, or when the process belongs to a user this one cannot see,
// the message gives the command that finds it. Plain Node, no dependencies, like processes.ts.

import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { accepts } from './ports';

export interface PortOwner {
  pid: number;
  /** its command line */
  command: string;
}

/**
 * Whether something accepts connections on `port` of this machine (IPv4 or IPv6 loopback).
 */
async function portTaken(port: number): Promise<boolean> {
  return (await Promise.all(['127.0.0.1', '::1'].map((host) => accepts(port, host)))).some(Boolean);
}

/**
 * The inodes of the sockets listening on `port`, from /proc/net/tcp and tcp6; null when they cannot be read.
 */
function listeningInodes(port: number, proc: string): Set<string> | null {
  const inodes: Set<string> = new Set();
  let readable = false;
  for (const table of ['net/tcp', 'net/tcp6']) {
    let text;
    try {
      text = readFileSync(`${proc}/${table}`, 'utf8');
    } catch {
      continue;
    }
    readable = true;
    for (const line of text.split('\n').slice(1)) {
      // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
      const fields = line.trim().split(/\s+/);
      const [, local, , state, , , , , , inode] = fields;
      if (state !== '0A' || !local || !inode) continue; // 0A: LISTEN
      if (Number.parseInt(local.split(':').pop() ?? '', 16) === port) inodes.add(inode);
    }
  }
  return readable ? inodes : null;
}

/**
 * The processes listening on `port`, read from /proc. Null when they cannot be read (not Linux, or the socket
 * belongs to a process this user may not look into); an empty list when nothing listens.
 *
 * @param options `proc`: where procfs is mounted (default /proc)
 */
function portOwners(port: number, { proc = '/proc' }: { proc?: string } = {}): PortOwner[] | null {
  const inodes = listeningInodes(port, proc);
  if (inodes === null) return null;
  if (inodes.size === 0) return [];
  const sockets = new Set([...inodes].map((inode) => `socket:[${inode}]`));
  const owners: PortOwner[] = [];
  for (const entry of readdirSync(proc)) {
    if (!/^\d+$/.test(entry)) continue;
    let fds;
    try {
      fds = readdirSync(`${proc}/${entry}/fd`);
    } catch {
      continue; // another user's process, or it has just exited
    }
    const holds = fds.some((fd) => {
      try {
        return sockets.has(readlinkSync(`${proc}/${entry}/fd/${fd}`));
      } catch {
        return false;
      }
    });
    if (holds) owners.push({ pid: Number(entry), command: commandLine(proc, entry) });
  }
  return owners.length > 0 ? owners : null;
}

function commandLine(proc: string, pid: string) {
  try {
    return readFileSync(`${proc}/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ') || '(command line not readable)';
  } catch {
    return '(command line not readable)';
  }
}

/**
 * One line saying who holds `port` and what to do, for a port found taken.
 *
 * @param purpose what needs it ("the shell")
 */
function describePortOwner(port: number, purpose: string, options?: { proc?: string }): string {
  const owners = portOwners(port, options);
  const find = `find it with \`ss -ltnp 'sport = :${port}'\` or \`lsof -i :${port}\``;
  if (owners === null || owners.length === 0) {
    return `port ${port} (${purpose}) is taken by a process whose owner cannot be read here; ${find}, stop it, and start again.`;
  }
  const who = owners.map((owner) => `pid ${owner.pid} (${owner.command})`).join(', ');
  return `port ${port} (${purpose}) is taken by ${who}; stop it (kill ${owners.map((o) => o.pid).join(' ')}) and start again.`;
}

export { portTaken, portOwners, describePortOwner };
