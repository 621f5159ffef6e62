/**
 * CPU this process has spent (user and system, every thread), in ms; `since` a `process.cpuUsage()`.
 * Tests that bound how long work takes count it, not the clock's time: on a busy machine the clock
 * also counts the time other processes had the cores.
 */
export function cpuMs(since?: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
}
