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
  if (pid === undefined) return undefined;
  try {
    let ns = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    return Number.isFinite(ns) && ns > 0 ? ns / 1e6 : undefined;
  } catch {
    return undefined;
  }
}
