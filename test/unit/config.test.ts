import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../src/main/config.js';

describe('configuration', () => {
  it('defaults the scope base to PUBLIC_URL and mail to the log; trusts no proxy', () => {
    const config = loadConfig({ PUBLIC_URL: 'https://docs.example.com/' });
    expect(config.publicUrl).to.equal('https://docs.example.com');
    expect(config.identity.scopeBase).to.equal('https://docs.example.com');
    expect(config.mail).to.deep.equal({ kind: 'log' });
    expect(config.trustProxy).to.equal(false);
  });

  it('reads SCOPE_BASE, TRUST_PROXY, MAILER=file with MAIL_DIR', () => {
    const config = loadConfig({ SCOPE_BASE: 'https://www.googleapis.com/', TRUST_PROXY: 'true', MAILER: 'file', MAIL_DIR: '/var/spool/specbase' });
    expect(config.identity.scopeBase).to.equal('https://www.googleapis.com');
    expect(config.trustProxy).to.equal(true);
    expect(config.mail).to.deep.equal({ kind: 'file', dir: '/var/spool/specbase' });
  });

  it('reads the caches: SQLite page cache, read cache and token cache, with their defaults and ranges', () => {
    const defaults = loadConfig({});
    expect(defaults.database).to.include({ kind: 'sqlite', cacheMb: 4 });
    expect(defaults.readCacheSize).to.equal(1_000);
    expect(defaults.tokenCache).to.deep.equal({ maxEntries: 10_000, revalidateMs: 2_000 });
    const set = loadConfig({ SQLITE_CACHE_MB: '16', READ_CACHE_SIZE: '0', TOKEN_CACHE_SIZE: '0', TOKEN_CACHE_REVALIDATE_MS: '500' });
    expect(set.database).to.include({ cacheMb: 16 });
    expect(set.readCacheSize).to.equal(0);
    expect(set.tokenCache).to.deep.equal({ maxEntries: 0, revalidateMs: 500 });
    expect(() => loadConfig({ SQLITE_CACHE_MB: '0' })).to.throw(ConfigError, /SQLITE_CACHE_MB/);
    expect(() => loadConfig({ TOKEN_CACHE_REVALIDATE_MS: '120000' })).to.throw(ConfigError, /TOKEN_CACHE_REVALIDATE_MS/);
  });

  it('lets the old generation grow 25% past its live size by default (HEAP_GROWING_PERCENT), 0 leaving V8 its own choice', () => {
    expect(loadConfig({}).heapGrowingPercent).to.equal(25);
    expect(loadConfig({ HEAP_GROWING_PERCENT: '0' }).heapGrowingPercent).to.equal(0);
    expect(loadConfig({ HEAP_GROWING_PERCENT: '100' }).heapGrowingPercent).to.equal(100);
    expect(() => loadConfig({ HEAP_GROWING_PERCENT: '-5' })).to.throw(ConfigError, /HEAP_GROWING_PERCENT/);
    expect(() => loadConfig({ HEAP_GROWING_PERCENT: '1001' })).to.throw(ConfigError, /HEAP_GROWING_PERCENT/);
  });

  it('takes imports of up to 32 MiB by default, as the contract says (GitHub: 13 MB, Microsoft Graph: 20 MB)', () => {
    expect(loadConfig({}).importMaxBytes).to.equal(32 * 1024 * 1024);
    expect(loadConfig({ IMPORT_MAX_BYTES: '2048' }).importMaxBytes).to.equal(2048);
  });

  it('leaves /metrics open and stops without a drain by default', () => {
    const config = loadConfig({});
    expect(config.metricsToken).to.equal(null);
    expect(config.shutdownDrainMs).to.equal(0);
    expect(loadConfig({ METRICS_TOKEN: '' }).metricsToken, 'empty is unset').to.equal(null);
  });

  it('reads METRICS_TOKEN as it is and SHUTDOWN_DRAIN_MS in milliseconds', () => {
    const config = loadConfig({ METRICS_TOKEN: 'scrape-3f9a~c2+d/e=', SHUTDOWN_DRAIN_MS: '15000' });
    expect(config.metricsToken).to.equal('scrape-3f9a~c2+d/e=');
    expect(config.shutdownDrainMs).to.equal(15_000);
    expect(loadConfig({ METRICS_TOKEN: 'x'.repeat(256), SHUTDOWN_DRAIN_MS: '600000' }).shutdownDrainMs).to.equal(600_000);
  });

  it('reads the retention periods as durations (s, m, h, d), the spec history kept unless one is given', () => {
    expect(loadConfig({}).retention).to.deep.equal({ deliveriesMs: 30 * 86_400_000, dispatchedEventsMs: 7 * 86_400_000, rateLimitCountersMs: 3_600_000, specHistoryMs: null, intervalMs: 3_600_000 });
    const set = loadConfig({ DELIVERY_RETENTION: '90s', OUTBOX_RETENTION: '15m', RATE_LIMIT_COUNTER_RETENTION: '2h', SPEC_HISTORY_RETENTION: '365d', RETENTION_INTERVAL_MS: '5000' }).retention;
    expect(set).to.deep.equal({ deliveriesMs: 90_000, dispatchedEventsMs: 900_000, rateLimitCountersMs: 7_200_000, specHistoryMs: 365 * 86_400_000, intervalMs: 5000 });
    expect(loadConfig({ SPEC_HISTORY_RETENTION: 'forever' }).retention.specHistoryMs).to.equal(null);
  });

  it('reads the plans: a 14-day trial and the documented allowances by default, each overridable, unlimited too', () => {
    const defaults = loadConfig({}).plans;
    expect(defaults.trialDays).to.equal(14);
    expect(defaults.reminderIntervalMs).to.equal(60_000);
    expect(defaults.allowances).to.deep.equal({
      free: { privateApis: false, quotas: { apis: 10, webhooks: 30, apiTokens: 10, pagesPerApi: 20, importBytes: 5 * 1024 * 1024 } },
      private: { privateApis: true, quotas: { apis: null, webhooks: 30, apiTokens: 100, pagesPerApi: 200, importBytes: null } },
    });
    const set = loadConfig({ PLAN_TRIAL_DAYS: '0', PLAN_FREE_PRIVATE_APIS: 'true', PLAN_PRIVATE_PRIVATE_APIS: 'false', PLAN_FREE_APIS: 'unlimited', PLAN_PRIVATE_APIS: '500', PLAN_PRIVATE_WEBHOOKS: '0' }).plans;
    expect(set.trialDays).to.equal(0);
    expect(set.allowances.free).to.deep.include({ privateApis: true });
    expect(set.allowances.free.quotas.apis).to.equal(null);
    expect(set.allowances.private).to.deep.include({ privateApis: false });
    expect(set.allowances.private.quotas).to.include({ apis: 500, webhooks: 0 });
  });

  for (const [name, value] of [
    ['PLAN_TRIAL_DAYS', '366'],
    ['PLAN_FREE_APIS', 'lots'],
    ['PLAN_PRIVATE_IMPORT_BYTES', '-1'],
    ['PLAN_FREE_PRIVATE_APIS', 'maybe'],
    ['TRIAL_REMINDER_INTERVAL_MS', '5'],
    ['METRICS_TOKEN', 'too-short-15chr'],
    ['METRICS_TOKEN', 'has a space in the middle'],
    ['METRICS_TOKEN', 'x'.repeat(257)],
    ['METRICS_TOKEN', 'non-ascii-tökén-value'],
    ['SHUTDOWN_DRAIN_MS', '600001'],
    ['SHUTDOWN_DRAIN_MS', '-1'],
    ['SHUTDOWN_DRAIN_MS', '1.5'],
    ['SCOPE_BASE', 'not a url'],
    ['TRUST_PROXY', 'yes please'],
    ['MAILER', 'smtp'],
    ['PUBLIC_URL', 'docs.example.com'],
    ['DELIVERY_RETENTION', '30'],
    ['DELIVERY_RETENTION', '0d'],
    ['OUTBOX_RETENTION', 'forever'],
    ['SPEC_HISTORY_RETENTION', '1 year'],
  ] as const) {
    it(`refuses a malformed ${name} (${value.length > 30 ? `${value.length} characters` : JSON.stringify(value)}), naming it`, () => {
      expect(() => loadConfig({ [name]: value })).to.throw(ConfigError, name);
    });
  }
});
