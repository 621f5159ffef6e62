import { performance } from 'node:perf_hooks';
import type { Worker, WorkerOptions } from 'node:worker_threads';
import type { DeliveryOutcome, OutgoingRun, RunAttempt, WebhookSender } from '../../application/ports/webhook-sender.port.js';
import type { OutgoingAttempt } from '../../application/webhooks/run-policy.js';
import { clockAt, offsetOf } from './run-clock.js';
import type { HttpWebhookSender } from './http-webhook-sender.js';
import { READY, type Reply, type Request, type SenderThreadData, type WireAttempt } from './sender-thread-wire.js';

export interface ThreadedWebhookSenderOptions {
  /** Sender threads (at least 1); each attempt goes to the one with the fewest in flight. */
  readonly threads: number;
  /**
   * Starts a thread whose entry module calls `serveSendRequests` with an HttpWebhookSender built
   * from `options.workerData` (a SenderThreadData): `new Worker(<the built entry module>, options)`.
   */
  readonly start: (options: WorkerOptions) => Worker;
  readonly data: SenderThreadData;
  /** Sends in this thread instead when a sender thread cannot start (a missing or broken script). */
  readonly fallback: Pick<HttpWebhookSender, 'send' | 'sendRun'>;
  /** Told of a thread that failed to start or died; the sender carries on regardless. */
  readonly onError?: (error: unknown, what: string) => void;
  /**
   * The watchdog's allowance beyond a request's deadline (default 2000 ms): a run must have reported
   * its end by its last start (`startBy`) plus one attempt's timeout plus this, a single attempt by
   * its timeout plus this, or its thread is taken for hung: ended and replaced. The time counts from
   * when the thread listens: a thread still starting has not begun the request.
   */
  readonly watchdogSlackMs?: number;
  /**
   * How long a thread may take to listen (default 30,000 ms): one that has not by then is taken
   * for one that cannot start (its work, none of it sent, and all later work go to `fallback`).
   */
  readonly startTimeoutMs?: number;
  /** Heap limits of each thread: attempts hold at most 1 KiB of a response, so little is needed. */
  readonly resourceLimits?: { readonly maxOldGenerationSizeMb?: number; readonly maxYoungGenerationSizeMb?: number };
}

/**
 * A thread holds the runs of every lane it serves (the worker's in-flight budget, 256 x 128
 * bodies however long the runs: some 20 MB at 600 B a body) and 1 KiB per response: 64 MB old
 * generation leave room; a 2 MB young generation keeps the resident cost of a thread at about
 * 7 MB (measured; 8 MB young: about 15 MB).
 */
const DEFAULT_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 2 };

/** How long past its deadline a request may go unanswered before its thread is taken for hung. */
const DEFAULT_WATCHDOG_SLACK_MS = 2_000;

/**
 * How long a thread may take to listen: the built entry does in tens of milliseconds, so this
 * only catches a start that never ends (and a machine too loaded to start one in half a minute).
 */
const DEFAULT_START_TIMEOUT_MS = 30_000;

/** A request in flight in a thread, and how to settle it: with the reply, or when the thread is gone. */
interface Waiting {
  /** A run's attempts, reported as they ended. */
  readonly attempted?: (attempts: readonly WireAttempt[]) => void;
  /** Settles with the thread's (last) reply. */
  readonly answer: (reply: Reply) => void;
  /**
   * Settles without the thread: in this thread if it never started; else, for a run, with `error`
   * as the outcome of the attempt it may have had in flight, unless `blameless`: the thread hung
   * over another request (then nothing unreported of this one counts as an attempt).
   */
  readonly orphaned: (neverStarted: boolean, error: string, blameless: boolean) => void;
  /** How long the thread has for the request once it listens, before the watchdog's slack. */
  readonly deadlineMs: number;
  /** The watchdog: fires when the request is not answered in time (armed once the thread listens). */
  watchdog?: NodeJS.Timeout;
}

/**
 * A WebhookSender that makes the attempts (signing, connecting, the POST, reading the answer) in a
 * worker thread running HttpWebhookSender, so the thread that serves HTTP requests and keeps the
 * delivery log spends its time on those alone, and a lane's run goes out attempt after attempt
 * without waiting for that thread in between (docs/adr/0021-continuous-lanes-and-sender-thread.md). Threads
 * start with the first attempt and are unreferenced while idle, so they never keep a process alive.
 *
 * Failures stay outcomes, as the port wants: a thread that cannot start hands its work to
 * `fallback` (none of it had gone out) and all later work too; a thread that dies after it started
 * answers the attempt it had in flight with an error outcome (it may or may not have reached the
 * receiver: retried, at least once); of a run, the attempts it reported stand (it reports them 16
 * at a time), the first unreported one gets that error outcome and the rest is released (sent
 * again: at least once). It is started again for the next request.
 *
 * A thread that hangs without dying (a loop that never yields, a promise that never settles) is
 * caught by a watchdog: each request has a deadline (a run: its last start, `startBy`, plus one
 * attempt's timeout; one attempt: its timeout; each plus `watchdogSlackMs`), counted from when the
 * thread listens, and a thread with a request unanswered past it is ended and replaced. The overdue
 * run is settled as if the thread had died (its first unreported delivery failed, so it backs
 * off); the thread's other runs are released without counting as attempts. A thread that does not
 * listen within `startTimeoutMs` is taken for one that cannot start. So a run always ends, and the
 * worker's `stop()` never waits on a thread forever. A slow start (a loaded machine) is not
 * charged to the requests waiting on it: it took the thread for hung and failed deliveries never sent.
 */
export class ThreadedWebhookSender implements WebhookSender {
  private readonly threads: SenderThread[];
  private broken = false;
  private closed = false;

  constructor(private readonly options: ThreadedWebhookSenderOptions) {
    if (!Number.isInteger(options.threads) || options.threads < 1) throw new RangeError(`threads must be a positive integer, not ${options.threads}`);
    this.threads = Array.from({ length: options.threads }, () => new SenderThread(options, () => (this.broken = true)));
  }

  /** One attempt, in a thread (what a thread's tests look at; deliveries go as runs). */
  send(attempt: OutgoingAttempt): Promise<DeliveryOutcome> {
    if (this.broken || this.closed) return this.options.fallback.send(attempt);
    return this.leastBusy().send(attempt);
  }

  sendRun(run: OutgoingRun, stop?: AbortSignal): Promise<RunAttempt[]> {
    if (this.broken || this.closed) return this.options.fallback.sendRun(run, stop);
    return this.leastBusy().sendRun(run, stop, () => this.options.fallback.sendRun(run, stop));
  }

  /** Requests sent to a thread so far (the rest went to the fallback). */
  get threadedRequests(): number {
    return this.threads.reduce((sum, thread) => sum + thread.sent, 0);
  }

  /** Ends the threads; work still in flight ends with an error outcome. Later work goes to the fallback. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.threads.map((thread) => thread.terminate()));
  }

  private leastBusy(): SenderThread {
    let chosen = this.threads[0]!;
    for (const thread of this.threads) if (thread.inFlight < chosen.inFlight) chosen = thread;
    return chosen;
  }

}

const abortHandlers = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `handler` when `signal` aborts (at once if it has) and returns how to stop waiting: one
 * listener per signal, however many runs (up to a lane each) wait on it.
 */
function whenAborted(signal: AbortSignal, handler: () => void): () => void {
  if (signal.aborted) {
    handler();
    return () => undefined;
  }
  const handlers = abortHandlers.get(signal) ?? new Set<() => void>();
  if (!abortHandlers.has(signal)) {
    abortHandlers.set(signal, handlers);
    signal.addEventListener('abort', () => handlers.forEach((h) => h()), { once: true });
  }
  handlers.add(handler);
  return () => void handlers.delete(handler);
}

/** The error outcome of an attempt in flight when its thread went away, by how it went. */
const STOPPED = {
  died: 'the webhook sender thread stopped',
  closed: 'the webhook sender was closed',
  hung: 'the webhook sender thread did not answer in time',
} as const;

const failed = (started: number, error: string): DeliveryOutcome => ({ status: null, durationMs: Math.round(performance.now() - started), responseBody: '', error });

/** One worker thread and the requests it has in flight; started on demand, again after it died. */
class SenderThread {
  private worker: Worker | undefined;
  private ready = false;
  /** Ends a thread that does not listen in time. */
  private startWatchdog: NodeJS.Timeout | undefined;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 0;
  sent = 0;

  constructor(
    private readonly options: ThreadedWebhookSenderOptions,
    private readonly onStartFailed: () => void,
  ) {}

  get inFlight(): number {
    return this.waiting.size;
  }

  send(attempt: OutgoingAttempt): Promise<DeliveryOutcome> {
    const { attemptDate, ...rest } = attempt;
    const started = performance.now();
    return new Promise((resolve) => {
      this.request((id) => ({ kind: 'send', id, attempt: { ...rest, attemptMs: attemptDate.getTime() } }), this.options.data.timeoutMs, {
        answer: (reply) => resolve('outcome' in reply ? reply.outcome : failed(started, 'the webhook sender thread answered out of turn')),
        orphaned: (neverStarted, error) => resolve(neverStarted ? this.options.fallback.send(attempt) : failed(started, error)),
      });
    });
  }

  sendRun(run: OutgoingRun, stop: AbortSignal | undefined, inThisThread: () => Promise<RunAttempt[]>): Promise<RunAttempt[]> {
    const { startBy, now, ...rest } = run;
    const offsetMs = offsetOf(now);
    const clock = clockAt(offsetMs);
    const started = performance.now();
    const attempts: RunAttempt[] = [];
    return new Promise((resolve) => {
      let unsubscribe = (): void => undefined;
      const done = (result: RunAttempt[] | Promise<RunAttempt[]>) => {
        unsubscribe();
        resolve(result);
      };
      // No attempt starts after startBy, and each ends within the timeout.
      const deadlineMs = Math.max(0, startBy.getTime() - now.getTime()) + this.options.data.timeoutMs;
      const id = this.request((id) => ({ kind: 'run', id, run: { ...rest, startByMs: startBy.getTime(), offsetMs } }), deadlineMs, {
        attempted: (reported) => reported.forEach(({ attemptMs, outcome }) => attempts.push({ attemptDate: new Date(attemptMs), outcome })),
        answer: () => done(attempts),
        orphaned: (neverStarted, error, blameless) => {
          if (neverStarted) return done(inThisThread());
          // Attempts not yet reported are sent again (at least once). The thread may have had one
          // in flight, which may or may not have reached the receiver: the first not reported ends
          // with an error outcome (retried, with its back-off); the rest is released.
          // The run whose deadline passed is charged, so a delivery that hangs the thread backs off
          // like any failure (and ends failed) instead of hanging thread after thread at once; the
          // other runs of a hung thread are released uncounted.
          if (!blameless && attempts.length < run.deliveries.length) attempts.push({ attemptDate: clock(), outcome: failed(started, error) });
          done(attempts);
        },
      });
      if (stop) {
        const worker = this.worker;
        unsubscribe = whenAborted(stop, () => worker?.postMessage({ kind: 'stop', id } satisfies Request));
      }
    });
  }

  async terminate(): Promise<void> {
    const worker = this.worker;
    if (worker === undefined) return;
    this.stopped(worker, 'closed');
    await worker.terminate();
  }

  /**
   * Posts the request `make(id)` builds to the thread (started if need be); `settle` settles it.
   * Unanswered `deadlineMs` (plus the slack) after the thread listens, the thread is taken for hung.
   */
  private request(make: (id: number) => Request, deadlineMs: number, settle: Omit<Waiting, 'deadlineMs' | 'watchdog'>): number {
    const worker = this.worker ?? this.start();
    const id = ++this.nextId;
    if (this.waiting.size === 0) worker.ref();
    const waiting: Waiting = { ...settle, deadlineMs };
    if (this.ready) this.arm(worker, id, waiting);
    this.waiting.set(id, waiting);
    this.sent += 1;
    worker.postMessage(make(id));
    return id;
  }

  /** Starts the watchdog of request `id`, which `worker` listens for. */
  private arm(worker: Worker, id: number, waiting: Waiting): void {
    waiting.watchdog = setTimeout(() => this.hung(worker, id), waiting.deadlineMs + (this.options.watchdogSlackMs ?? DEFAULT_WATCHDOG_SLACK_MS));
    waiting.watchdog.unref();
  }

  private start(): Worker {
    const worker = this.options.start({
      workerData: this.options.data,
      resourceLimits: { ...DEFAULT_LIMITS, ...this.options.resourceLimits },
    });
    this.worker = worker;
    this.ready = false;
    worker.unref();
    this.startWatchdog = setTimeout(() => this.notStarted(worker), this.options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS);
    this.startWatchdog.unref();
    worker.on('message', (message: Reply | typeof READY) => {
      if (message === READY) {
        this.ready = true;
        clearTimeout(this.startWatchdog);
        for (const [id, waiting] of this.waiting) this.arm(worker, id, waiting);
        return;
      }
      const waiting = this.waiting.get(message.id);
      if (waiting === undefined) return;
      if ('attempts' in message) waiting.attempted?.(message.attempts);
      if ('attempts' in message && !message.done) return;
      clearTimeout(waiting.watchdog);
      this.waiting.delete(message.id);
      if (this.waiting.size === 0) worker.unref();
      waiting.answer(message);
    });
    const died = (error: unknown) => {
      if (this.worker !== worker) return; // closed, or already told
      this.options.onError?.(error, this.ready ? 'a webhook sender thread died' : 'a webhook sender thread could not start; sending in the main thread instead');
      this.stopped(worker, 'died');
    };
    worker.on('error', died);
    worker.on('exit', (code) => died(new Error(`the thread exited with code ${code}`)));
    return worker;
  }

  /** The start watchdog: `worker` did not listen in time. It is ended, and taken for a thread that cannot start. */
  private notStarted(worker: Worker): void {
    if (this.worker !== worker || this.ready) return;
    this.options.onError?.(new Error('the thread did not listen in time'), 'a webhook sender thread could not start; sending in the main thread instead');
    this.stopped(worker, 'died');
    void worker.terminate();
  }

  /** The watchdog: `worker` left a request unanswered past its deadline. It is ended; the next request starts another. */
  private hung(worker: Worker, overdue: number): void {
    if (this.worker !== worker) return;
    this.options.onError?.(new Error('a request went unanswered past its deadline'), 'a webhook sender thread hung; it was ended and will be replaced');
    this.stopped(worker, 'hung', overdue);
    void worker.terminate();
  }

  /**
   * Settles what `worker` had in flight. A thread that died before it was ready sent nothing: its
   * work goes to the fallback, as all later work will. Otherwise each ends with an error outcome.
   */
  private stopped(worker: Worker, how: 'died' | 'closed' | 'hung', overdue?: number): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    clearTimeout(this.startWatchdog);
    const neverStarted = how === 'died' && !this.ready;
    if (neverStarted) this.onStartFailed();
    const waiting = [...this.waiting.entries()];
    this.waiting.clear();
    const error = STOPPED[how];
    for (const [id, w] of waiting) {
      clearTimeout(w.watchdog);
      w.orphaned(neverStarted, error, how === 'hung' && id !== overdue);
    }
  }
}
