import { spawn, type ChildProcess, type ChildProcessByStdio, type SpawnOptionsWithoutStdio } from 'node:child_process';
import type { Readable } from 'node:stream';

/*
 * Every child process a test starts (a `specbase serve`, a CLI run, a worker) is tracked here, so
 * that a failing or timed-out test does not leave it running: the root hooks of
 * test/support/process-hooks.ts stop what a test started after that test (its own hooks have run
 * first), what a suite's `before` started after the whole run, and the process's exit kills what
 * is left. In-process servers need none of this: they end with the mocha process.
 */

interface Tracked {
  readonly child: ChildProcess;
  /** Started inside a test (its body or a beforeEach), not by a suite's `before`. */
  readonly ofTest: boolean;
}

const running = new Set<Tracked>();
let inTest = false;

/**
 * `child_process.spawn` with stdin ignored and stdout and stderr piped, tracked: stopped after the
 * test that started it, whatever its outcome.
 */
export function spawnTracked(command: string, args: readonly string[], options: SpawnOptionsWithoutStdio): ChildProcessByStdio<null, Readable, Readable> {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  const tracked = { child, ofTest: inTest };
  running.add(tracked);
  child.once('exit', () => running.delete(tracked));
  child.once('error', () => running.delete(tracked));
  return child;
}

export function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/** Whether a process of that pid still runs (signal 0 checks without sending anything). */
export function pidRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once it has exited. */
export async function stopChild(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (!isRunning(child) || child.pid === undefined) return;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await gone;
  clearTimeout(timer);
}

/** Root hooks (test/support/process-hooks.ts). */
export function testStarted(): void {
  inTest = true;
}

export async function testEnded(): Promise<void> {
  inTest = false;
  await Promise.all([...running].filter((t) => t.ofTest).map((t) => stopChild(t.child)));
}

export async function runEnded(): Promise<void> {
  await Promise.all([...running].map((t) => stopChild(t.child)));
}

process.once('exit', () => {
  for (const { child } of running) if (isRunning(child)) child.kill('SIGKILL');
});
