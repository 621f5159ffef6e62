import { expect } from 'chai';
import { Api, nameFromTitle, nicknameFromTitle } from '../../../src/domain/api/api.aggregate.js';
import { eventPayload } from '../../../src/domain/events/domain-event.js';
import { anApi } from '../../support/builders.js';
import { accountId, userId, uuid } from '../../support/ids.js';

const NOW = new Date('2026-11-22T11:00:00.000Z');
const owner = { id: userId(7), nickname: 'ada' };

function create(fields: Record<string, unknown>) {
  return Api.create({ id: uuid('00000000-0000-7000-8000-000000000001'), accountId: accountId(3), owner, name: 'Pets', nickname: 'pets', ...fields }, NOW);
}

describe('Api aggregate', () => {
  describe('names made from a title', () => {
    for (const [title, nickname] of [
      ['...Hidden API', 'hidden-api'],
      ['-.-Dashes and dots first', 'dashes-and-dots-first'],
      ['Version 1.', 'version-1.'],
      ['a--b--', 'a--b'],
      [`${'a'.repeat(62)}--b`, 'a'.repeat(62)],
      [`${'a'.repeat(63)} b`, 'a'.repeat(63)],
      ['---', 'api'],
    ] as const) {
      it(`makes the nickname ${JSON.stringify(nickname.length > 20 ? `${nickname.slice(0, 5)}... (${nickname.length})` : nickname)} of a title, cut to 64 without a dash at either end`, () => {
        expect(nicknameFromTitle(title)).to.equal(nickname);
      });
    }

    it('cuts a long title after a whole character even when it starts with a surrogate pair', () => {
      expect(nameFromTitle(`😀${'x'.repeat(300)}`, 'fallback')).to.equal(`😀${'x'.repeat(197)}…`);
    });
  });

  describe('create', () => {
    it('starts at revision 1, private by default, and records api.created with the API record', () => {
      const result = create({});
      if (!result.ok) throw new Error('expected ok');
      const api = result.value;
      expect(api.revision).to.equal(1);
      expect(api.toRecord()).to.deep.equal({
        id: '00000000-0000-7000-8000-000000000001',
        revision: 1,
        user: { id: 7, nickname: 'ada' },
        nickname: 'pets',
        name: 'Pets',
        type: 'private',
        description: null,
        version: null,
        specFormat: null,
        breakingChangePolicy: 'allow',
        allowRemovalAfterSunset: false,
        creationDate: '2026-11-22T11:00:00.000+00:00',
        updateDate: '2026-11-22T11:00:00.000+00:00',
      });
      const events = api.pullEvents();
      expect(events.map((e) => e.name)).to.deep.equal(['api.created']);
      expect(events[0]).to.include({ accountId: 3, resourceType: 'Api' });
      expect(events[0]!.actor).to.deep.equal(owner);
      expect(events[0]!.resource, 'the record itself, made once per state').to.equal(api.toRecord());
      expect(api.pullEvents()).to.deep.equal([], 'events are handed over once');
    });

    it('builds the payload of the contract from an event', () => {
      const api = create({});
      if (!api.ok) throw new Error('expected ok');
      const [event] = api.value.pullEvents();
      expect(eventPayload('e-1', event!)).to.deep.equal({
        id: 'e-1',
        name: 'api.created',
        timestamp: '2026-11-22T11:00:00.000+00:00',
        user: { id: 7, nickname: 'ada' },
        resourceType: 'Api',
        resource: api.value.toRecord(),
      });
    });

    for (const nickname of ['a', 'pet-store_v2.0', 'x'.repeat(64), '0']) {
      it(`accepts the nickname ${JSON.stringify(nickname.length > 20 ? `${nickname.slice(0, 5)}... (${nickname.length})` : nickname)}`, () => {
        expect(create({ nickname }).ok).to.equal(true);
      });
    }
    for (const nickname of ['', 'Pets', 'pet store', 'x'.repeat(65), '.', '..', '../etc', 'pets/1', 'émile', 42, null]) {
      it(`refuses the nickname ${JSON.stringify(nickname)} naming the field`, () => {
        const result = create({ nickname });
        expect(result.ok).to.equal(false);
        if (!result.ok) expect(result.error).to.include({ kind: 'InvalidField', field: 'nickname' });
      });
    }
    for (const nickname of ['v1.', '.well-known', 'a..b']) {
      it(`accepts the nickname ${JSON.stringify(nickname)}: dots are refused only when there is nothing else`, () => {
        expect(create({ nickname }).ok).to.equal(true);
      });
    }
    it('names the nickname rule when it refuses one', () => {
      expect(create({ nickname: '..' })).to.deep.equal({ ok: false, error: { kind: 'InvalidField', field: 'nickname', message: 'must be 1-64 of a-z, 0-9, "-", "_", "." and not only dots' } });
    });
    const NAME_RULE = 'must be 1-200 characters, not only spaces';
    const TYPE_RULE = 'must be one of private, public';
    for (const [field, value, message] of [['name', '', NAME_RULE], ['name', '   ', NAME_RULE], ['name', 'x'.repeat(201), NAME_RULE], ['name', 5, NAME_RULE], ['type', 'secret', TYPE_RULE], ['type', 1, TYPE_RULE]] as const) {
      it(`refuses ${field}=${JSON.stringify(value).slice(0, 20)}, naming the field and the rule`, () => {
        expect(create({ [field]: value })).to.deep.equal({ ok: false, error: { kind: 'InvalidField', field, message } });
      });
    }
    it('accepts a name of 200 characters', () => {
      const result = create({ name: 'x'.repeat(200) });
      expect(result.ok && result.value.toRecord().name).to.equal('x'.repeat(200));
    });
    it('accepts type public', () => {
      const result = create({ type: 'public' });
      expect(result.ok && result.value.toRecord().type).to.equal('public');
    });
  });

  describe('update', () => {
    it('grows the revision by one per change and moves updateDate', () => {
      const api = anApi().atRevision(4).build();
      expect(api.update({ name: 'Pet Store' }, undefined, owner, NOW).ok).to.equal(true);
      expect(api.revision).to.equal(5);
      expect(api.toRecord()).to.include({ name: 'Pet Store', updateDate: '2026-11-22T11:00:00.000+00:00' });
      expect(api.update({ nickname: 'store', type: 'public' }, 5, owner, NOW).ok).to.equal(true);
      expect(api.revision).to.equal(6);
    });

    for (const [field, value] of [['name', 'Store'], ['nickname', 'store'], ['type', 'public'], ['breakingChangePolicy', 'refuse'], ['allowRemovalAfterSunset', true]] as const) {
      it(`changes ${field} alone, growing the revision and recording api.updated`, () => {
        const api = anApi().build();
        expect(api.update({ [field]: value }, undefined, owner, NOW)).to.deep.equal({ ok: true, value: undefined });
        expect(api.toRecord()).to.include({ [field]: value, revision: 2 });
        expect(api.pullEvents().map((e) => e.name)).to.deep.equal(['api.updated']);
      });
    }

    it('names the rule of each field it refuses', () => {
      const api = anApi().build();
      expect(api.update({ type: 'secret' }, undefined, owner, NOW)).to.deep.equal({ ok: false, error: { kind: 'InvalidField', field: 'type', message: 'must be one of private, public' } });
      expect(api.update({ breakingChangePolicy: 'sometimes' }, undefined, owner, NOW)).to.deep.equal({
        ok: false,
        error: { kind: 'InvalidField', field: 'breakingChangePolicy', message: 'must be one of allow, requireMajor, refuse' },
      });
      expect(api.update({ allowRemovalAfterSunset: 'yes' }, undefined, owner, NOW)).to.deep.equal({ ok: false, error: { kind: 'InvalidField', field: 'allowRemovalAfterSunset', message: 'must be true or false' } });
      expect(api.update({ name: 7 }, undefined, owner, NOW)).to.deep.equal({ ok: false, error: { kind: 'InvalidField', field: 'name', message: 'must be 1-200 characters, not only spaces' } });
    });

    it('keeps the revision when nothing changes', () => {
      const api = anApi().atRevision(2).build();
      expect(api.update({ name: 'Pets', nickname: 'pets' }, undefined, owner, NOW).ok).to.equal(true);
      expect(api.revision).to.equal(2);
    });

    it('refuses a stale expected revision and changes nothing', () => {
      const api = anApi().atRevision(3).build();
      const result = api.update({ name: 'Other' }, 2, owner, NOW);
      expect(result).to.deep.equal({ ok: false, error: { kind: 'RevisionMismatch', expected: 2, actual: 3 } });
      expect(api.toRecord()).to.include({ name: 'Pets', revision: 3 });
    });

    it('refuses an invalid change without applying the valid ones', () => {
      const api = anApi().build();
      const result = api.update({ name: 'Fine', nickname: 'Not Fine' }, undefined, owner, NOW);
      expect(!result.ok && result.error.kind).to.equal('InvalidField');
      expect(api.toRecord()).to.include({ name: 'Pets', nickname: 'pets', revision: 1 });
    });

    it('records api.updated with the record as it is after a change, and nothing when nothing changed', () => {
      const api = anApi().build();
      api.update({ name: 'New', breakingChangePolicy: 'refuse' }, undefined, owner, NOW);
      const events = api.pullEvents();
      expect(events.map((e) => e.name)).to.deep.equal(['api.updated']);
      expect(events[0]!.resource).to.deep.equal(api.toRecord());
      expect(events[0]!.resource).to.include({ name: 'New', breakingChangePolicy: 'refuse', revision: 2 });
      api.update({ name: 'New' }, undefined, owner, NOW);
      expect(api.pullEvents()).to.deep.equal([]);
    });

    it('takes a breaking-change policy of allow, requireMajor or refuse, and nothing else', () => {
      const api = anApi().build();
      expect(api.toRecord().breakingChangePolicy).to.equal('allow');
      expect(api.update({ breakingChangePolicy: 'requireMajor' }, undefined, owner, NOW).ok).to.equal(true);
      const refused = api.update({ breakingChangePolicy: 'sometimes' }, undefined, owner, NOW);
      expect(!refused.ok && refused.error).to.deep.include({ kind: 'InvalidField', field: 'breakingChangePolicy' });
      expect(api.breakingChangePolicy).to.equal('requireMajor');
    });

    it('takes allowRemovalAfterSunset as true or false (default false), a change of it recorded like any other', () => {
      const api = anApi().build();
      expect(api.toRecord().allowRemovalAfterSunset).to.equal(false);
      expect(api.update({ allowRemovalAfterSunset: true }, undefined, owner, NOW).ok).to.equal(true);
      expect(api.toRecord()).to.include({ allowRemovalAfterSunset: true, revision: 2 });
      expect(api.pullEvents().map((e) => [e.name, e.resource['allowRemovalAfterSunset']])).to.deep.equal([['api.updated', true]]);
      api.update({ allowRemovalAfterSunset: true }, undefined, owner, NOW);
      expect(api.pullEvents(), 'the same value changes nothing').to.deep.equal([]);
      for (const value of ['true', 1, null]) {
        const refused = api.update({ allowRemovalAfterSunset: value }, undefined, owner, NOW);
        expect(!refused.ok && refused.error, String(value)).to.deep.include({ kind: 'InvalidField', field: 'allowRemovalAfterSunset' });
      }
      expect(api.allowRemovalAfterSunset).to.equal(true);
      expect(api.update({ allowRemovalAfterSunset: false }, undefined, owner, NOW).ok).to.equal(true);
      expect(api.toRecord()).to.include({ allowRemovalAfterSunset: false, revision: 3 });
    });

    it('remembers the stored revision for optimistic concurrency', () => {
      const api = anApi().atRevision(9).build();
      api.update({ name: 'New' }, undefined, owner, NOW);
      expect(api.storedRevision).to.equal(9);
    });
  });

  describe('replaceSpec', () => {
    const changes = { fromRevision: 1, breaking: false, counts: { breaking: 0, warning: 1, info: 2 } };
    const summary = { format: 'openapi-3.1', title: 'Pet Store', description: 'About', version: '2.0.0' } as const;
    const LATER = new Date('2026-11-22T12:00:00.000Z');

    it('records api.updated with the new record and what the spec changed', () => {
      const api = anApi().build();
      expect(api.replaceSpec(summary, 1, owner, changes, LATER)).to.deep.equal({ ok: true, value: undefined });
      expect(api.toRecord()).to.include({ name: 'Pet Store', description: 'About', version: '2.0.0', specFormat: 'openapi-3.1', revision: 2, updateDate: '2026-11-22T12:00:00.000+00:00' });
      expect(api.pullEvents()).to.deep.equal([
        { name: 'api.updated', occurredAt: LATER, accountId: 1, actor: owner, resourceType: 'Api', resource: { ...api.toRecord(), changes } },
      ]);
    });

    it('takes any expected revision but the current one as stale, and none as current', () => {
      const api = anApi().atRevision(5).build();
      expect(api.replaceSpec(summary, 6, owner, changes, LATER)).to.deep.equal({ ok: false, error: { kind: 'RevisionMismatch', expected: 6, actual: 5 } });
      expect(api.pullEvents()).to.deep.equal([]);
      expect(api.replaceSpec(summary, undefined, owner, changes, LATER).ok).to.equal(true);
      expect(api.replaceSpec(summary, 6, owner, changes, LATER).ok).to.equal(true);
      expect(api.revision).to.equal(7);
    });
  });

  it('makes its record once per state, frozen, and a new one after a change', () => {
    const api = anApi().build();
    const record = api.toRecord();
    expect(api.toRecord()).to.equal(record);
    expect(Object.isFrozen(record) && Object.isFrozen(record.user)).to.equal(true);
    api.update({ name: 'Other' }, undefined, owner, NOW);
    expect(api.toRecord()).to.not.equal(record);
    expect(record.name).to.equal('Pets');
  });

  it('names itself for a release event by id, account, nickname and name', () => {
    expect(anApi().build().asReleased()).to.deep.equal({ id: '00000000-0000-7000-8000-0000000000a1', accountId: 1, nickname: 'pets', name: 'Pets' });
  });

  it('delete records api.deleted by the acting user, who need not be the owner', () => {
    const api = anApi().build();
    api.delete({ id: userId(99), nickname: 'bob' }, NOW);
    const [event] = api.pullEvents();
    expect(event).to.include({ name: 'api.deleted', resourceType: 'Api' });
    expect(event!.actor).to.deep.equal({ id: 99, nickname: 'bob' });
    expect(event!.resource).to.include({ id: api.id });
  });
});
