import { setFlagsFromString } from 'node:v8';

/**
 * How much V8 lets the old generation grow past what its last full collection kept before it
 * collects again: `--heap-growing-percent`, a factor of 1 + percent / 100. V8's own choice (0)
 * starts high and adapts to how fast collections run, up to 4x; a server under steady load then
 * swings its resident memory by tens of MB between full collections, and climbs well past its
 * level for the first minutes. The flag is read at every collection, so it takes effect when set
 * at run time (unlike the young generation's size, which only node's command line sets), and
 * `startServer` (so `specbase serve`) and `specbase worker` set it when they start (`HEAP_GROWING_PERCENT`,
 * docs/configuration.md; docs/performance.md 7a for the measurements). It is process-wide: a
 * service that embeds the library keeps V8's own unless it calls this.
 *
 * 0 leaves whatever node was started with.
 */
export function tuneHeap(percent: number, setFlags: (flags: string) => void = setFlagsFromString): void {
  if (percent > 0) setFlags(`--heap-growing-percent=${percent}`);
}
