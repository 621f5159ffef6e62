#!/usr/bin/env node
import { IssueInitialAccessToken } from '../application/identity/client-registration.use-cases.js';
import { parseArgs } from 'node:util';
import type { Container } from 'inversify';
import type { ApplicationError } from '../application/shared/application-error.js';
import { CreateApiToken } from '../application/tokens/create-api-token.use-case.js';
import { RegisterUser } from '../application/users/register-user.use-case.js';
import { VerifyEmail } from '../application/users/verify-email.use-case.js';
import type { AccountId } from '../domain/account/account.js';
import { parseIntegerKeyText } from '../domain/shared/ids.js';
import type { Result } from '../domain/shared/result.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { buildContainer, closeWebhookSender, LoggerToken, StorageToken, type Storage } from './container.js';
import { startServer } from './server.js';
import { backupSqlite } from './backup.js';
import { DatabaseMonitor } from './database-monitor.js';
import { generateSecretsKey, SecretsKeyError } from '../adapters/persistence/secret-box.js';
import { StoredSecrets } from '../adapters/persistence/stored-secrets.js';
import { TypeOrmDatabase } from '../adapters/persistence/typeorm-database.js';
import { resolve } from 'node:path';
import { DeleteOAuthClient, ListOAuthClients, RegisterOAuthClient, RotateOAuthClientSecret, UpdateOAuthClient } from '../application/identity/clients.use-cases.js';
import { SigningKeys } from '../application/identity/signing-keys.js';
import { WebhookWorker } from './webhook-worker.js';
import { WorkerPeersToken } from './tokens.js';
import { SetAccountPlan } from '../application/accounts/account-plan.use-cases.js';
import type { Logger } from '../adapters/logging/pino-logger.js';
import { tuneHeap } from './heap.js';

const USAGE = `Usage: specbase <command>

  serve                                  run the HTTP server (migrates first; a webhook worker too unless WEBHOOK_WORKER=false)
  worker                                 run a webhook worker alone (several may share one PostgreSQL)
  migrate                                apply pending database migrations
  user create --email E --password P [--nickname N] [--name N] [--verified]
  user verify --email E
  token create --email E --name N --scopes s1,s2
  client create --name N --redirect-uri U [--redirect-uri U2 ...] [--post-logout-redirect-uri U ...] [--public]
                                         register an OAuth client (its secret is shown once; none with --public)
  client list                            every OAuth client (never a secret)
  client update --id C [--name N] [--redirect-uri U ...] [--post-logout-redirect-uri U ...]
                                         change a client; the URIs given replace its list
  client delete --id C                   delete a client: its tokens stop working at once
  client rotate-secret --id C [--overlap-seconds S]
                                         a new secret, shown once; the old one works S seconds more (default 0)
  client registration-token              an initial access token for one dynamic registration within 24 hours (CLIENT_REGISTRATION=token)
  keys rotate                            add a signing key: published now, signing 6 minutes later; the old one stays published until its tokens expire
  secrets generate-key                   a new operator key for SECRETS_KEY (printed, stored nowhere)
  secrets rotate                         re-seal every webhook secret and signing key with the current key (SECRETS_KEY),
                                         reading with it and SECRETS_PREVIOUS_KEYS
  backup --to FILE                       copy the SQLite database to FILE while the server runs (online backup)
  account plan --account A --plan free|private [--trial-days N]
                                         put an account on a plan (private with --trial-days: a trial of N days from now)

Configuration comes from the environment; see docs/configuration.md.`;

class UsageError extends Error {}

function describe(error: ApplicationError): string {
  switch (error.kind) {
    case 'Validation':
      return error.errors.map((e) => `${e.field}: ${e.message}`).join('; ');
    case 'DuplicateEmail':
      return 'a user with this e-mail address exists';
    case 'EmailAlreadyVerified':
      return 'the e-mail address is verified already';
    case 'NotFound':
      return `no such ${error.resource}`;
    case 'EmailNotVerified':
      return 'the e-mail address is not verified (specbase user verify --email ...)';
    case 'PlanLimit':
      return `the account's ${error.plan} plan allows ${error.limit} ${error.quota}, and it has ${error.current} (specbase account plan ...)`;
    default:
      return error.kind;
  }
}

function value<T>(result: Result<T, ApplicationError>): T {
  if (!result.ok) throw new UsageError(describe(result.error));
  return result.value;
}

function options(args: string[], spec: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>) {
  try {
    return parseArgs({ args, options: spec, allowPositionals: false, strict: true }).values as Record<string, string | boolean | undefined>;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function required(values: Record<string, string | boolean | undefined>, name: string): string {
  const v = values[name];
  if (typeof v !== 'string' || v === '') throw new UsageError(`--${name} is required`);
  return v;
}

/** The values of an option given any number of times; undefined when it was not given. */
function many(values: Record<string, string | boolean | undefined>, name: string): string[] | undefined {
  const v = values[name] as unknown as string[] | undefined;
  return v === undefined || v.length === 0 ? undefined : v;
}

/**
 * Commands serve no repeated reads and run no webhook worker: no read cache, and so on PostgreSQL
 * no connection that LISTENs for changes.
 */
function forCommand(config: Config): Config {
  return { ...config, readCacheSize: 0, webhooks: { ...config.webhooks, worker: false } };
}

/**
 * `specbase worker`'s configuration: no read cache (it serves no reads) but a webhook worker, whose
 * container then listens for PostgreSQL's notifications so that the workers hear each other
 * (PostgresWorkerPeers) whatever READ_CACHE_SIZE and WEBHOOK_WORKER say.
 */
function forWorker(config: Config): Config {
  return { ...forCommand(config), webhooks: { ...config.webhooks, worker: true } };
}

/** Runs a one-shot command against the migrated database, then closes it. */
async function withStorage<T>(config: Config, work: (c: Container) => Promise<T>): Promise<T> {
  const container = buildContainer(forCommand(config), { logTo: 'stderr' });
  const storage = container.get<Storage>(StorageToken);
  await storage.open();
  try {
    await storage.migrate();
    return await work(container);
  } finally {
    await storage.close();
  }
}

async function migrate(config: Config): Promise<string[]> {
  const storage = buildContainer(forCommand(config), { logTo: 'stderr' }).get<Storage>(StorageToken);
  await storage.open();
  try {
    return await storage.migrate();
  } finally {
    await storage.close();
  }
}

async function serve(config: Config): Promise<void> {
  // A signal while the server starts (it listens before the demo bootstrap ends) stops it once it
  // has started, as gracefully as later; the same signal again ends the process at once.
  let early: NodeJS.Signals | undefined;
  let stopOn = (signal: NodeJS.Signals): void => void (early ??= signal);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => stopOn(signal));
  const running = await startServer({ config });
  const log = running.container.get<Logger>(LoggerToken);
  // With PORT=0 only the bound address says where to go.
  const publicUrl = config.port === 0 ? running.url : config.publicUrl;
  if (running.demo) {
    const { email, password, accountId, token } = running.demo;
    process.stdout.write(
      [
        '',
        'First start on an empty database: a verified demo user was created.',
        `  e-mail:   ${email}`,
        `  password: ${password}`,
        `  account:  ${accountId}`,
        `API token: ${token}`,
        `Try: curl -H "Authorization: Bearer ${token}" ${publicUrl}/api/${accountId}`,
        '',
      ].join('\n') + '\n',
    );
  }
  log.info({ url: running.url, publicUrl, database: config.database.kind }, 'listening');
  stopOn = (signal) => {
    // /readyz turns 503 now; the listener stays open for SHUTDOWN_DRAIN_MS. A second signal ends the process at once.
    log.info({ signal, drainMs: config.shutdownDrainMs }, 'shutting down');
    running.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  if (early !== undefined) stopOn(early);
}

/** A webhook worker without the HTTP server, until SIGTERM or SIGINT. */
async function runWorker(config: Config): Promise<void> {
  tuneHeap(config.heapGrowingPercent);
  const container = buildContainer(forWorker(config));
  const storage = container.get<Storage>(StorageToken);
  await storage.open();
  await storage.migrate();
  const worker = container.get(WebhookWorker);
  const log = container.get<Logger>(LoggerToken);
  const monitor = container.get(DatabaseMonitor);
  if (config.database.kind === 'postgres') monitor.start();
  worker.start();
  // Whether it hands webhooks over to other workers (PostgreSQL: it hears them through NOTIFY).
  log.info({ database: config.database.kind, peers: container.get(WorkerPeersToken) !== null }, 'webhook worker started');
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      log.info({ signal }, 'webhook worker stopping');
      monitor.stop();
      void worker
        .stop()
        .then(() => closeWebhookSender(container))
        .then(() => storage.close())
        .then(
          () => process.exit(0),
          () => process.exit(1),
        );
    });
  }
}

async function main(argv: string[]): Promise<void> {
  const [command, sub, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help') {
    process.stdout.write(USAGE + '\n');
    return;
  }
  const config = loadConfig();
  const print = (object: unknown): void => {
    process.stdout.write(JSON.stringify(object) + '\n');
  };
  if (command === 'backup' && sub !== undefined) rest.unshift(sub);
  switch (`${command} ${['serve', 'migrate', 'worker', 'backup'].includes(command) ? '' : (sub ?? '')}`.trim()) {
    case 'serve':
      return serve(config);
    case 'worker':
      return runWorker(config);
    case 'migrate': {
      return print({ applied: await migrate(config) });
    }
    case 'user create': {
      const v = options(rest, { email: { type: 'string' }, password: { type: 'string' }, nickname: { type: 'string' }, name: { type: 'string' }, verified: { type: 'boolean' } });
      const input = {
        email: required(v, 'email'),
        password: required(v, 'password'),
        nickname: typeof v['nickname'] === 'string' ? v['nickname'] : undefined,
        name: typeof v['name'] === 'string' ? v['name'] : undefined,
        verified: v['verified'] === true,
      };
      const created = await withStorage(config, async (c) => value(await c.get(RegisterUser).execute(input)));
      return print({ userId: created.userId, accountId: created.accountId });
    }
    case 'user verify': {
      const v = options(rest, { email: { type: 'string' } });
      const email = required(v, 'email');
      const verified = await withStorage(config, async (c) => value(await c.get(VerifyEmail).execute(email)));
      return print({ userId: verified.userId, emailVerified: true });
    }
    case 'token create': {
      const v = options(rest, { email: { type: 'string' }, name: { type: 'string' }, scopes: { type: 'string' } });
      const email = required(v, 'email');
      const input = { name: required(v, 'name'), scopes: required(v, 'scopes').split(',').map((s) => s.trim()).filter(Boolean) };
      const created = await withStorage(config, async (c) => value(await c.get(CreateApiToken).execute({ email }, input)));
      return print({ id: created.id, token: created.token, scopes: created.scopes });
    }
    case 'client create': {
      const v = options(rest, { name: { type: 'string' }, 'redirect-uri': { type: 'string', multiple: true }, 'post-logout-redirect-uri': { type: 'string', multiple: true }, public: { type: 'boolean' } });
      const uris = many(v, 'redirect-uri');
      if (!uris || uris.length === 0) throw new UsageError('--redirect-uri is required');
      const input = { name: required(v, 'name'), redirectUris: uris, postLogoutRedirectUris: many(v, 'post-logout-redirect-uri') ?? [], public: v['public'] === true };
      const created = await withStorage(config, async (c) => value(await c.get(RegisterOAuthClient).execute(input)));
      return print({ clientId: created.clientId, clientSecret: created.clientSecret });
    }
    case 'client list': {
      options(rest, {});
      const clients = await withStorage(config, (c) => c.get(ListOAuthClients).execute());
      return print({ items: clients.map((client) => ({ ...client, creationDate: client.creationDate.toISOString() })) });
    }
    case 'client update': {
      const v = options(rest, { id: { type: 'string' }, name: { type: 'string' }, 'redirect-uri': { type: 'string', multiple: true }, 'post-logout-redirect-uri': { type: 'string', multiple: true } });
      const id = required(v, 'id');
      const name = typeof v['name'] === 'string' ? v['name'] : undefined;
      const redirectUris = many(v, 'redirect-uri');
      const postLogoutRedirectUris = many(v, 'post-logout-redirect-uri');
      if (name === undefined && redirectUris === undefined && postLogoutRedirectUris === undefined) throw new UsageError('give at least one of --name, --redirect-uri, --post-logout-redirect-uri');
      const changes = { ...(name === undefined ? {} : { name }), ...(redirectUris === undefined ? {} : { redirectUris }), ...(postLogoutRedirectUris === undefined ? {} : { postLogoutRedirectUris }) };
      const updated = await withStorage(config, async (c) => value(await c.get(UpdateOAuthClient).execute(id, changes)));
      return print({ ...updated, creationDate: updated.creationDate.toISOString() });
    }
    case 'client delete': {
      const v = options(rest, { id: { type: 'string' } });
      const id = required(v, 'id');
      return print(await withStorage(config, async (c) => value(await c.get(DeleteOAuthClient).execute(id))));
    }
    case 'client rotate-secret': {
      const v = options(rest, { id: { type: 'string' }, 'overlap-seconds': { type: 'string' } });
      const id = required(v, 'id');
      const overlap = v['overlap-seconds'];
      if (overlap !== undefined && !/^[0-9]{1,7}$/.test(String(overlap))) throw new UsageError('--overlap-seconds must be a whole number of seconds from 0 to 2592000 (30 days)');
      const rotated = await withStorage(config, async (c) => value(await c.get(RotateOAuthClientSecret).execute(id, overlap === undefined ? 0 : Number(overlap))));
      return print({ clientId: rotated.clientId, clientSecret: rotated.clientSecret });
    }
    case 'client registration-token': {
      options(rest, {});
      const issued = await withStorage(config, (c) => c.get(IssueInitialAccessToken).execute());
      return print({ token: issued.token, expiresDate: issued.expiresDate.toISOString() });
    }
    case 'keys rotate': {
      options(rest, {});
      const rotated = await withStorage(config, (c) => c.get(SigningKeys).rotate());
      return print({ kid: rotated.kid, activationDate: rotated.activationDate.toISOString() });
    }
    case 'secrets generate-key': {
      options(rest, {});
      const made = generateSecretsKey();
      return print({ key: made.text, keyId: made.key.id });
    }
    case 'secrets rotate': {
      options(rest, {});
      const rotated = await withStorage(config, async (c) => {
        const db = c.get(TypeOrmDatabase);
        return { keyId: db.secrets.keyId, rewrapped: await new StoredSecrets(db).rotate() };
      });
      return print(rotated);
    }
    case 'backup': {
      const v = options(rest, { to: { type: 'string' } });
      const to = resolve(required(v, 'to'));
      if (config.database.kind !== 'sqlite') throw new UsageError('backup copies a SQLite database; on PostgreSQL use pg_dump (docs/operations.md)');
      const database = config.database.path;
      const { bytes, secretsKeyIds } = await backupSqlite(database, to).catch((error: Error) => Promise.reject(new UsageError(error.message)));
      return print({ file: to, bytes, secretsKeyIds });
    }
    case 'account plan': {
      const v = options(rest, { account: { type: 'string' }, plan: { type: 'string' }, 'trial-days': { type: 'string' } });
      const account = required(v, 'account');
      const accountId = parseIntegerKeyText<AccountId>(account);
      if (accountId === undefined) throw new UsageError('--account must be an account id (a positive integer)');
      const days = v['trial-days'];
      if (days !== undefined && !/^[0-9]{1,4}$/.test(String(days))) throw new UsageError('--trial-days must be a whole number of days from 1 to 365');
      const input = { accountId, plan: required(v, 'plan'), trialDays: days === undefined ? undefined : Number(days) };
      const changed = await withStorage(config, async (c) => value(await c.get(SetAccountPlan).execute(input)));
      return print(changed);
    }
    default:
      throw new UsageError(`unknown command: ${argv.slice(0, 2).join(' ')}\n\n${USAGE}`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const known = error instanceof UsageError || error instanceof ConfigError || error instanceof SecretsKeyError;
  process.stderr.write(`specbase: ${known ? (error).message : String((error as Error)?.stack ?? error)}\n`);
  process.exit(known ? 2 : 1);
});
