/**
 * CPU time a child process has used so far, for the benchmarks that run on a busy machine: wall
 * time grows when other work takes the cores, CPU time hardly does, so next to each other they
 * tell slowness of the code from a crowded machine.
 */
import { readdirSync, readFileSync } from 'node:fs';

/**
 * ms on a CPU, summed over the process's live threads (Linux: the first field of
 * /proc/<pid>/task/<tid>/schedstat, in ns); undefined where there is no such file. Threads that
 * have already exited are not counted.
 */
export function cpuMs(pid: number | undefined): number | undefined {
  let ms = 0;
  for (const thread of threadCpuMs(pid).values()) ms += thread;
  return Number.isFinite(ms) && ms > 0 ? ms : undefined;
}

/** ms on a CPU of each live thread of a process (tid -> ms); empty where there is no /proc. */
export function threadCpuMs(pid: number | undefined): Map<number, number> {
  const threads = new Map<number, number>();
  if (pid === undefined) return threads;
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        threads.set(Number(tid), Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e6);
      } catch {
        // The thread ended in between.
      }
    }
  } catch {
    // No such process, or no /proc.
  }
  return threads;
}

/** The pids of the PostgreSQL server's processes on this machine (`postgres` and its backends), by their command name. */
export function postgresPids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('postgres');
        } catch {
          return false;
        }
      })
      .map(Number);
  } catch {
    return [];
  }
}
