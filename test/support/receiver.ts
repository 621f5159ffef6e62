import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the loopback receiver saw it. */
export interface ReceivedPost {
  readonly method: string;
  readonly path: string;
  /** The Standard Webhooks `webhook-id` header (the event id). */
  readonly webhookId: string | undefined;
  /** The body's `id` member (the event id), when the body is a JSON object with one. */
  readonly eventId: string | undefined;
  /** The body's `name` member (the event name). */
  readonly event: string | undefined;
  /** The body's `resource.id` (e.g. the API's id). */
  readonly resourceId: string | undefined;
  /** The sender's (client's) TCP port, to tell which process sent it while the socket is open. */
  readonly remotePort: number | undefined;
  /** Arrival time (ms since the epoch), before any delay. */
  readonly at: number;
  /** Whatever `inspect` said about the request, if it ran. */
  note?: unknown;
}

/**
 * A webhook receiver on 127.0.0.1 and an ephemeral port. It records every request on arrival
 * (before answering), then optionally runs `inspect` while the sender's socket is still open,
 * waits `delayMs` and answers 200 `ok`.
 */
export class LoopbackReceiver {
  readonly received: ReceivedPost[] = [];
  /** Delay before answering each request; may be changed while running. */
  delayMs = 0;
  /** Called with each request before it is answered (its socket is still open then). */
  inspect: ((request: IncomingMessage, record: ReceivedPost, index: number) => Promise<unknown>) | undefined;
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
        let body: { id?: unknown; name?: unknown; resource?: { id?: unknown } } | undefined;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
        } catch {
          body = undefined;
        }
        const header = req.headers['webhook-id'];
        const record: ReceivedPost = {
          method: req.method ?? '',
          path: req.url ?? '',
          webhookId: typeof header === 'string' ? header : undefined,
          eventId: typeof body?.id === 'string' ? body.id : undefined,
          event: typeof body?.name === 'string' ? body.name : undefined,
          resourceId: typeof body?.resource?.id === 'string' ? body.resource.id : undefined,
          remotePort: req.socket.remotePort,
          at: Date.now(),
        };
        const index = this.received.push(record) - 1;
        for (const listener of this.listeners) listener();
        const inspect = this.inspect;
        void (async () => {
          if (inspect) record.note = await inspect(req, record, index).catch((error: unknown) => ({ error: String(error) }));
          if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
          res.statusCode = 200;
          res.setHeader('Content-Type', 'text/plain');
          res.end('ok');
        })();
      });
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(0, '127.0.0.1', resolve);
    });
    return `http://127.0.0.1:${this.port}`;
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
