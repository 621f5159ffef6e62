import type { RegistrationMode } from '../application/identity/client-registration.use-cases.js';
import { resolve } from 'node:path';
import { DEFAULT_TOKEN_CACHE } from '../application/auth/token-cache.js';
import { DEFAULT_RETENTION, type RetentionSettings } from '../application/maintenance/purge-retained.js';
import { DEFAULT_SQLITE_CACHE_MB, type DatabaseConfig } from '../adapters/persistence/typeorm-database.js';
import { MAX_TRIAL_DAYS, type PlanName } from '../domain/account/account.aggregate.js';
import { DEFAULT_PLAN_ALLOWANCES, QUOTAS, type PlanAllowance, type PlanAllowances, type Quota } from '../domain/account/plan-allowance.js';
import { DEFAULT_CHANGE_SETTINGS } from '../application/specs/change-settings.js';

/** Everything the process is configured with; read from the environment only here. */
export interface Config {
  readonly port: number;
  readonly host: string;
  readonly publicUrl: string;
  readonly database: DatabaseConfig;
  readonly logLevel: string;
  readonly bootstrap: boolean;
  readonly jsonMaxBytes: number;
  readonly importMaxBytes: number;
  /** `CHANGES_MAX_ITEMS`: the items one comparison of two specs keeps; beyond it, the first ones with `truncated: true`. */
  readonly changesMaxItems: number;
  /** `HEADERS_TIMEOUT_MS`: how long a client has to send a request's headers before it is answered 408 and disconnected; at most the request timeout (60 s). */
  readonly headersTimeoutMs: number;
  /** Per-minute and per-window limits; 0 turns one off. */
  readonly rateLimits: {
    /** RATE_LIMIT_API: requests per token per minute. */
    readonly apiPerMinute: number;
    /** RATE_LIMIT_PASSWORD_IP / _EMAIL: failed password checks per 5 minutes. */
    readonly passwordPerIp: number;
    readonly passwordPerEmail: number;
    /** RATE_LIMIT_TOKEN_ENDPOINT: token requests per client and address per minute. */
    readonly tokenEndpointPerMinute: number;
  };
  /** `TOKEN_CACHE_SIZE` (0: off) and `TOKEN_CACHE_REVALIDATE_MS` (the revocation bound): see TokenCache. */
  readonly tokenCache: { readonly maxEntries: number; readonly revalidateMs: number };
  /** `READ_CACHE_SIZE`: reads remembered until the database changes (ReadCache), on SQLite and PostgreSQL; 0 turns it off (and, on PostgreSQL, the connection that LISTENs for changes). */
  readonly readCacheSize: number;
  /** `HEAP_GROWING_PERCENT`: how far V8's old generation grows past its live size before a full collection (tuneHeap); 0 leaves V8's own. */
  readonly heapGrowingPercent: number;
  /** `SHUTDOWN_DRAIN_MS`: after a stop is asked for, how long `/readyz` answers 503 while requests are still accepted. */
  readonly shutdownDrainMs: number;
  /** `METRICS_TOKEN`: when set, `GET /metrics` wants `Authorization: Bearer <it>`; `null`: open. */
  readonly metricsToken: string | null;
  /** `TRUST_PROXY`: take the client address from `X-Forwarded-For` (behind a reverse proxy), for rate limits. */
  readonly trustProxy: boolean;
  readonly identity: {
    /** `SCOPE_BASE`: prefix of the Google-style scope names; defaults to PUBLIC_URL. */
    readonly scopeBase: string;
    /** `CLIENT_REGISTRATION`: dynamic client registration `off` (default), with an operator's initial access `token`, or `open`. */
    readonly clientRegistration: RegistrationMode;
    /** `IDENTITY_CLEANUP_INTERVAL_MS`: how often the worker deletes what the identity service no longer keeps (docs/identity.md, Retention). */
    readonly cleanupIntervalMs: number;
  };
  /** Where outgoing mail (e-mail verification) goes: the log, or one file per message in a directory. */
  readonly mail: { readonly kind: 'log' } | { readonly kind: 'file'; readonly dir: string };
  /** Plans (`PLAN_*`): a new account's trial, what each plan allows, how often the trial reminders are looked for. */
  readonly plans: {
    readonly trialDays: number;
    readonly allowances: PlanAllowances;
    /** `TRIAL_REMINDER_INTERVAL_MS`: how often the worker looks for trials ending within 3 days. */
    readonly reminderIntervalMs: number;
  };
  readonly webhooks: {
    readonly allowPrivateTargets: boolean;
    readonly timeoutMs: number;
    readonly retryBaseMs: number;
    readonly maxAttempts: number;
    /** Whether `serve` runs a webhook worker in its own process. */
    readonly worker: boolean;
    /** How often an idle worker looks for work from elsewhere. */
    readonly pollMs: number;
    /** `WEBHOOK_SENDER_THREADS`: worker threads that make the attempts (ThreadedWebhookSender); 0 sends in the main thread. */
    readonly senderThreads: number;
  };
  /**
   * The operator key that seals secrets at rest (`SECRETS_KEY`, or the file `SECRETS_KEY_FILE`
   * names), and earlier keys still accepted for reading (`SECRETS_PREVIOUS_KEYS`, comma-separated).
   * Resolved into a key by src/main/secrets.ts: without one, on SQLite, a key file beside the database.
   */
  readonly secrets: { readonly key: string | null; readonly keyFile: string | null; readonly previousKeys: readonly string[] };
  /** How long finished rows are kept (`*_RETENTION`, durations such as `30d`), and how often the worker deletes the rest (`RETENTION_INTERVAL_MS`). */
  readonly retention: RetentionSettings & { readonly intervalMs: number };
}

/** How long a client has for a whole request, a 32 MiB import included (src/main/server.ts). */
export const REQUEST_TIMEOUT_MS = 60_000;

export class ConfigError extends Error {}

const DURATION_UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3600_000, d: 86_400_000 };

/**
 * A duration such as `90s`, `15m`, `12h` or `30d` (a whole number and a unit), in milliseconds;
 * `forever` (where `allowForever`) is null.
 */
function duration(env: NodeJS.ProcessEnv, name: string, fallback: number | null, allowForever = false): number | null {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (allowForever && raw === 'forever') return null;
  const match = /^([0-9]{1,6})([smhd])$/.exec(raw);
  if (!match || Number(match[1]) === 0) throw new ConfigError(`${name} must be a duration such as 90s, 15m, 12h or 30d${allowForever ? ', or forever' : ''}, not "${raw}"`);
  return Number(match[1]) * DURATION_UNITS[match[2]!]!;
}

function retention(env: NodeJS.ProcessEnv): Config['retention'] {
  const required = (name: string, fallback: number) => duration(env, name, fallback) ?? fallback;
  return {
    deliveriesMs: required('DELIVERY_RETENTION', DEFAULT_RETENTION.deliveriesMs),
    dispatchedEventsMs: required('OUTBOX_RETENTION', DEFAULT_RETENTION.dispatchedEventsMs),
    rateLimitCountersMs: required('RATE_LIMIT_COUNTER_RETENTION', DEFAULT_RETENTION.rateLimitCountersMs),
    specHistoryMs: duration(env, 'SPEC_HISTORY_RETENTION', DEFAULT_RETENTION.specHistoryMs, true),
    intervalMs: integer(env, 'RETENTION_INTERVAL_MS', 3_600_000, 1000, 86_400_000),
  };
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = /^[0-9]+$/.test(raw) ? Number(raw) : NaN;
  if (!(value >= min && value <= max)) throw new ConfigError(`${name} must be an integer from ${min} to ${max}, not "${raw}"`);
  return value;
}

function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = (env[name] ?? '').toLowerCase();
  if (raw === '' || raw === 'false' || raw === '0') return false;
  if (raw === 'true' || raw === '1') return true;
  throw new ConfigError(`${name} must be true or false, not "${env[name]}"`);
}

/** A flag with a default other than false. */
function flagOr(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  return env[name] === undefined || env[name] === '' ? fallback : flag(env, name);
}

const QUOTA_VARIABLES: Record<Quota, string> = { apis: 'APIS', webhooks: 'WEBHOOKS', apiTokens: 'API_TOKENS', pagesPerApi: 'PAGES_PER_API', importBytes: 'IMPORT_BYTES' };

/** `PLAN_<FREE|PRIVATE>_<QUOTA>`: a whole number, or `unlimited`; `PLAN_<...>_PRIVATE_APIS`: true or false. */
function planAllowances(env: NodeJS.ProcessEnv): PlanAllowances {
  const allowance = (plan: PlanName): PlanAllowance => {
    const prefix = `PLAN_${plan.toUpperCase()}_`;
    const defaults = DEFAULT_PLAN_ALLOWANCES[plan];
    const quotas = Object.fromEntries(
      QUOTAS.map((quota) => {
        const name = `${prefix}${QUOTA_VARIABLES[quota]}`;
        const raw = env[name];
        if (raw === undefined || raw === '') return [quota, defaults.quotas[quota]];
        if (raw === 'unlimited') return [quota, null];
        if (!/^[0-9]{1,10}$/.test(raw) || Number(raw) > 1_000_000_000) throw new ConfigError(`${name} must be an integer from 0 to 1000000000, or unlimited, not "${raw}"`);
        return [quota, Number(raw)];
      }),
    ) as Record<Quota, number | null>;
    return { privateApis: flagOr(env, `${prefix}PRIVATE_APIS`, defaults.privateApis), quotas };
  };
  return { free: allowance('free'), private: allowance('private') };
}

/** A bearer credential a scraper can send as it is: printable ASCII without spaces, long enough not to be guessed. */
function metricsToken(env: NodeJS.ProcessEnv): string | null {
  const raw = env['METRICS_TOKEN'] ?? '';
  if (raw === '') return null;
  if (!/^[\x21-\x7e]{16,256}$/.test(raw)) throw new ConfigError('METRICS_TOKEN must be 16 to 256 printable ASCII characters without spaces');
  return raw;
}

function absoluteUrl(name: string, value: string): string {
  try {
    new URL(value);
  } catch {
    throw new ConfigError(`${name} must be an absolute URL, not "${value}"`);
  }
  return value;
}

function registrationMode(env: NodeJS.ProcessEnv): RegistrationMode {
  const mode = env['CLIENT_REGISTRATION'] || 'off';
  if (mode !== 'off' && mode !== 'token' && mode !== 'open') throw new ConfigError(`CLIENT_REGISTRATION must be off, token or open, not "${mode}"`);
  return mode;
}

/** Reads the configuration; throws ConfigError naming the variable when one is malformed. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = integer(env, 'PORT', 8080, 0, 65535);
  const databaseUrl = env['DATABASE_URL'] ?? '';
  let database: DatabaseConfig;
  if (databaseUrl === '') {
    database = {
      kind: 'sqlite',
      path: resolve(env['SQLITE_PATH'] || './data/specbase.sqlite'),
      cacheMb: integer(env, 'SQLITE_CACHE_MB', DEFAULT_SQLITE_CACHE_MB, 1, 4096),
    };
  } else if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    database = {
      kind: 'postgres',
      url: databaseUrl,
      schema: env['DATABASE_SCHEMA'] || undefined,
      poolSize: integer(env, 'DATABASE_POOL_SIZE', 10, 1, 1000),
    };
  } else {
    throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql:// (leave it unset for SQLite)');
  }
  const logLevel = env['LOG_LEVEL'] || 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const publicUrl = (env['PUBLIC_URL'] || `http://localhost:${port}`).replace(/\/+$/, '');
  try {
    new URL(publicUrl);
  } catch {
    throw new ConfigError(`PUBLIC_URL must be an absolute URL, not "${publicUrl}"`);
  }
  const mailer = env['MAILER'] || 'log';
  let mail: Config['mail'];
  if (mailer === 'log') mail = { kind: 'log' };
  else if (mailer === 'file') mail = { kind: 'file', dir: resolve(env['MAIL_DIR'] || './data/mail') };
  else throw new ConfigError(`MAILER must be log or file, not "${mailer}"`);
  return {
    port,
    host: env['HOST'] || '127.0.0.1',
    publicUrl,
    database,
    logLevel,
    bootstrap: !flag(env, 'SPECBASE_NO_BOOTSTRAP'),
    jsonMaxBytes: integer(env, 'JSON_MAX_BYTES', 1024 * 1024, 1024, 100 * 1024 * 1024),
    importMaxBytes: integer(env, 'IMPORT_MAX_BYTES', 32 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    changesMaxItems: integer(env, 'CHANGES_MAX_ITEMS', DEFAULT_CHANGE_SETTINGS.maxItems, 1, 1_000_000),
    headersTimeoutMs: integer(env, 'HEADERS_TIMEOUT_MS', 20_000, 1000, REQUEST_TIMEOUT_MS),
    mail,
    identity: { scopeBase: absoluteUrl('SCOPE_BASE', (env['SCOPE_BASE'] || publicUrl).replace(/\/+$/, '')), clientRegistration: registrationMode(env), cleanupIntervalMs: integer(env, 'IDENTITY_CLEANUP_INTERVAL_MS', 3_600_000, 1000, 86_400_000) },
    trustProxy: flag(env, 'TRUST_PROXY'),
    shutdownDrainMs: integer(env, 'SHUTDOWN_DRAIN_MS', 0, 0, 600_000),
    readCacheSize: integer(env, 'READ_CACHE_SIZE', 1_000, 0, 1_000_000),
    heapGrowingPercent: integer(env, 'HEAP_GROWING_PERCENT', 25, 0, 1_000),
    tokenCache: {
      maxEntries: integer(env, 'TOKEN_CACHE_SIZE', DEFAULT_TOKEN_CACHE.maxEntries, 0, 1_000_000),
      revalidateMs: integer(env, 'TOKEN_CACHE_REVALIDATE_MS', DEFAULT_TOKEN_CACHE.revalidateMs, 100, 60_000),
    },
    metricsToken: metricsToken(env),
    rateLimits: {
      apiPerMinute: integer(env, 'RATE_LIMIT_API', 6000, 0, 10_000_000),
      passwordPerIp: integer(env, 'RATE_LIMIT_PASSWORD_IP', 30, 0, 1_000_000),
      passwordPerEmail: integer(env, 'RATE_LIMIT_PASSWORD_EMAIL', 10, 0, 1_000_000),
      tokenEndpointPerMinute: integer(env, 'RATE_LIMIT_TOKEN_ENDPOINT', 120, 0, 1_000_000),
    },
    plans: {
      trialDays: integer(env, 'PLAN_TRIAL_DAYS', 14, 0, MAX_TRIAL_DAYS),
      allowances: planAllowances(env),
      reminderIntervalMs: integer(env, 'TRIAL_REMINDER_INTERVAL_MS', 60_000, 10, 86_400_000),
    },
    webhooks: {
      allowPrivateTargets: flag(env, 'WEBHOOK_ALLOW_PRIVATE_TARGETS'),
      timeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 600_000),
      retryBaseMs: integer(env, 'WEBHOOK_RETRY_BASE_MS', 10_000, 1, 86_400_000),
      maxAttempts: integer(env, 'WEBHOOK_MAX_ATTEMPTS', 15, 1, 100),
      worker: env['WEBHOOK_WORKER'] === undefined || env['WEBHOOK_WORKER'] === '' ? true : flag(env, 'WEBHOOK_WORKER'),
      pollMs: integer(env, 'WEBHOOK_POLL_MS', 1000, 10, 600_000),
      senderThreads: integer(env, 'WEBHOOK_SENDER_THREADS', 1, 0, 16),
    },
    retention: retention(env),
    secrets: {
      key: env['SECRETS_KEY'] || null,
      keyFile: env['SECRETS_KEY_FILE'] ? resolve(env['SECRETS_KEY_FILE']) : null,
      previousKeys: (env['SECRETS_PREVIOUS_KEYS'] ?? '').split(',').map((k) => k.trim()).filter(Boolean),
    },
  };
}
