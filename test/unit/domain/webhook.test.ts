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

  it('waits the base delay when asked before any failure', () => {
    expect(retryDelayMs(policy, 0, 0.5)).to.equal(10_000);
  });

  it('sums the capped delays between the attempts: one fewer than the attempts', () => {
    const small: RetryPolicy = { baseMs: 1000, capMs: 3000, maxAttempts: 4 };
    expect(retrySpanMs(small), '1 s + 2 s + 3 s (4 s capped)').to.equal(6000);
    expect(retrySpanMs({ ...small, maxAttempts: 5 })).to.equal(9000);
    expect(retrySpanMs({ ...small, maxAttempts: 1 })).to.equal(0);
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

  const made = (fields: Record<string, unknown> = {}): Webhook => {
    const result = make(fields);
    if (!result.ok) throw new Error(`expected ok: ${result.error.message}`);
    return result.value;
  };
  const refusal = (field: string, message: string) => ({ ok: false, error: { kind: 'InvalidField', field, message } });
  const EVENTS_KNOWN = 'api.created, api.updated, api.deleted, release.released, release.deprecated, release.endOfLife, release.deleted';

  for (const [label, fields, field, message] of [
    ['an ftp URL', { targetUrl: 'ftp://example.com/x' }, 'targetUrl', 'only http and https targets are allowed'],
    ['a relative URL', { targetUrl: '/hook' }, 'targetUrl', 'must be an absolute http or https URL'],
    ['a URL that is not text', { targetUrl: 42 }, 'targetUrl', 'must be an http or https URL of at most 2048 characters'],
    ['credentials in the URL', { targetUrl: 'https://user:pw@example.com/' }, 'targetUrl', 'must not carry a user name or password'],
    ['a user name alone in the URL', { targetUrl: 'https://user@example.com/' }, 'targetUrl', 'must not carry a user name or password'],
    ['a password alone in the URL', { targetUrl: 'https://:pw@example.com/' }, 'targetUrl', 'must not carry a user name or password'],
    ['a 2,049-character URL', { targetUrl: `https://example.com/${'x'.repeat(2029)}` }, 'targetUrl', 'must be an http or https URL of at most 2048 characters'],
    ['no events', { events: [] }, 'events', `must be a non-empty list of: ${EVENTS_KNOWN}`],
    ['events that are not a list', { events: 'api.created' }, 'events', `must be a non-empty list of: ${EVENTS_KNOWN}`],
    ['an unknown event', { events: ['api.created', 'api.renamed'] }, 'events', `unknown event "api.renamed"; known: ${EVENTS_KNOWN}`],
    ['an event that is not text', { events: [7] }, 'events', `unknown event 7; known: ${EVENTS_KNOWN}`],
    ['a 15-character secret', { secret: 'x'.repeat(15) }, 'secret', 'must be 16-256 characters'],
    ['a 257-character secret', { secret: 'x'.repeat(257) }, 'secret', 'must be 16-256 characters'],
    ['a secret that is not text', { secret: 1234567890123456 }, 'secret', 'must be 16-256 characters'],
  ] as const) {
    it(`refuses ${label}, naming the field and the rule`, () => {
      expect(make(fields)).to.deep.equal(refusal(field, message));
    });
  }

  it('takes http as well as https targets, up to 2,048 characters, kept as written', () => {
    // The domain allows both schemes; which addresses may be reached is the SSRF guard's to decide.
    expect(made({ targetUrl: 'http://hooks.example.com/in' }).targetUrl).to.equal('http://hooks.example.com/in');
    const longest = `https://example.com/${'x'.repeat(2028)}`;
    expect(longest).to.have.length(2048);
    expect(made({ targetUrl: longest }).targetUrl).to.equal(longest);
    expect(made({ targetUrl: 'HTTPS://Hooks.Example.com/In?a=1' }).targetUrl).to.equal('HTTPS://Hooks.Example.com/In?a=1');
  });

  it('takes secrets of 16 to 256 characters, counted as characters, not UTF-16 units', () => {
    expect(made({ secret: 'x'.repeat(16) }).secret).to.equal('x'.repeat(16));
    expect(made({ secret: 'x'.repeat(256) }).secret).to.equal('x'.repeat(256));
    // 15 emoji are 30 UTF-16 units but 15 characters; 256 emoji are 512 units but 256 characters.
    expect(make({ secret: '🔑'.repeat(15) })).to.deep.equal(refusal('secret', 'must be 16-256 characters'));
    expect(made({ secret: '🔑'.repeat(256) }).secret).to.equal('🔑'.repeat(256));
  });

  it('subscribes to each listed event once, and to no other', () => {
    const webhook = made({ events: ['release.released', 'api.created', 'release.released'] });
    expect(webhook.toRecord().events).to.deep.equal(['release.released', 'api.created']);
    expect(webhook.subscribesTo('api.created')).to.equal(true);
    expect(webhook.subscribesTo('api.deleted')).to.equal(false);
  });

  describe('recordResponse', () => {
    for (const status of [200, 201, 204, 299]) {
      it(`ends a failure streak on a ${status}`, () => {
        const webhook = made({ active: true });
        webhook.recordResponse({ status: 500, body: '', durationMs: 1 }, later(1000));
        webhook.recordResponse({ status, body: 'ok', durationMs: 2 }, later(2000));
        expect(webhook.failingSince).to.equal(null);
        expect(webhook.toRecord().lastResponse).to.deep.equal({ status, body: 'ok', durationMs: 2, date: '2026-11-22T12:00:02.000+00:00' });
      });
    }
    for (const status of [null, 100, 199, 300, 301, 404, 500, 503]) {
      it(`starts a failure streak on ${status === null ? 'no response' : `a ${status}`}, and extends it`, () => {
        const webhook = made({ active: true });
        webhook.recordResponse({ status, body: '', durationMs: 1 }, later(1000));
        expect(webhook.failingSince).to.deep.equal(later(1000));
        webhook.recordResponse({ status, body: '', durationMs: 1 }, later(2000));
        expect(webhook.failingSince).to.deep.equal(later(1000));
      });
    }

    it('keeps the first 1,024 bytes of a response body, never half a character', () => {
      const webhook = made();
      const exact = 'x'.repeat(1024);
      webhook.recordResponse({ status: 200, body: exact, durationMs: 1 }, NOW);
      expect(webhook.toRecord().lastResponse?.body).to.equal(exact);
      webhook.recordResponse({ status: 200, body: `${exact}y`, durationMs: 1 }, NOW);
      expect(webhook.toRecord().lastResponse?.body).to.equal(exact);
      // 'é' is 2 bytes: 1,023 bytes of x and the first byte of 'é' would leave half a character.
      webhook.recordResponse({ status: 200, body: `${'x'.repeat(1023)}é`, durationMs: 1 }, NOW);
      expect(webhook.toRecord().lastResponse?.body).to.equal('x'.repeat(1023));
      webhook.recordResponse({ status: 200, body: `${'x'.repeat(1022)}é`, durationMs: 1 }, NOW);
      expect(webhook.toRecord().lastResponse?.body).to.equal(`${'x'.repeat(1022)}é`);
      webhook.recordResponse({ status: 200, body: `\uFFFD${'x'.repeat(1023)}`, durationMs: 1 }, NOW);
      expect(webhook.toRecord().lastResponse?.body, 'a replacement character the receiver sent is kept').to.equal(`\uFFFD${'x'.repeat(1021)}`);
      for (const body of ['bad byte \uFFFD', `${'x'.repeat(1021)}\uFFFD`]) {
        webhook.recordResponse({ status: 200, body, durationMs: 1 }, NOW);
        expect(webhook.toRecord().lastResponse?.body, 'a body that fits is kept whole, to its last character').to.equal(body);
      }
    });
  });

  it('is deactivated by its owner without a reason, or by the service with one, and activation clears both', () => {
    const webhook = made({ active: true });
    webhook.recordResponse({ status: 500, body: '', durationMs: 1 }, later(1000));
    webhook.deactivate(null, later(2000));
    expect(webhook.snapshot()).to.deep.include({ active: false, deactivationReason: null, failingSince: later(1000), updateDate: later(2000) });
    webhook.deactivate('failing for a day', later(3000));
    expect(webhook.snapshot()).to.deep.include({ active: false, deactivationReason: 'failing for a day', updateDate: later(3000) });
    webhook.activate(later(4000));
    expect(webhook.snapshot()).to.deep.include({ active: true, deactivationReason: null, failingSince: null, updateDate: later(4000) });
  });

  it('shows its state through its getters and its record', () => {
    const webhook = made({ active: true });
    expect([webhook.id, webhook.accountId, webhook.targetUrl, webhook.secret, webhook.active, webhook.failingSince]).to.deep.equal(['w1', 1, 'https://hooks.example.com/in', 's'.repeat(16), true, null]);
    expect(Webhook.rehydrate(webhook.snapshot()).snapshot()).to.deep.equal(webhook.snapshot());
    webhook.recordResponse({ status: 201, body: 'created', durationMs: 9 }, later(1000));
    expect(webhook.toRecord().lastResponse).to.deep.equal({ status: 201, body: 'created', durationMs: 9, date: '2026-11-22T12:00:01.000+00:00' });
  });

  describe('update', () => {
    const LATER = later(60_000);

    it('changes the target URL, events and secret, and moves updateDate only', () => {
      const webhook = made({ active: true });
      const before = webhook.snapshot();
      expect(webhook.update({ targetUrl: 'http://other.example.com/x', events: ['api.deleted', 'api.deleted'], secret: 't'.repeat(20) }, LATER)).to.deep.equal({ ok: true, value: undefined });
      expect(webhook.snapshot()).to.deep.equal({ ...before, targetUrl: 'http://other.example.com/x', events: ['api.deleted'], secret: 't'.repeat(20), updateDate: LATER });
    });

    it('keeps what a change leaves out', () => {
      const webhook = made();
      const before = webhook.snapshot();
      expect(webhook.update({}, LATER).ok).to.equal(true);
      expect(webhook.snapshot()).to.deep.equal({ ...before, updateDate: LATER });
    });

    for (const [label, changes, field, message] of [
      ['an ftp target URL', { targetUrl: 'ftp://example.com/x' }, 'targetUrl', 'only http and https targets are allowed'],
      ['a target URL with a user name alone', { targetUrl: 'https://user@example.com/' }, 'targetUrl', 'must not carry a user name or password'],
      ['a target URL that does not parse', { targetUrl: 'not a url', events: ['api.deleted'] }, 'targetUrl', 'must be an absolute http or https URL'],
      ['an unknown event', { targetUrl: 'https://fine.example.com/', events: ['api.renamed'] }, 'events', `unknown event "api.renamed"; known: ${EVENTS_KNOWN}`],
      ['a short secret', { events: ['api.deleted'], secret: 'short' }, 'secret', 'must be 16-256 characters'],
    ] as const) {
      it(`refuses ${label} and changes nothing`, () => {
        const webhook = made();
        const before = webhook.snapshot();
        expect(webhook.update(changes, LATER)).to.deep.equal(refusal(field, message));
        expect(webhook.snapshot()).to.equal(before);
        expect(webhook.targetUrl).to.equal('https://hooks.example.com/in');
      });
    }
  });

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

  for (const status of [200, 201, 204, 299]) {
    it(`succeeds on a ${status}, with no further attempt`, () => {
      const delivery = fresh();
      delivery.recordAttempt(fail, NOW, policy, 0.5);
      delivery.recordAttempt({ status, durationMs: 7, responseBody: 'ok', error: null }, later(1000), policy, 0.5);
      expect(delivery.toRecord()).to.deep.include({ state: 'succeeded', nextAttemptDate: null });
      expect(delivery.status).to.equal('succeeded');
    });
  }

  for (const status of [null, 100, 199, 300, 304, 400, 410, 500]) {
    it(`retries after ${status === null ? 'no response' : `a ${status}`}`, () => {
      const delivery = fresh();
      delivery.recordAttempt({ status, durationMs: 7, responseBody: '', error: status === null ? 'timed out' : null }, NOW, policy, 0.5);
      expect(delivery.toRecord()).to.deep.include({ state: 'pending', nextAttemptDate: '2026-11-22T12:00:01.000+00:00' });
    });
  }

  it('waits the jittered delay of the policy before each retry', () => {
    const delivery = fresh();
    delivery.recordAttempt(fail, NOW, policy, 0);
    expect(delivery.toRecord().nextAttemptDate).to.equal('2026-11-22T12:00:00.800+00:00');
    delivery.recordAttempt(fail, later(800), policy, 0.75);
    expect(delivery.toRecord().nextAttemptDate, '800 ms + 2 s · 1.1').to.equal('2026-11-22T12:00:03.000+00:00');
  });

  it('makes exactly maxAttempts attempts, the last one failing it', () => {
    const once: RetryPolicy = { ...policy, maxAttempts: 1 };
    const delivery = fresh();
    delivery.recordAttempt(fail, NOW, once, 0.5);
    expect(delivery.toRecord()).to.deep.include({ state: 'failed', nextAttemptDate: null });
    const twice = fresh();
    twice.recordAttempt(fail, NOW, { ...policy, maxAttempts: 2 }, 0.5);
    expect(twice.status).to.equal('pending');
    twice.recordAttempt(fail, later(1000), { ...policy, maxAttempts: 2 }, 0.5);
    expect(twice.status).to.equal('failed');
  });

  it('keeps what it is to send and every attempt in its record', () => {
    const delivery = fresh();
    expect([delivery.id, delivery.webhookId, delivery.eventId, delivery.payload, delivery.status, delivery.firstAttemptDate]).to.deep.equal(['d1', 'w1', 'e1', '{}', 'pending', null]);
    delivery.recordAttempt(fail, later(5), policy, 0.5);
    delivery.recordAttempt({ status: 200, durationMs: 3, responseBody: 'thanks', error: null }, later(1005), policy, 0.5);
    expect(delivery.firstAttemptDate).to.deep.equal(later(5));
    expect(Delivery.rehydrate(delivery.snapshot()).toRecord()).to.deep.equal({
      id: 'd1',
      eventId: 'e1',
      event: 'api.created',
      state: 'succeeded',
      attempts: [
        { date: '2026-11-22T12:00:00.005+00:00', status: 503, durationMs: 5, responseBody: 'busy', error: null },
        { date: '2026-11-22T12:00:01.005+00:00', status: 200, durationMs: 3, responseBody: 'thanks', error: null },
      ],
      nextAttemptDate: null,
    });
  });

  it('can be abandoned with the reason in its log', () => {
    const delivery = fresh();
    delivery.abandon('the webhook is inactive', NOW);
    expect(delivery.toRecord()).to.deep.include({ state: 'failed' });
    expect(delivery.toRecord().attempts).to.deep.equal([{ date: '2026-11-22T12:00:00.000+00:00', status: null, durationMs: 0, error: 'the webhook is inactive', responseBody: '' }]);
    expect(delivery.toRecord().nextAttemptDate).to.equal(null);
  });
});
