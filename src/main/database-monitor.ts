/** Pings in flight at most: each holds a connection of the pool while the database is silent. */
const MAX_PINGS = 3;

/** What the monitor reports when the database goes away or comes back. */
export interface DatabaseMonitorEvents {
  /** The database stopped answering (a ping failed, or did not answer within the timeout). */
  readonly away?: () => void;
  /** It answers again, `awayMs` after it was first seen away. */
  readonly back?: (awayMs: number) => void;
}

export interface DatabaseMonitorOptions extends DatabaseMonitorEvents {
  /** How often to ping (default 1000 ms). */
  readonly intervalMs?: number;
  /** A ping unanswered this long counts as away (default 2000 ms). */
  readonly timeoutMs?: number;
}

/**
 * Watches whether the database answers, so that while it does not the service answers fast
 * (`/healthz` and `/readyz` 503, other requests 503 `database_unavailable` without waiting on a
 * connection) and, once it answers again, the worker is woken at once instead of at the end of
 * its back-off. A server that is stopped (not refusing, just silent), or a connection gone dead
 * without a word, holds a ping until it resumes or the socket is found dead: that ping counts as
 * away once it is `timeoutMs` old, and the next probe sends another (on another connection of the
 * pool) rather than wait on it, up to MAX_PINGS in flight.
 */
export class DatabaseMonitor {
  private awaySince: number | undefined;
  /** When each ping in flight started. */
  private readonly pings = new Set<number>();
  /** When the newest ping that answered started: what older pings say after it no longer counts. */
  private answeredFrom = -Infinity;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly ping: () => Promise<boolean>,
    private readonly options: DatabaseMonitorOptions = {},
  ) {}

  /** Whether the database answered the last ping (true until a ping says otherwise). */
  get available(): boolean {
    return this.awaySince === undefined;
  }

  start(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => this.probe(), this.options.intervalMs ?? 1000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * `check` if the database is not known to be away, false at once if it is; false too when
   * `check` has not answered within the timeout (a health check must not hang).
   */
  async answers(check: () => Promise<boolean>): Promise<boolean> {
    // Not watching (SQLite, or an embedder that did not start it): the check as it is.
    if (this.timer === undefined) return check();
    if (!this.available) return false;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), this.options.timeoutMs ?? 2000)));
    try {
      return await Promise.race([check().catch(() => false), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** One probe: a ping, unless a recent one is still in flight; one in flight too long means away. */
  probe(): void {
    const now = Date.now();
    const timeoutMs = this.options.timeoutMs ?? 2000;
    const newest = Math.max(-Infinity, ...this.pings);
    if (this.pings.size > 0 && now - newest < timeoutMs) return;
    if (this.pings.size > 0) this.wentAway(now);
    if (this.pings.size >= MAX_PINGS) return;
    // A Set of start times: two pings started in the same millisecond count once, which only lets a third start sooner.
    const started = now;
    this.pings.add(started);
    void this.ping()
      .catch(() => false)
      .then((ok) => {
        this.pings.delete(started);
        // A ping older than one that has answered was on a connection since replaced: it says nothing now.
        if (started < this.answeredFrom) return;
        if (!ok) return this.wentAway(Date.now());
        this.answeredFrom = started;
        for (const older of this.pings) if (older <= started) this.pings.delete(older);
        this.cameBack();
      });
  }

  private wentAway(now: number): void {
    if (this.awaySince !== undefined) return;
    this.awaySince = now;
    this.options.away?.();
  }

  private cameBack(): void {
    if (this.awaySince === undefined) return;
    const awayMs = Date.now() - this.awaySince;
    this.awaySince = undefined;
    this.options.back?.(awayMs);
  }
}
