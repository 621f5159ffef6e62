import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { postgresUrl } from './cli-processes.js';

/*
 * Faults of the PostgreSQL server the tests use: restarted, or every one of its processes stopped
 * (SIGSTOP) for a while, as a server stalled under load looks from outside. Possible only for a
 * local Debian cluster (pg_ctlcluster) and as root, which is how CI and the development machines
 * run it; elsewhere `faultsPossible()` says why not.
 */

const CLUSTERS = '/etc/postgresql';

/** The one local cluster: its version and data directory; undefined (with why) when there is none to control. */
function cluster(): { readonly version: string; readonly dataDir: string } | string {
  if (postgresUrl === '') return 'TEST_DATABASE_URL is not set';
  const host = new URL(postgresUrl).hostname;
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host)) return `PostgreSQL at ${host} is not this machine's`;
  if (process.getuid?.() !== 0) return 'controlling the PostgreSQL server needs root';
  if (!existsSync('/usr/bin/pg_ctlcluster') || !existsSync(CLUSTERS)) return 'no pg_ctlcluster here';
  const versions = readdirSync(CLUSTERS);
  if (versions.length !== 1) return `expected one PostgreSQL version in ${CLUSTERS}, found ${versions.length}`;
  return { version: versions[0]!, dataDir: `/var/lib/postgresql/${versions[0]}/main` };
}

/** Null when this process can restart and pause the server, else why not. */
export function faultsPossible(): string | null {
  const found = cluster();
  return typeof found === 'string' ? found : null;
}

function controlled(): { readonly version: string; readonly dataDir: string } {
  const found = cluster();
  if (typeof found === 'string') throw new Error(found);
  return found;
}

/**
 * `pg_ctlcluster <version> main restart` (a fast shutdown: sessions are ended), resolving once the
 * server is up again; asynchronous, so the caller's load and receivers go on meanwhile.
 */
export async function restartServer(): Promise<void> {
  await promisify(execFile)('pg_ctlcluster', ['--skip-systemctl-redirect', controlled().version, 'main', 'restart']);
}

/** The server's processes: the postmaster (first line of postmaster.pid) and its children. */
function serverProcesses(): number[] {
  const postmaster = Number(readFileSync(`${controlled().dataDir}/postmaster.pid`, 'utf8').split('\n')[0]);
  const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)], { encoding: 'utf8' })
    .split('\n')
    .map((line) => Number(line.trim()))
    .filter((pid) => pid > 0);
  return [postmaster, ...children];
}

let stopped: number[] = [];

/** Sends SIGCONT to whatever `pauseServer` stopped; safe to call any number of times. */
export function resumeServer(): void {
  for (const pid of stopped) {
    try {
      process.kill(pid, 'SIGCONT');
    } catch {
      // Gone meanwhile.
    }
  }
  stopped = [];
}

// A test that fails or is interrupted mid-pause must not leave the machine's PostgreSQL stopped.
process.once('exit', resumeServer);

/** Stops every process of the server (SIGSTOP): connections stay open and nothing answers. */
export function pauseServer(): void {
  stopped = serverProcesses();
  for (const pid of stopped) process.kill(pid, 'SIGSTOP');
}
