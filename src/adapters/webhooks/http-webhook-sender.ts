import { request as httpRequest, type ClientRequest, type ClientRequestArgs, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createConnection, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { DeliveryOutcome, OutgoingRun, RunAttempt, WebhookSender } from '../../application/ports/webhook-sender.port.js';
import { attemptInOrder, type OutgoingAttempt } from '../../application/webhooks/run-policy.js';
import { runClock } from './run-clock.js';
import { serviceSignature, standardWebhookSignature } from './signatures.js';
import { guardedLookup, type SsrfGuard } from './ssrf-guard.js';

export const DEFAULT_USER_AGENT = 'Specbase-Webhooks/1';
/** How much of a response body is kept (and read at all). */
export const RESPONSE_EXCERPT_BYTES = 1024;

export interface HttpWebhookSenderOptions {
  /** Limit of one attempt: connect, response headers and the first KiB of the body. */
  readonly timeoutMs: number;
  readonly guard: SsrfGuard;
  readonly userAgent?: string;
}

const NETWORK_ERRORS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EHOSTDOWN: 'host down',
  ENOTFOUND: 'the host does not resolve',
  EAI_AGAIN: 'temporary DNS failure',
  EADDRNOTAVAIL: 'address not available',
  CERT_HAS_EXPIRED: 'TLS certificate expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'TLS certificate chain is self-signed',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate not trusted',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'TLS certificate not trusted',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate does not match the host',
  EPROTO: 'TLS handshake failed',
};

function errorCode(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as NodeJS.ErrnoException).code;
  if (typeof code === 'string') return code;
  // Happy eyeballs (autoSelectFamily) fails with an AggregateError of one error per address.
  return error instanceof AggregateError ? errorCode(error.errors[0]) : undefined;
}

/**
 * A short message for the delivery log. Node's own messages carry the resolved address and port
 * ("connect ECONNREFUSED 10.1.2.3:80"); the log is shown to the webhook's owner, so they stay out.
 */
function describeError(error: unknown): string {
  if (error instanceof Error && error.name === 'TargetRefusedError') return error.message;
  const code = errorCode(error);
  if (code === undefined) return 'network error';
  if (code.startsWith('HPE_')) return `invalid HTTP response (${code})`;
  if (code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_')) return `${NETWORK_ERRORS[code] ?? 'TLS error'} (${code})`;
  return `${NETWORK_ERRORS[code] ?? 'network error'} (${code})`;
}

/** Makes one attempt: what a sender thread serves, and what a run is made of. */
export interface AttemptSender {
  /** Never throws: every failure is an outcome. */
  send(attempt: OutgoingAttempt): Promise<DeliveryOutcome>;
}

/**
 * Delivers over node:http/https: one POST, no redirect followed (a 3xx is a non-2xx outcome), no
 * connection kept alive, the whole attempt bounded by `timeoutMs`, at most 1 KiB of the response
 * read. The target is vetted by the guard first and, unless private targets are allowed, again
 * at connect time by a guarded DNS lookup. A plain-HTTP attempt opens its socket itself
 * (`createConnection`, no agent): `agent: false` built an Agent per request and ran its
 * bookkeeping for a socket that is never reused, about a tenth of an attempt's CPU
 * (docs/performance.md, section 4); HTTPS keeps node's agent, which sets up TLS (server name,
 * session) and costs little beside a handshake.
 */
export class HttpWebhookSender implements WebhookSender, AttemptSender {
  private readonly timeoutMs: number;
  private readonly guard: SsrfGuard;
  private readonly userAgent: string;

  constructor(options: HttpWebhookSenderOptions) {
    this.timeoutMs = options.timeoutMs;
    this.guard = options.guard;
    this.userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
  }

  /** A run, one attempt after the other, by the run policy and the run's clock. */
  sendRun(run: OutgoingRun, stop?: AbortSignal): Promise<RunAttempt[]> {
    return attemptInOrder((attempt) => this.send(attempt), run, runClock(run), () => stop?.aborted === true);
  }

  async send(delivery: OutgoingAttempt): Promise<DeliveryOutcome> {
    const started = performance.now();
    try {
      const checked = this.guard.check(delivery.targetUrl);
      if (checked.refusal !== null) return { status: null, durationMs: 0, responseBody: '', error: checked.refusal };
      if (checked.resolve !== undefined) {
        // A host name is resolved first, and a stalled resolver must not outlast the attempt.
        const resolution = await withDeadline(this.guard.resolve(checked.resolve), this.timeoutMs);
        if (resolution === TIMED_OUT) return { status: null, durationMs: elapsed(started), responseBody: '', error: this.timeoutMessage };
        if (!resolution.ok) return { status: null, durationMs: 0, responseBody: '', error: resolution.refusal };
      }
      return await this.post(delivery, checked.url, started);
    } catch (error) {
      return { status: null, durationMs: elapsed(started), responseBody: '', error: describeError(error) };
    }
  }

  private get timeoutMessage(): string {
    return `timed out after ${this.timeoutMs} ms`;
  }

  private post(delivery: OutgoingAttempt, url: URL, started: number): Promise<DeliveryOutcome> {
    const body = Buffer.from(delivery.body, 'utf8');
    const timestamp = Math.floor(delivery.attemptDate.getTime() / 1000);
    const https = url.protocol === 'https:';
    const options: RequestOptions = {
      method: 'POST',
      // No agent and no keep-alive (`Connection: close`): the socket closes with the attempt. Plain
      // HTTP connects by itself; HTTPS through a fresh agent of its own.
      ...(https ? { agent: false } : { createConnection: connectPlain }),
      headers: {
        'Content-Type': 'application/json',
        'Content-Length': String(body.length),
        'User-Agent': this.userAgent,
        'X-Service-Signature': serviceSignature(delivery.secret, delivery.targetUrl, body),
        'webhook-id': delivery.eventId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': standardWebhookSignature(delivery.secret, delivery.eventId, timestamp, body),
      },
    };
    if (!this.guard.allowPrivateTargets) options.lookup = guardedLookup(this.guard);
    const send = https ? httpsRequest : httpRequest;

    return new Promise<DeliveryOutcome>((resolve) => {
      let request: ClientRequest | undefined;
      let response: IncomingMessage | undefined;
      let settled = false;
      const chunks: Buffer[] = [];
      let kept = 0;

      const finish = (error: string | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        response?.destroy();
        request?.destroy();
        resolve({
          // A receiver that answered keeps its status even if its body then stalled or broke off.
          status: response?.statusCode ?? null,
          durationMs: elapsed(started),
          responseBody: excerpt(chunks),
          error: response === undefined ? error : null,
        });
      };
      const timer = setTimeout(() => finish(this.timeoutMessage), Math.max(0, started + this.timeoutMs - performance.now()));

      try {
        request = send(url, options, (res) => {
          response = res;
          res.on('data', (chunk: Buffer) => {
            const room = RESPONSE_EXCERPT_BYTES - kept;
            chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
            kept += Math.min(chunk.length, room);
            if (kept >= RESPONSE_EXCERPT_BYTES) finish(null);
          });
          res.on('end', () => finish(null));
          res.on('error', () => finish(null));
          res.on('close', () => finish(null));
        });
        request.on('error', (error) => finish(describeError(error)));
        request.end(body);
      } catch (error) {
        finish(describeError(error));
      }
    });
  }
}

/** The socket of a plain-HTTP request without an agent: to its host and port, through the request's lookup (the guard's, when set). */
function connectPlain(options: ClientRequestArgs): Socket {
  return createConnection({ host: options.host ?? undefined, port: Number(options.port), ...(options.lookup ? { lookup: options.lookup } : {}) });
}

const TIMED_OUT = Symbol('timed out');

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}

/** The kept bytes as text; a multi-byte character cut at the 1 KiB mark is dropped, not mangled. */
function excerpt(chunks: readonly Buffer[]): string {
  return new TextDecoder('utf-8').decode(Buffer.concat(chunks), { stream: true });
}
