/**
 * The identity benchmark (figure 5): how many requests a second Specbase's identity service
 * answers on the two endpoints resource servers call for every request they receive, next to
 * node-oidc-provider's token introspection in the same run.
 *
 * Targets: tokeninfo at least 2.0x node-oidc-provider's introspection (issue 15), userinfo and
 * Specbase's own introspection at least 1.0x; p99 reported.
 *
 * - Specbase (bench/serve-specbase.ts, fresh database): `POST /oauth2/v2/tokeninfo` with
 *   `access_token=<token>` in a form body, and `GET /oauth2/v2/userinfo` with
 *   `Authorization: Bearer <token>`. The token is a real one: a user and a confidential client are
 *   registered with the CLI (`specbase user create`, `specbase client create`) on the server's
 *   database, and the bench goes through the authorization code flow with PKCE (login and consent
 *   pages, then the token endpoint) for `openid email profile`, offline. Every answer reads the
 *   token's grant and its user; the RS256 verification is paid at the token's first check only
 *   (JoseTokenSigner remembers tokens that verified), as for a resource server that presents the
 *   same token for its whole hour. And `POST /o/oauth2/introspect` (RFC 7662) with the same token,
 *   the confidential client authenticated by HTTP Basic: the very request the baseline answers.
 * - Baseline: node-oidc-provider (bench/serve-oidc-provider.ts, its in-memory adapter) answering
 *   `POST /token/introspection` (RFC 7662) with `token=<token>&token_type_hint=access_token`,
 *   the client authenticated by HTTP Basic, for an opaque access token of the client_credentials
 *   grant. The same question a resource server asks Specbase's tokeninfo (is this token live, for
 *   which client, with which scope), answered by the reference Node implementation.
 *
 * Before measuring, every answer is checked (tokeninfo and userinfo 200 with the expected body,
 * introspection `active: true`), and again after every run. Every server is a child process on
 * 127.0.0.1; the load comes from this process (autocannon, 16 connections). Each figure is the
 * median of BENCH_IDENTITY_ROUNDS (default 3) interleaved runs of BENCH_IDENTITY_DURATION_S
 * (default 4) seconds, after a 1 s warm-up of each target. Runs on SQLite always, and on PostgreSQL
 * too when BENCH_DATABASE_URL or TEST_DATABASE_URL is set (in a throw-away schema).
 *
 * `node --import tsx bench/identity.ts` runs only this. BENCH_CPU_PROF=<dir> writes V8 CPU
 * profiles of the Specbase and oidc-provider children into <dir>/identity-specbase-<backend>/ and
 * <dir>/identity-oidc-provider-<backend>/ (profiling slows both).
 *
 * A report, not a test: exits 0 whether or not the target is met; non-zero only when something
 * crashed (or was interrupted).
 */
import { execFile } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  type Backend,
  cannon,
  eachBackend,
  expectStatus,
  formatTable,
  median,
  positiveIntegerFromEnv,
  sized,
  prepareBackend,
  profileOptions,
  rate,
  ROOT,
  runIfMain,
  startChild,
  stopChild,
  type SummaryRow,
} from './common.js';
import { cpuMs } from './proc-cpu.js';

const CONNECTIONS = 16;
const DURATION_S = positiveIntegerFromEnv('BENCH_IDENTITY_DURATION_S', sized(4, 2));
const WARMUP_S = 1;
const ROUNDS = positiveIntegerFromEnv('BENCH_IDENTITY_ROUNDS', sized(3, 1));
const TARGET_RATIO = 1.0;
/** Issue 15: tokeninfo, the call resource servers make for every request, at least twice node-oidc-provider's introspection. */
const TOKENINFO_TARGET = 2.0;

const REDIRECT_URI = 'http://127.0.0.1:9/callback';
const SCOPE = 'openid email profile';
const USER = { email: 'bench-identity@specbase.example', name: 'Bench User' };
const FORM = 'application/x-www-form-urlencoded';
const CLI_TIMEOUT_MS = 60_000;

// ---------------------------------------------------------------------------------------------
// Load

interface Request {
  readonly url: string;
  readonly method: 'GET' | 'POST';
  readonly headers: Record<string, string>;
  readonly body?: string;
}


function send(request: Request): Promise<Response> {
  return fetch(request.url, { method: request.method, headers: request.headers, ...(request.body === undefined ? {} : { body: request.body }) });
}

interface Run {
  readonly reqPerSec: number;
  readonly p99Ms: number;
  /** Non-2xx responses, connection errors and timeouts: a run with any is not a valid figure. */
  readonly failures: number;
  /** The server process's CPU time per request answered, in µs; steadier than req/s on a busy machine. */
  readonly cpuUs: number | undefined;
}

export interface Figure {
  readonly reqPerSec: number;
  readonly p99Ms: number;
  readonly min: number;
  readonly max: number;
  readonly failures: number;
  /** Median server CPU µs per request; undefined where /proc cannot be read. */
  readonly cpuUs: number | undefined;
}

function figure(runs: readonly Run[]): Figure {
  const rates = runs.map((r) => r.reqPerSec);
  const cpu = runs.flatMap((r) => (r.cpuUs === undefined ? [] : [r.cpuUs]));
  return {
    reqPerSec: median(rates),
    p99Ms: median(runs.map((r) => r.p99Ms)),
    min: Math.min(...rates),
    max: Math.max(...rates),
    failures: runs.reduce((sum, r) => sum + r.failures, 0),
    cpuUs: cpu.length === runs.length ? median(cpu) : undefined,
  };
}

// ---------------------------------------------------------------------------------------------
// A real Specbase access token

const execFileAsync = promisify(execFile);

/** `specbase <args>` on the benchmark server's database; its JSON answer. */
async function specbaseCli(env: NodeJS.ProcessEnv, args: readonly string[]): Promise<Record<string, unknown>> {
  const { stdout } = await execFileAsync(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'main', 'cli.ts'), ...args], {
    cwd: ROOT,
    env,
    timeout: CLI_TIMEOUT_MS,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as Record<string, unknown>;
}

/** The cookies and the last page of a person's browser on the login and consent pages. */
class Browser {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly base: string) {}

  async open(path: string, fields?: Record<string, string>): Promise<{ response: Response; page: string }> {
    const response = await fetch(new URL(path, this.base), {
      method: fields ? 'POST' : 'GET',
      redirect: 'manual',
      headers: this.cookies.size === 0 ? {} : { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      ...(fields ? { body: new URLSearchParams(fields) } : {}),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const equals = pair.indexOf('=');
      this.cookies.set(pair.slice(0, equals).trim(), pair.slice(equals + 1));
    }
    return { response, page: await response.text() };
  }
}

function hiddenFields(html: string): Record<string, string> {
  const unescape = (text: string): string => text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))).replace(/&amp;/g, '&');
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[match[1]!] = unescape(match[2]!);
  return fields;
}

interface SpecbaseToken {
  readonly accessToken: string;
  readonly clientId: string;
  /** HTTP Basic of the confidential client the token was issued to, which may introspect it. */
  readonly authorization: string;
  readonly userId: string;
}

/**
 * Registers a user and a confidential client with the CLI, then signs the user in through the
 * authorization code flow with PKCE, as an application would send them.
 */
async function specbaseAccessToken(url: string, specbaseEnv: NodeJS.ProcessEnv): Promise<SpecbaseToken> {
  const env = { ...specbaseEnv, SQLITE_PATH: specbaseEnv['BENCH_SQLITE_PATH'] ?? '', LOG_LEVEL: 'silent' };
  const password = randomBytes(18).toString('base64url');
  // `--password=...`: a base64url password may begin with `-`, which parseArgs would take for an option.
  const user = await specbaseCli(env, ['user', 'create', '--email', USER.email, `--password=${password}`, '--name', USER.name, '--verified']);
  const client = await specbaseCli(env, ['client', 'create', '--name', 'Identity benchmark', '--redirect-uri', REDIRECT_URI]);
  const { clientId, clientSecret } = client;
  if (typeof user['userId'] !== 'number' || typeof clientId !== 'string' || typeof clientSecret !== 'string') {
    throw new Error(`specbase user/client create answered ${JSON.stringify(user)} and ${JSON.stringify(client)}`);
  }

  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(8).toString('hex');
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    scope: SCOPE,
    state,
    access_type: 'offline',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  });
  const browser = new Browser(url);
  let { response, page } = await browser.open(`/o/oauth2/auth?${query.toString()}`);
  for (let step = 0; step < 2 && response.status === 200; step++) {
    const fields = hiddenFields(page);
    const answer = fields['step'] === 'login' ? { email: USER.email, password } : fields['step'] === 'consent' ? { decision: 'allow' } : undefined;
    if (answer === undefined) throw new Error(`authorization: unexpected page: ${page.slice(0, 500)}`);
    ({ response, page } = await browser.open('/o/oauth2/auth', { ...fields, ...answer }));
  }
  const location = response.headers.get('location');
  if (response.status !== 303 || location === null) throw new Error(`authorization: expected a 303 to the client, got ${response.status}: ${page.slice(0, 500)}`);
  const back = new URL(location);
  const code = back.searchParams.get('code');
  if (back.searchParams.get('state') !== state || code === null) throw new Error(`authorization: redirected to ${location}`);

  const tokens = await fetch(`${url}/o/oauth2/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`, 'content-type': FORM },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier }).toString(),
  });
  const accessToken = (JSON.parse(await expectStatus(tokens, 200, 'POST /o/oauth2/token')) as { access_token?: unknown }).access_token;
  if (typeof accessToken !== 'string') throw new Error('POST /o/oauth2/token answered no access_token');
  return { accessToken, clientId, authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`, userId: String(user['userId']) };
}

// ---------------------------------------------------------------------------------------------
// A node-oidc-provider access token

interface OidcProviderToken {
  readonly accessToken: string;
  /** HTTP Basic of the client, which introspects its own token. */
  readonly authorization: string;
}

async function oidcProviderAccessToken(url: string, clientId: string, clientSecret: string): Promise<OidcProviderToken> {
  const authorization = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
  const response = await fetch(`${url}/token`, {
    method: 'POST',
    headers: { authorization, 'content-type': FORM },
    body: new URLSearchParams({ grant_type: 'client_credentials' }).toString(),
  });
  const accessToken = (JSON.parse(await expectStatus(response, 200, 'oidc-provider POST /token')) as { access_token?: unknown }).access_token;
  if (typeof accessToken !== 'string') throw new Error('oidc-provider POST /token answered no access_token');
  return { accessToken, authorization };
}

// ---------------------------------------------------------------------------------------------
// One backend

type Key = 'tokeninfo' | 'userinfo' | 'specbaseIntrospection' | 'introspection';

interface Target {
  readonly key: Key;
  readonly label: string;
  readonly request: Request;
  /** The server's process, whose CPU time is read around each run. */
  readonly pid: number | undefined;
  /** Throws unless the answer is the one expected: run before measuring and after every run. */
  readonly check: () => Promise<void>;
  readonly runs: Run[];
}

export interface IdentityResult {
  readonly backend: string;
  readonly tokeninfo: Figure;
  readonly userinfo: Figure;
  /** Specbase's own RFC 7662 introspection (`POST /o/oauth2/introspect`): the very request the baseline answers. */
  readonly specbaseIntrospection: Figure;
  /** node-oidc-provider's introspection, the baseline of all three. */
  readonly introspection: Figure;
}

function expectFields(what: string, body: Record<string, unknown>, expected: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(expected)) {
    if (body[name] !== value) throw new Error(`${what}: ${name} is ${JSON.stringify(body[name])}, expected ${JSON.stringify(value)} (${JSON.stringify(body)})`);
  }
}

async function benchBackend(backend: Backend): Promise<IdentityResult> {
  const prepared = await prepareBackend(backend, 'specbase-identity-bench');
  const started = new Set<ChildProcess>();
  const tag = backend.name.toLowerCase();
  try {
    const specbase = await startChild('serve-specbase.ts', prepared.specbaseEnv, profileOptions(`identity-specbase-${tag}`), true);
    started.add(specbase.child);
    const { url } = specbase;
    console.log(`[${backend.name}] identity: Specbase at ${url}${prepared.schema ? ` (schema ${prepared.schema})` : ''}; registering a user and a client, signing in`);
    const token = await specbaseAccessToken(url, prepared.specbaseEnv);

    const oidcClient = { id: 'identity-bench', secret: randomBytes(24).toString('base64url') };
    const oidcEnv = { ...process.env, NODE_ENV: 'production', BENCH_OIDC_CLIENT_ID: oidcClient.id, BENCH_OIDC_CLIENT_SECRET: oidcClient.secret };
    const provider = await startChild('serve-oidc-provider.ts', oidcEnv, profileOptions(`identity-oidc-provider-${tag}`), true);
    started.add(provider.child);
    const opaque = await oidcProviderAccessToken(provider.url, oidcClient.id, oidcClient.secret);
    console.log(`[${backend.name}] identity: oidc-provider at ${provider.url}`);

    const userinfoBody = { id: token.userId, email: USER.email, verified_email: true, name: USER.name };
    const tokeninfo: Request = {
      url: `${url}/oauth2/v2/tokeninfo`,
      method: 'POST',
      headers: { 'content-type': FORM },
      body: new URLSearchParams({ access_token: token.accessToken }).toString(),
    };
    const userinfo: Request = { url: `${url}/oauth2/v2/userinfo`, method: 'GET', headers: { authorization: `Bearer ${token.accessToken}` } };
    const specbaseIntrospection: Request = {
      url: `${url}/o/oauth2/introspect`,
      method: 'POST',
      headers: { authorization: token.authorization, 'content-type': FORM },
      body: new URLSearchParams({ token: token.accessToken, token_type_hint: 'access_token' }).toString(),
    };
    const introspection: Request = {
      url: `${provider.url}/token/introspection`,
      method: 'POST',
      headers: { authorization: opaque.authorization, 'content-type': FORM },
      body: new URLSearchParams({ token: opaque.accessToken, token_type_hint: 'access_token' }).toString(),
    };
    const answer = async (request: Request, what: string): Promise<Record<string, unknown>> =>
      JSON.parse(await expectStatus(await send(request), 200, what)) as Record<string, unknown>;
    const targets: Target[] = [
      {
        key: 'tokeninfo',
        label: 'Specbase tokeninfo',
        request: tokeninfo,
        pid: specbase.child.pid,
        check: async () => {
          const body = await answer(tokeninfo, 'POST /oauth2/v2/tokeninfo');
          expectFields('tokeninfo', body, { issued_to: token.clientId, audience: token.clientId, user_id: token.userId, scope: SCOPE, email: USER.email, verified_email: true, access_type: 'offline' });
          if (typeof body['expires_in'] !== 'number' || body['expires_in'] <= 0) throw new Error(`tokeninfo: the token has expired (${JSON.stringify(body)})`);
        },
        runs: [],
      },
      {
        key: 'userinfo',
        label: 'Specbase userinfo',
        request: userinfo,
        pid: specbase.child.pid,
        check: async () => {
          const body = await answer(userinfo, 'GET /oauth2/v2/userinfo');
          expectFields('userinfo', body, userinfoBody);
          if (Object.keys(body).length !== Object.keys(userinfoBody).length) throw new Error(`userinfo: unexpected fields in ${JSON.stringify(body)}`);
        },
        runs: [],
      },
      {
        key: 'specbaseIntrospection',
        label: 'Specbase introspection',
        request: specbaseIntrospection,
        pid: specbase.child.pid,
        check: async () => {
          expectFields('Specbase introspection', await answer(specbaseIntrospection, 'POST /o/oauth2/introspect'), { active: true, client_id: token.clientId, scope: SCOPE });
        },
        runs: [],
      },
      {
        key: 'introspection',
        label: 'oidc-provider introspection',
        request: introspection,
        pid: provider.child.pid,
        check: async () => {
          expectFields('introspection', await answer(introspection, 'oidc-provider POST /token/introspection'), { active: true, client_id: oidcClient.id, iss: provider.url });
        },
        runs: [],
      },
    ];
    for (const target of targets) await target.check();

    for (const target of targets) {
      const warm = await cannon({ ...target.request, connections: CONNECTIONS, duration: WARMUP_S });
      const failures = warm.non2xx + warm.errors + warm.timeouts;
      if (failures > 0) console.log(`[${backend.name}] warm-up ${target.label}: ${failures} failed requests`);
    }
    for (let round = 1; round <= ROUNDS; round++) {
      const line: string[] = [];
      for (const target of targets) {
        const cpuBefore = cpuMs(target.pid);
        const result = await cannon({ ...target.request, connections: CONNECTIONS, duration: DURATION_S });
        const cpuAfter = cpuMs(target.pid);
        await target.check();
        const cpuUs = cpuBefore === undefined || cpuAfter === undefined || result.requests.total === 0 ? undefined : ((cpuAfter - cpuBefore) * 1e3) / result.requests.total;
        const run: Run = { reqPerSec: result.requests.average, p99Ms: result.latency.p99, failures: result.non2xx + result.errors + result.timeouts, cpuUs };
        target.runs.push(run);
        const cpu = run.cpuUs === undefined ? '' : `, ${Math.round(run.cpuUs)} µs CPU/req`;
        line.push(`${target.label} ${Math.round(run.reqPerSec)} req/s p99 ${run.p99Ms} ms${cpu}${run.failures ? ` (${run.failures} FAILED)` : ''}`);
      }
      console.log(`[${backend.name}] round ${round}/${ROUNDS}: ${line.join('; ')}`);
    }

    const byKey = (key: Key): Figure => figure(targets.find((t) => t.key === key)!.runs);
    return { backend: backend.name, tokeninfo: byKey('tokeninfo'), userinfo: byKey('userinfo'), specbaseIntrospection: byKey('specbaseIntrospection'), introspection: byKey('introspection') };
  } finally {
    await Promise.all([...started].map((child) => stopChild(child)));
    await prepared.cleanup();
  }
}

/** Runs the identity benchmark on each backend; returns what it measured, and the error that stopped it, if any. */
export function benchIdentity(backends: readonly Backend[]): Promise<{ results: IdentityResult[]; failure?: Error }> {
  return eachBackend(backends, 'identity bench', benchBackend);
}

// ---------------------------------------------------------------------------------------------
// Report

/** Each endpoint with its target against node-oidc-provider's introspection. */
const FIGURES = [
  ['tokeninfo', 'tokeninfo (POST /oauth2/v2/tokeninfo)', TOKENINFO_TARGET],
  ['userinfo', 'userinfo (GET /oauth2/v2/userinfo)', TARGET_RATIO],
  ['specbaseIntrospection', 'introspection (POST /o/oauth2/introspect)', TARGET_RATIO],
] as const;

const ratioOf = (fig: Figure, baseline: Figure): number => fig.reqPerSec / baseline.reqPerSec;
const valid = (fig: Figure, baseline: Figure): boolean => fig.failures === 0 && baseline.failures === 0;
/** The target holds: a run with failed requests has no valid figure, so it never meets it. */
const met = (fig: Figure, baseline: Figure, target: number): boolean => valid(fig, baseline) && ratioOf(fig, baseline) >= target;

/** One row per endpoint and backend, for the table `npm run bench` ends with. */
export function summarizeIdentity(results: readonly IdentityResult[]): SummaryRow[] {
  return results.flatMap((result) =>
    FIGURES.map(([key, name, target]) => {
      const fig = result[key];
      return {
        figure: `${name} [${result.backend}]`,
        specbase: `${rate(fig.reqPerSec)} req/s (p99 ${fig.p99Ms} ms)`,
        baseline: `${rate(result.introspection.reqPerSec)} req/s (oidc-provider introspection)`,
        ratio: ratioOf(fig, result.introspection).toFixed(2),
        target: `>= ${target.toFixed(1)}x`,
        met: met(fig, result.introspection, target),
      };
    }),
  );
}

export function reportIdentity(results: readonly IdentityResult[]): void {
  const rows: string[][] = [['figure', 'Specbase req/s', 'p99 ms', 'baseline req/s (oidc-provider introspection)', 'p99 ms', 'ratio', 'target']];
  for (const result of results) {
    for (const [key, name, target] of FIGURES) {
      const fig = result[key];
      const baseline = result.introspection;
      rows.push([
        `${name} [${result.backend}]`,
        rate(fig.reqPerSec),
        String(fig.p99Ms),
        rate(baseline.reqPerSec),
        String(baseline.p99Ms),
        ratioOf(fig, baseline).toFixed(2),
        `ratio >= ${target.toFixed(1)}: ${met(fig, baseline, target) ? 'met' : 'NOT met'}${valid(fig, baseline) ? '' : ' (failed requests)'}`,
      ]);
    }
  }
  console.log('');
  console.log(
    `Specbase tokeninfo and userinfo (RS256 access token, grant and user read per request) vs node-oidc-provider token introspection ` +
      `(opaque client_credentials token, in-memory adapter), 127.0.0.1, ${CONNECTIONS} connections, median of ${ROUNDS} x ${DURATION_S} s runs ` +
      `(interleaved, ${WARMUP_S} s warm-up each)`,
  );
  if (process.env['BENCH_CPU_PROF']) console.log('(BENCH_CPU_PROF is set: the servers run under the CPU profiler, so the rates are lower)');
  console.log('');
  console.log(formatTable(rows));
  console.log('');
  for (const result of results) {
    const spread = (f: Figure): string => `${rate(f.min)}-${rate(f.max)}`;
    console.log(
      `[${result.backend}] run-to-run req/s range: tokeninfo ${spread(result.tokeninfo)}, userinfo ${spread(result.userinfo)}, ` +
        `oidc-provider introspection ${spread(result.introspection)}`,
    );
    const cpu = (f: Figure): string => (f.cpuUs === undefined ? '?' : `${Math.round(f.cpuUs)} µs`);
    console.log(
      `[${result.backend}] server CPU per request (all threads of the server process${result.backend === 'PostgreSQL' ? ', not the database server' : ''}): ` +
        `tokeninfo ${cpu(result.tokeninfo)}, userinfo ${cpu(result.userinfo)}, oidc-provider introspection ${cpu(result.introspection)}`,
    );
    const failures = result.tokeninfo.failures + result.userinfo.failures + result.introspection.failures;
    if (failures > 0) console.log(`[${result.backend}] WARNING: ${failures} non-2xx responses, errors or timeouts during measured runs`);
  }
  const verdicts = results.flatMap((result) =>
    FIGURES.map(([key, , target]) => `${result.backend} ${key} (>= ${target.toFixed(1)}x): ${met(result[key], result.introspection, target) ? 'met' : 'NOT met'}`),
  );
  console.log('');
  console.log(`Targets (req/s against oidc-provider introspection): ${verdicts.join('; ')}`);
  console.log('(a report, not a test: the exit code does not depend on the target)');
}

// ---------------------------------------------------------------------------------------------
// `node --import tsx bench/identity.ts`

runIfMain(import.meta.url, 'identity bench', benchIdentity, reportIdentity);
