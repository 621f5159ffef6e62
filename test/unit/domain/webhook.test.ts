import { expect } from 'chai';
import { Delivery } from '../../../src/domain/webhook/delivery.aggregate.js';
import { DEFAULT_RETRY_POLICY, retryDelayMs, retrySpanMs, type RetryPolicy } from '../../../src/domain/webhook/retry-policy.js';
import { Webhook } from '../../../src/domain/webhook/webhook.aggregate.js';
import { accountId, uuid } from '../../support/ids.js';

const NOW = new Date('2026-11-22T12:00:00.000Z');
const later = (ms: number) => new Date(NOW.getTime() + ms);

describe('retry policy', () => {
  const policy: RetryPolicy = { baseMs: 10_000, capMs: 8 * 3600_000, maxAttempts: 15 };

  it('doubles from the base, caps at 8 h, and jitters by ±20%', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(policy, n, 0.5))).to.deep.equal([10_000, 20_000, 40_000, 80_000]);
    expect(retryDelayMs(policy, 12, 0.5)).to.equal(20_480_000);
    expect(retryDelayMs(policy, 13, 0.5)).to.equal(28_800_000);
    expect(retryDelayMs(policy, 14, 0.5)).to.equal(28_800_000);
    expect(retryDelayMs(policy, 1, 0)).to.equal(8_000);
    expect(retryDelayMs(policy, 1, 0.999999)).to.equal(12_000);
  });

  it('spreads the attempts of one delivery over about a day with the defaults', () => {
    expect(DEFAULT_RETRY_POLICY).to.deep.equal(policy);
    expect(retrySpanMs(policy)).to.equal(98_550_000);
    expect(retrySpanMs(policy) / 3600_000).to.be.within(20, 30);
  });
});

describe('Webhook aggregate', () => {
  const make = (fields: Record<string, unknown> = {}) =>
    Webhook.create({ id: uuid('w1'), accountId: accountId(1), targetUrl: 'https://hooks.example.com/in', events: ['api.created'], secret: 's'.repeat(16), ...fields }, NOW);

  it('is inactive unless created active, and never shows its secret', () => {
    const result = make();
    if (!result.ok) throw new Error('expected ok');
    expect(result.value.toRecord()).to.deep.equal({
      id: 'w1',
      targetUrl: 'https://hooks.example.com/in',
      events: ['api.created'],
      active: false,
      secretSet: true,
      creationDate: '2026-11-22T12:00:00.000+00:00',
      lastResponse: null,
      deactivationReason: null,
    });
    expect(JSON.stringify(result.value.toRecord())).to.not.include('ssss');
    const active = make({ active: true });
    expect(active.ok && active.value.active).to.equal(true);
  });

  for (const [label, fields, field] of [
    ['an ftp URL', { targetUrl: 'ftp://example.com/x' }, 'targetUrl'],
    ['a relative URL', { targetUrl: '/hook' }, 'targetUrl'],
    ['credentials in the URL', { targetUrl: 'https://user:pw@example.com/' }, 'targetUrl'],
    ['a 2,049-character URL', { targetUrl: `https://example.com/${'x'.repeat(2029)}` }, 'targetUrl'],
    ['no events', { events: [] }, 'events'],
    ['an unknown event', { events: ['api.created', 'api.renamed'] }, 'events'],
    ['a 15-character secret', { secret: 'x'.repeat(15) }, 'secret'],
    ['a 257-character secret', { secret: 'x'.repeat(257) }, 'secret'],
  ] as const) {
    it(`refuses ${label}`, () => {
      const result = make(fields);
      expect(!result.ok && result.error.field).to.equal(field);
    });
  }

  it('counts a failure streak until a success, and activation clears a deactivation', () => {
    const result = make({ active: true });
    if (!result.ok) throw new Error('expected ok');
    const webhook = result.value;
    webhook.recordResponse({ status: 500, body: 'x'.repeat(3000), durationMs: 12 }, later(1000));
    webhook.recordResponse({ status: null, body: 'timed out', durationMs: 10_000 }, later(2000));
    expect(webhook.failingSince?.toISOString()).to.equal(later(1000).toISOString());
    expect(webhook.toRecord().lastResponse).to.deep.equal({ status: null, body: 'timed out', durationMs: 10_000, date: '2026-11-22T12:00:02.000+00:00' });
    webhook.recordResponse({ status: 500, body: 'é'.repeat(600), durationMs: 1 }, later(2500));
    expect(new TextEncoder().encode(webhook.toRecord().lastResponse!.body).length).to.be.at.most(1024);
    webhook.recordResponse({ status: 204, body: '', durationMs: 3 }, later(3000));
    expect(webhook.failingSince).to.equal(null);
    webhook.deactivate('gave up', later(4000));
    expect(webhook.toRecord()).to.include({ active: false, deactivationReason: 'gave up' });
    webhook.activate(later(5000));
    expect(webhook.toRecord()).to.include({ active: true, deactivationReason: null });
  });
});

describe('Delivery aggregate', () => {
  const policy: RetryPolicy = { baseMs: 1000, capMs: 60_000, maxAttempts: 3 };
  const fresh = () => Delivery.schedule({ id: uuid('d1'), webhookId: uuid('w1'), accountId: accountId(1), eventId: 'e1', event: 'api.created', payload: '{}' }, NOW);
  const fail = { status: 503, durationMs: 5, responseBody: 'busy', error: null };

  it('is due at once, succeeds on a 2xx', () => {
    const delivery = fresh();
    expect(delivery.toRecord()).to.deep.include({ state: 'pending', attempts: [], nextAttemptDate: '2026-11-22T12:00:00.000+00:00' });
    delivery.recordAttempt({ status: 204, durationMs: 7, responseBody: '', error: null }, later(10), policy, 0.5);
    expect(delivery.toRecord()).to.deep.include({ state: 'succeeded', nextAttemptDate: null });
    expect(delivery.toRecord().attempts).to.deep.equal([{ date: '2026-11-22T12:00:00.010+00:00', status: 204, durationMs: 7, error: null, responseBody: '' }]);
  });

  it('retries after the policy delay and fails after the last attempt', () => {
    const delivery = fresh();
    delivery.recordAttempt(fail, NOW, policy, 0.5);
    expect(delivery.toRecord()).to.deep.include({ state: 'pending', nextAttemptDate: '2026-11-22T12:00:01.000+00:00' });
    delivery.recordAttempt({ status: null, durationMs: 100, responseBody: '', error: 'connection refused' }, later(1000), policy, 0.5);
    expect(delivery.toRecord().nextAttemptDate).to.equal('2026-11-22T12:00:03.000+00:00');
    delivery.recordAttempt({ status: 302, durationMs: 5, responseBody: '', error: null }, later(3000), policy, 0.5);
    expect(delivery.toRecord()).to.deep.include({ state: 'failed', nextAttemptDate: null });
    expect(delivery.toRecord().attempts.map((a) => a.status)).to.deep.equal([503, null, 302]);
    expect(delivery.firstAttemptDate?.toISOString()).to.equal(NOW.toISOString());
  });

  it('can be abandoned with the reason in its log', () => {
    const delivery = fresh();
    delivery.abandon('the webhook is inactive', NOW);
    expect(delivery.toRecord()).to.deep.include({ state: 'failed' });
    expect(delivery.toRecord().attempts[0]).to.deep.include({ status: null, error: 'the webhook is inactive' });
  });
});
