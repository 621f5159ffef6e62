/**
 * Whether this instance still wants new requests. `stop()` of the bundled server calls `drain()`
 * first, so `/readyz` answers 503 while the listener still accepts (for `SHUTDOWN_DRAIN_MS`) and a
 * load balancer has time to take the instance out of rotation. An embedder shutting down its own
 * server calls `drain()` the same way.
 */
export class Readiness {
  private isDraining = false;

  drain(): void {
    this.isDraining = true;
  }

  get draining(): boolean {
    return this.isDraining;
  }
}
