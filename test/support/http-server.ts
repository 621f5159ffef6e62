import type { AccountId, UserId } from '../../src/domain/account/account.js';
import type { DatabaseConfig } from '../../src/adapters/persistence/typeorm-database.js';
import { TEST_SECRETS_KEY, type DatabaseTarget } from './databases.js';
import { RegisterUser } from '../../src/application/users/register-user.use-case.js';
import { CreateApiToken } from '../../src/application/tokens/create-api-token.use-case.js';
import { loadConfig } from '../../src/main/config.js';
import { buildContainer } from '../../src/main/container.js';
import { startServer, type RunningServer } from '../../src/main/server.js';
import type { Scope } from '../../src/domain/token/scope.js';
import { ApiTokenRepository } from '../../src/application/ports/api-token-repository.port.js';
import { TokenGenerator } from '../../src/application/ports/token-generator.port.js';
import type { EntitySchema } from 'typeorm';
import type { Container } from 'inversify';
import { createServer, type AddressInfo } from 'node:net';
import { TypeOrmDatabase } from '../../src/adapters/persistence/typeorm-database.js';
import { SigningKeys } from '../../src/application/identity/signing-keys.js';
import { settle } from './change-version.js';
import { OpenApiResponseValidator, type Answer } from './openapi-validator.js';
import { FormBrowser } from './form-browser.js';
import { SENDER_THREAD_FROM_SOURCE } from './ts-worker.js';

/** A fresh database of `target` and the real server on it; `stop()` removes the database too. */
export async function startTestServerOn(target: DatabaseTarget, env: Record<string, string> = {}, rebind?: (container: Container) => void): Promise<TestServer> {
  const db = await target.create();
  try {
    const server = await startTestServer(db.config, env, rebind);
    server.onStop = db.dispose;
    return server;
  } catch (error) {
    await db.dispose();
    throw error;
  }
}

/** A port free on 127.0.0.1 a moment ago: the server must know its own address (PUBLIC_URL, the token issuer) before it listens. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** How long the test servers keep an idle connection: longer than any test computes between requests. */
export const TEST_KEEP_ALIVE_MS = 120_000;

/**
 * The real server on 127.0.0.1 and a free port, PUBLIC_URL its own address, with small limits so
 * tests can reach them. `rebind` may replace ports (a clock, say) before anything is built from them.
 */
export async function startTestServer(database: DatabaseConfig, env: Record<string, string> = {}, rebind?: (container: Container) => void): Promise<TestServer> {
  const port = env['PORT'] ?? String(await freePort());
  const config = {
    ...loadConfig({ PORT: port, PUBLIC_URL: `http://127.0.0.1:${port}`, HOST: '127.0.0.1', LOG_LEVEL: 'silent', SPECBASE_NO_BOOTSTRAP: 'true', JSON_MAX_BYTES: '4096', WEBHOOK_WORKER: 'false', SECRETS_KEY: TEST_SECRETS_KEY, ...env }),
    database,
  };
  // Deliveries go through sender threads, as in production (the entry module from source).
  const container = buildContainer(config, { startSenderThread: SENDER_THREAD_FROM_SOURCE });
  rebind?.(container);
  const running = await startServer({ container });
  // The tests' fetch and the server share one event loop: a test that computes for longer than the
  // keep-alive timeout (5 s, plus Node's 1 s) between two requests, as the checks of GitHub's 5.7 MB
  // description do on a loaded machine, has its next request written to a socket the server then
  // closes on its overdue timer: ECONNRESET. A client in its own process sees `Keep-Alive: timeout=5`
  // and stops using the socket first. Shown by test/http/keep-alive.http.test.ts.
  running.server.keepAliveTimeout = TEST_KEEP_ALIVE_MS;
  return new TestServer(running);
}

export interface TestUser {
  readonly userId: UserId;
  readonly accountId: AccountId;
  readonly email: string;
  readonly password: string;
}

export class TestServer {
  /** Run after the server stopped (the database's removal, for `startTestServerOn`). */
  onStop: () => Promise<void> = async () => undefined;

  private description: Promise<OpenApiResponseValidator> | undefined;

  constructor(readonly running: RunningServer) {}

  /** Every answer of the request helpers is checked against the server's own `/openapi.json`: a mismatch fails the request. */
  private async described(method: string, path: string, response: Response): Promise<Response> {
    this.description ??= OpenApiResponseValidator.load(this.url);
    await (await this.description).check(method, this.url + path, response);
    return response;
  }

  get url(): string {
    return this.running.url;
  }

  async user(email: string, nickname: string): Promise<TestUser> {
    const password = 'a long passphrase';
    const result = await this.running.container.get(RegisterUser).execute({ email, password, nickname, verified: true });
    if (!result.ok) throw new Error(`user: ${JSON.stringify(result.error)}`);
    return { ...result.value, email, password };
  }

  async token(user: TestUser, scopes: readonly Scope[]): Promise<string> {
    const result = await this.running.container.get(CreateApiToken).execute({ userId: user.userId }, { name: scopes.join(' ').slice(0, 100), scopes });
    if (!result.ok) throw new Error(`token: ${JSON.stringify(result.error)}`);
    return result.value.token;
  }

  /** Revokes a token through the repository, as the User-API will. */
  async revoke(user: TestUser, token: string): Promise<void> {
    const tokens = this.running.container.get<ApiTokenRepository>(ApiTokenRepository);
    const stored = await tokens.findByHash(this.running.container.get<TokenGenerator>(TokenGenerator).hash(token));
    if (!stored || !(await tokens.delete(user.userId, stored.id))) throw new Error('revoke failed');
  }

  /**
   * Returns once the database holds still: the server's own write after it starts (its first
   * signing key) is done and, on PostgreSQL, the notifications of every commit so far are heard.
   * Either, arriving later, moves the change version and drops what was remembered or cached
   * since (rightly, but a test's second read would then miss).
   */
  async settled(): Promise<void> {
    await this.running.container.get(SigningKeys).ensure();
    await settle(this.running.container.get<TypeOrmDatabase>(TypeOrmDatabase));
  }

  /** Rows in every table the Core-API writes: the "nothing was written" check of bad-input tests. */
  async rowCounts(): Promise<Record<string, number>> {
    // The server stores its first signing key once it listens, on its own: wait for that write, so
    // it is not counted as a request's.
    await this.running.container.get(SigningKeys).ensure();
    const db = this.running.container.get<TypeOrmDatabase>(TypeOrmDatabase);
    const counts: Record<string, number> = {};
    for (const [name, schema] of Object.entries(db.schemas) as [string, EntitySchema][]) counts[name] = await db.read((m) => m.count(schema));
    return counts;
  }

  /** POST or PUT multipart/form-data built from parts (strings as plain fields, objects as file parts). */
  async multipart(
    method: string,
    path: string,
    token: string,
    parts: readonly { name: string; value: string | Uint8Array; filename?: string; type?: string }[],
  ): Promise<Response> {
    const form = new FormData();
    for (const part of parts) {
      if (part.filename === undefined && part.type === undefined && typeof part.value === 'string') form.append(part.name, part.value);
      else form.append(part.name, new Blob([part.value], part.type ? { type: part.type } : {}), part.filename ?? 'blob');
    }
    return this.described(method, path, await fetch(this.url + path, { method, headers: { Authorization: `Bearer ${token}` }, body: form }));
  }

  /**
   * POST .../import of a fixture as one part (`spec` or `file`), with the options as a `body`
   * field, as a `body` part of type application/json, or without a body.
   */
  importSpec(
    accountId: number,
    token: string,
    fixture: { readonly name: string; readonly syntax: 'yaml' | 'json'; readonly bytes: Uint8Array },
    partName: 'spec' | 'file',
    bodyForm: 'field' | 'json-part' | 'none',
    body: object,
  ): Promise<Response> {
    const parts: { name: string; value: string | Uint8Array; filename?: string; type?: string }[] = [
      { name: partName, value: fixture.bytes, filename: fixture.name, type: fixture.syntax === 'yaml' ? 'text/yaml' : 'application/json' },
    ];
    if (bodyForm === 'field') parts.push({ name: 'body', value: JSON.stringify(body) });
    if (bodyForm === 'json-part') parts.push({ name: 'body', value: JSON.stringify(body), type: 'application/json' });
    return this.multipart('POST', `/api/${accountId}/import`, token, parts);
  }

  /** Every item of a paged list, following `nextCursor` `limit` items at a time. */
  async walk<T>(path: string, token: string, limit: number): Promise<T[]> {
    const items: T[] = [];
    let cursor: string | null = null;
    do {
      const response = await this.request('GET', `${path}?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, { token });
      if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
      const page = (await response.json()) as { items: T[]; nextCursor: string | null };
      items.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor !== null);
    return items;
  }

  async request(method: string, path: string, options: { token?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Response> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.token !== undefined) headers['Authorization'] = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['Content-Type'] ??= 'application/json';
    }
    return this.described(method, path, await fetch(this.url + path, { method, headers, ...(body === undefined ? {} : { body }) }));
  }

  /** Checks an answer got some other way (node:http, a socket) against `/openapi.json`; throws on a mismatch. */
  async checkAnswer(method: string, path: string, answer: Answer): Promise<void> {
    this.description ??= OpenApiResponseValidator.load(this.url);
    (await this.description).checkAnswer(method, this.url + path, answer);
  }

  /** `fetch` on this server (no redirects followed), its answer checked against `/openapi.json` like every helper's. */
  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    return this.described(init.method ?? 'GET', path, await fetch(this.url + path, { redirect: 'manual', ...init }));
  }

  /** A form-filling browser whose every answer is checked against `/openapi.json`. */
  browser(): FormBrowser {
    return new FormBrowser(this.url, (method, path, response) => this.described(method, path, response));
  }

  async stop(): Promise<void> {
    await this.running.stop(1000);
    await this.onStop();
  }
}

/** Reads a problem+json response, checking its media type and required members. */
export async function problem(response: Response): Promise<{ status: number; code: string; title: string; detail: string; type: string; errors?: { field: string; message: string }[] }> {
  if (response.headers.get('content-type') !== 'application/problem+json') {
    throw new Error(`expected problem+json, got ${response.headers.get('content-type')} (${response.status}): ${await response.text()}`);
  }
  return (await response.json()) as never;
}
