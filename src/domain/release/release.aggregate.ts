import type { AccountId } from '../account/account.js';
import type { ApiId } from '../api/api.aggregate.js';
import type { Actor, DomainEvent, EventName } from '../events/domain-event.js';
import { err, ok, type Result } from '../shared/result.js';
import { formatTimestamp } from '../shared/time.js';
import type { ChangeCounts } from '../spec/changes/change.js';
import type { Uuid } from '../shared/ids.js';

export type ReleaseId = Uuid<'Release'>;
export type ReleaseStatus = 'released' | 'deprecated' | 'endOfLife';

/** The state machine: where each state may go. Nothing goes back; deletion is allowed from any state. */
export const NEXT = {
  released: ['deprecated', 'endOfLife'],
  deprecated: ['endOfLife'],
  endOfLife: [],
} as const satisfies Record<ReleaseStatus, readonly ReleaseStatus[]>;

export const RELEASE_STATUSES = Object.keys(NEXT) as ReleaseStatus[];

const EVENT_OF: Record<ReleaseStatus, EventName> = {
  released: 'release.released',
  deprecated: 'release.deprecated',
  endOfLife: 'release.endOfLife',
};

/** A version label: what follows `/releases/` in a URL, e.g. `1.2.0`, `2026-11`, `v3-beta.1+build.7`. */
const VERSION = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/;

export function isValidVersion(version: unknown): version is string {
  return typeof version === 'string' && VERSION.test(version);
}

/** The API a release belongs to, as the event payload names it. */
export interface ReleasedApi {
  readonly id: ApiId;
  readonly accountId: AccountId;
  readonly nickname: string;
  readonly name: string;
}

export interface ReleaseState {
  readonly id: ReleaseId;
  readonly apiId: ApiId;
  readonly accountId: AccountId;
  readonly version: string;
  readonly status: ReleaseStatus;
  readonly releaseDate: Date;
}

/** The release record of the contract. */
export interface ReleaseRecord {
  readonly id: ReleaseId;
  readonly version: string;
  readonly status: ReleaseStatus;
  readonly releaseDate: string;
  readonly api: { readonly id: ApiId };
  readonly [key: string]: unknown;
}

/** What a release changed since the previous one, as `release.released` carries it. */
export interface ReleaseChangeSummary {
  readonly since: string | null;
  readonly breaking: boolean;
  readonly counts: ChangeCounts;
}

export interface InvalidTransition {
  readonly kind: 'InvalidTransition';
  readonly from: ReleaseStatus;
  readonly to: ReleaseStatus;
}

export type ReleaseError = { readonly kind: 'InvalidVersion'; readonly version: string } | InvalidTransition;

export class Release {
  private events: DomainEvent[] = [];

  private constructor(private state: ReleaseState) {}

  /**
   * Releases the API's current spec as `version`. Records `release.released`, carrying `changes`
   * (what the spec changed since the previous release) when given.
   * Errors: `InvalidVersion`. Uniqueness among the API's releases is the repository's to enforce.
   */
  static release(
    input: { readonly id: ReleaseId; readonly api: ReleasedApi; readonly version: unknown; readonly actor: Actor; readonly changes?: ReleaseChangeSummary },
    now: Date,
  ): Result<Release, ReleaseError> {
    if (!isValidVersion(input.version)) return err({ kind: 'InvalidVersion', version: String(input.version) });
    const release = new Release({
      id: input.id,
      apiId: input.api.id,
      accountId: input.api.accountId,
      version: input.version,
      status: 'released',
      releaseDate: now,
    });
    release.record('release.released', input.api, input.actor, now, input.changes === undefined ? {} : { changes: input.changes });
    return ok(release);
  }

  static rehydrate(state: ReleaseState): Release {
    return new Release(state);
  }

  get id(): ReleaseId {
    return this.state.id;
  }
  get version(): string {
    return this.state.version;
  }
  get status(): ReleaseStatus {
    return this.state.status;
  }

  /** released -> deprecated. Errors: `InvalidTransition` from any other state. */
  deprecate(api: ReleasedApi, actor: Actor, now: Date): Result<void, InvalidTransition> {
    return this.moveTo('deprecated', api, actor, now);
  }

  /** released or deprecated -> endOfLife. Errors: `InvalidTransition` from endOfLife. */
  endOfLife(api: ReleasedApi, actor: Actor, now: Date): Result<void, InvalidTransition> {
    return this.moveTo('endOfLife', api, actor, now);
  }

  /** Any state may be deleted; records `release.deleted`. Storage removes the row (the label is free again). */
  delete(api: ReleasedApi, actor: Actor, now: Date): void {
    this.record('release.deleted', api, actor, now);
  }

  /** The one guard every transition passes through. */
  private moveTo(to: ReleaseStatus, api: ReleasedApi, actor: Actor, now: Date): Result<void, InvalidTransition> {
    const from = this.state.status;
    if (!(NEXT[from] as readonly ReleaseStatus[]).includes(to)) return err({ kind: 'InvalidTransition', from, to });
    this.state = { ...this.state, status: to };
    this.record(EVENT_OF[to], api, actor, now);
    return ok();
  }

  pullEvents(): DomainEvent[] {
    const events = this.events;
    this.events = [];
    return events;
  }

  snapshot(): ReleaseState {
    return this.state;
  }

  toRecord(): ReleaseRecord {
    const s = this.state;
    return { id: s.id, version: s.version, status: s.status, releaseDate: formatTimestamp(s.releaseDate), api: { id: s.apiId } };
  }

  private record(name: EventName, api: ReleasedApi, actor: Actor, now: Date, extra: Readonly<Record<string, unknown>> = {}): void {
    this.events.push({
      name,
      occurredAt: now,
      accountId: this.state.accountId,
      actor: { id: actor.id, nickname: actor.nickname },
      resourceType: 'Release',
      resource: { ...this.toRecord(), api: { id: api.id, nickname: api.nickname, name: api.name }, ...extra },
    });
  }
}
