import { expect } from 'chai';
import { NEXT, Release, RELEASE_STATUSES, isValidVersion, type ReleasedApi, type ReleaseStatus } from '../../../src/domain/release/release.aggregate.js';
import { accountId, userId, uuid } from '../../support/ids.js';

const NOW = new Date('2026-11-22T12:00:00.000Z');
const api: ReleasedApi = { id: uuid('api-1'), accountId: accountId(3), nickname: 'pets', name: 'Pets' };
const actor = { id: userId(7), nickname: 'ada' };

function aRelease(status: ReleaseStatus = 'released'): Release {
  return Release.rehydrate({ id: uuid('r-1'), apiId: uuid('api-1'), accountId: accountId(3), version: '1.0.0', status, releaseDate: NOW });
}

const ACTIONS = { deprecated: 'deprecate', endOfLife: 'endOfLife' } as const;

describe('Release aggregate', () => {
  it('releases a version and records release.released with the release record and its API', () => {
    const result = Release.release({ id: uuid('r-1'), api, version: '1.2.0', actor }, NOW);
    if (!result.ok) throw new Error('expected ok');
    expect(result.value.toRecord()).to.deep.equal({ id: 'r-1', version: '1.2.0', status: 'released', releaseDate: '2026-11-22T12:00:00.000+00:00', api: { id: 'api-1' } });
    const [event] = result.value.pullEvents();
    expect(event).to.deep.include({ name: 'release.released', accountId: 3, resourceType: 'Release', actor });
    expect(event!.resource).to.deep.equal({ ...result.value.toRecord(), api: { id: 'api-1', nickname: 'pets', name: 'Pets' } });
  });

  it('hands its events over once: a second pull returns none (each would be delivered again)', () => {
    const result = Release.release({ id: uuid('r-1'), api, version: '1.2.0', actor }, NOW);
    if (!result.ok) throw new Error('expected ok');
    const release = result.value;
    expect(release.pullEvents().map((e) => e.name)).to.deep.equal(['release.released']);
    expect(release.pullEvents()).to.deep.equal([]);
    release.deprecate(api, actor, NOW);
    release.endOfLife(api, actor, NOW);
    expect(release.pullEvents().map((e) => e.name)).to.deep.equal(['release.deprecated', 'release.endOfLife']);
    expect(release.pullEvents()).to.deep.equal([]);
  });

  it('carries what the release changed since the previous one in release.released, when known', () => {
    const changes = { since: '1.1.0', breaking: true, counts: { breaking: 1, warning: 0, info: 2 } };
    const result = Release.release({ id: uuid('r-1'), api, version: '1.2.0', actor, changes }, NOW);
    if (!result.ok) throw new Error('expected ok');
    const [event] = result.value.pullEvents();
    expect(event).to.deep.equal({
      name: 'release.released',
      occurredAt: NOW,
      accountId: 3,
      actor,
      resourceType: 'Release',
      resource: { ...result.value.toRecord(), api: { id: 'api-1', nickname: 'pets', name: 'Pets' }, changes },
    });
  });

  it('names the acting user as the event shows them, and nothing else of theirs', () => {
    const release = aRelease();
    release.deprecate(api, { ...actor, email: 'ada@example.com' } as typeof actor, NOW);
    expect(release.pullEvents()[0]!.actor).to.deep.equal({ id: 7, nickname: 'ada' });
  });

  it('shows its identity, version and status', () => {
    const release = aRelease('deprecated');
    expect([release.id, release.version, release.status]).to.deep.equal(['r-1', '1.0.0', 'deprecated']);
    expect(release.snapshot()).to.deep.equal({ id: 'r-1', apiId: 'api-1', accountId: 3, version: '1.0.0', status: 'deprecated', releaseDate: NOW });
  });

  describe('the state machine, every (from, to) pair from the table', () => {
    for (const from of RELEASE_STATUSES) {
      for (const to of ['deprecated', 'endOfLife'] as const) {
        const allowed = (NEXT[from] as readonly ReleaseStatus[]).includes(to);
        it(`${from} -> ${to}: ${allowed ? 'allowed' : 'refused'}`, () => {
          const release = aRelease(from);
          const result = release[ACTIONS[to]](api, actor, NOW);
          if (allowed) {
            expect(result.ok).to.equal(true);
            expect(release.status).to.equal(to);
            expect(release.pullEvents().map((e) => e.name)).to.deep.equal([to === 'deprecated' ? 'release.deprecated' : 'release.endOfLife']);
          } else {
            expect(result).to.deep.equal({ ok: false, error: { kind: 'InvalidTransition', from, to } });
            expect(release.status).to.equal(from);
            expect(release.pullEvents()).to.deep.equal([]);
          }
        });
      }
    }
    it('has no way back: nothing returns to released', () => {
      for (const from of RELEASE_STATUSES) expect(NEXT[from]).to.not.include('released');
    });
    for (const from of RELEASE_STATUSES) {
      it(`deletes from ${from}, recording release.deleted`, () => {
        const release = aRelease(from);
        release.delete(api, actor, NOW);
        const [event] = release.pullEvents();
        expect(event).to.deep.equal({
          name: 'release.deleted',
          occurredAt: NOW,
          accountId: 3,
          actor,
          resourceType: 'Release',
          resource: { id: 'r-1', version: '1.0.0', status: from, releaseDate: '2026-11-22T12:00:00.000+00:00', api: { id: 'api-1', nickname: 'pets', name: 'Pets' } },
        });
        expect(release.pullEvents()).to.deep.equal([]);
      });
    }
  });

  it('accepts version labels a URL can carry and refuses the rest', () => {
    for (const ok of ['1.0.0', 'v2', '2026-11', '1.0.0-beta.1+build.7', 'A'.repeat(64)]) expect(isValidVersion(ok), ok).to.equal(true);
    for (const bad of ['', ' 1.0', '1/0', '../1', '-1', '.1', 'x'.repeat(65), 'ver sion', 1]) expect(isValidVersion(bad), String(bad)).to.equal(false);
    expect(Release.release({ id: uuid('r'), api, version: 'a b', actor }, NOW)).to.deep.equal({ ok: false, error: { kind: 'InvalidVersion', version: 'a b' } });
  });
});
