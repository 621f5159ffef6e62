import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the receiver saw it. */
export interface Received {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The raw body, as text. */
  readonly body: string;
  /** The Standard Webhooks `webhook-id` header (the event id). */
  readonly webhookId: string | undefined;
  /** The body's `id` (the event id), `name` (the event) and `resource.id`, when it has them. */
  readonly eventId: string | undefined;
  readonly event: string | undefined;
  readonly resourceId: string | undefined;
  /** The sender's TCP port, to tell which process sent it while its socket is open. */
  readonly remotePort: number | undefined;
  /** Arrival time (ms since the epoch), before any delay. */
  readonly at: number;
  /** Whatever `inspect` said about the request, if it ran. */
  note?: unknown;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * A webhook receiver on 127.0.0.1 and an ephemeral port. It records every request on arrival,
 * optionally runs `inspect` while the sender's socket is still open, waits `delayMs`, and answers
 * with the status `respond` picks (200 by default; a failure's body is `failure <n>`).
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  /** Delay before answering each request; may be changed while running. */
  delayMs = 0;
  respond: (request: Received, index: number) => number = () => 200;
  inspect: ((request: IncomingMessage, record: Received, index: number) => Promise<unknown>) | undefined;
  private server: Server | undefined;
  private listeners: (() => void)[] = [];

  get port(): number {
    return (this.server!.address() as AddressInfo).port;
  }

  /** Starts listening; resolves to the base URL, e.g. `http://127.0.0.1:40123`. */
  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('error', () => undefined);
      res.on('error', () => undefined);
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let json: { id?: unknown; name?: unknown; resource?: { id?: unknown } } | undefined;
        try {
          json = JSON.parse(body) as typeof json;
        } catch {
          json = undefined;
        }
        const record: Received = {
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          body,
          webhookId: text(req.headers['webhook-id']),
          eventId: text(json?.id),
          event: text(json?.name),
          resourceId: text(json?.resource?.id),
          remotePort: req.socket.remotePort,
          at: Date.now(),
        };
        const index = this.received.push(record) - 1;
        const status = this.respond(record, index);
        for (const listener of this.listeners) listener();
        const inspect = this.inspect;
        void (async () => {
          if (inspect) record.note = await inspect(req, record, index).catch((error: unknown) => ({ error: String(error) }));
          if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
          res.statusCode = status;
          res.setHeader('Content-Type', 'text/plain');
          res.end(status >= 400 ? `failure ${index + 1}` : 'ok');
        })();
      });
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(0, '127.0.0.1', resolve);
    });
    return `http://127.0.0.1:${this.port}`;
  }

  /** The requests that came to `path` (all of them without one). */
  at(path: string | undefined): Received[] {
    return path === undefined ? this.received : this.received.filter((r) => r.path === path);
  }

  /** Resolves once `done()` holds (checked on every request and at once); rejects after `timeoutMs`. */
  until(done: () => boolean, timeoutMs: number, what: string): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const listener = (): void => {
        if (!done()) return;
        cleanup();
        resolve();
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`receiver: ${what} not reached within ${timeoutMs} ms (${this.received.length} requests received)`));
      }, timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        this.listeners = this.listeners.filter((l) => l !== listener);
      };
      this.listeners.push(listener);
    });
  }

  /** Resolves once `count` requests have arrived (at `path`, if given). */
  waitFor(count: number, path?: string, timeoutMs = 10_000): Promise<void> {
    return this.until(() => this.at(path).length >= count, timeoutMs, `${count} requests at ${path ?? 'any path'}`);
  }

  /** Stops listening and drops open connections. */
  stop(): Promise<void> {
    const server = this.server;
    if (!server) return Promise.resolve();
    this.server = undefined;
    return new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
