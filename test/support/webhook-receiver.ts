import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly at: number;
}

/**
 * A webhook receiver on 127.0.0.1: records every request and answers with the status `respond`
 * picks (200 by default), so tests can script failures.
 */
export class Receiver {
  readonly received: Received[] = [];
  private server: Server | undefined;
  private waiters: { count: number; path: string | undefined; resolve: () => void }[] = [];
  respond: (request: Received, index: number) => number = () => 200;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const request = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
        this.received.push(request);
        res.statusCode = this.respond(request, this.received.length - 1);
        res.end(res.statusCode >= 400 ? `failure ${this.received.length}` : 'ok');
        this.waiters = this.waiters.filter((w) => (this.at(w.path).length >= w.count ? (w.resolve(), false) : true));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The requests that came to `path` (all of them without one). */
  at(path: string | undefined): Received[] {
    return path === undefined ? this.received : this.received.filter((r) => r.path === path);
  }

  /** Resolves once `count` requests have arrived (at `path`, if given); rejects after `timeoutMs`. */
  waitFor(count: number, path?: string, timeoutMs = 10_000): Promise<void> {
    if (this.at(path).length >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`receiver got ${this.at(path).length} of ${count} requests at ${path ?? 'any path'}`)), timeoutMs);
      this.waiters.push({ count, path, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
