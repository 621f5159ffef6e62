import type { AccountId } from '../account/account.js';
import type { Actor, DomainEvent } from '../events/domain-event.js';
import { err, ok, type Result } from '../shared/result.js';
import type { FieldError } from '../shared/field-error.js';
import { formatTimestamp } from '../shared/time.js';
import type { ChangeCounts } from '../spec/changes/change.js';
import { BREAKING_CHANGE_POLICIES, type BreakingChangePolicy } from '../spec/changes/policy.js';
import type { SpecFormat, SpecSummary } from '../spec/spec-document.js';
import type { Uuid } from '../shared/ids.js';

export type ApiId = Uuid<'Api'>;

export const API_TYPES = ['private', 'public'] as const;
export type ApiType = (typeof API_TYPES)[number];

const NICKNAME = /^[a-z0-9_.-]{1,64}$/;
const NAME_MAX_LENGTH = 200;

export interface ApiState {
  readonly id: ApiId;
  readonly accountId: AccountId;
  /** The user who created the API; shown as `user` in the API record. */
  readonly owner: Actor;
  readonly nickname: string;
  readonly name: string;
  readonly type: ApiType;
  /** Starts at 1 and grows by one on every change of the API or its spec. */
  readonly revision: number;
  readonly description: string | null;
  /** `info.version` of the spec, once there is one. */
  readonly version: string | null;
  /** The format of the current spec; null while the API has none. */
  readonly specFormat: SpecFormat | null;
  /** What a spec update with breaking changes meets (default `allow`). */
  readonly breakingChangePolicy: BreakingChangePolicy;
  /** Operations removed after their sunset (`afterSunset`) pass the policy whatever it is (default false). */
  readonly allowRemovalAfterSunset: boolean;
  readonly creationDate: Date;
  readonly updateDate: Date;
}

/** What a new spec changed against the one before it, as `api.updated` carries it. */
export interface SpecChangeSummary {
  readonly fromRevision: number | null;
  readonly breaking: boolean;
  readonly counts: ChangeCounts;
}

/** The API record of the contract, as the HTTP API and event payloads show it. */
export interface ApiRecord {
  readonly id: ApiId;
  readonly revision: number;
  readonly user: Actor;
  readonly nickname: string;
  readonly name: string;
  readonly type: ApiType;
  readonly description: string | null;
  readonly version: string | null;
  readonly specFormat: SpecFormat | null;
  readonly breakingChangePolicy: BreakingChangePolicy;
  readonly allowRemovalAfterSunset: boolean;
  readonly creationDate: string;
  readonly updateDate: string;
  readonly [key: string]: unknown;
}

/** Records already made, by state: the read caches hand out the same states again and again. */
const records = new WeakMap<ApiState, ApiRecord>();

export type ApiError =
  | ({ readonly kind: 'InvalidField' } & FieldError)
  | { readonly kind: 'RevisionMismatch'; readonly expected: number; readonly actual: number };

export interface ApiChanges {
  readonly name?: unknown;
  readonly nickname?: unknown;
  readonly type?: unknown;
  readonly breakingChangePolicy?: unknown;
  readonly allowRemovalAfterSunset?: unknown;
}

function invalid(field: string, message: string): Result<never, ApiError> {
  return err({ kind: 'InvalidField', field, message });
}

/**
 * A nickname made from a title when an import names none: lower case, runs of other characters
 * turned into "-", at most 64 characters ("Pet Store (v2)" -> "pet-store-v2").
 */
export function nicknameFromTitle(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '-')
    .replace(/^[-.]+/, '')
    .slice(0, 64)
    .replace(/-+$/, '');
  return slug === '' ? 'api' : slug;
}

/**
 * The API's name for a document's `info.title`: the title itself, cut to 200 characters (the last
 * one an ellipsis) when longer, or `fallback` when it is empty or only spaces. OpenAPI allows any
 * string as a title, and a valid description is never refused for its title.
 */
export function nameFromTitle(title: string, fallback: string): string {
  if (title.trim().length === 0) return fallback;
  if (title.length <= NAME_MAX_LENGTH) return title;
  const cut = title.slice(0, NAME_MAX_LENGTH - 1);
  // Never half of a surrogate pair.
  return `${/[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut}…`;
}

export function checkNickname(value: unknown): Result<string, ApiError> {
  if (typeof value !== 'string' || !NICKNAME.test(value) || /^\.+$/.test(value)) {
    return invalid('nickname', 'must be 1-64 of a-z, 0-9, "-", "_", "." and not only dots');
  }
  return ok(value);
}

function checkName(value: unknown): Result<string, ApiError> {
  if (typeof value !== 'string' || value.trim().length === 0 || value.length > NAME_MAX_LENGTH) {
    return invalid('name', `must be 1-${NAME_MAX_LENGTH} characters, not only spaces`);
  }
  return ok(value);
}

function checkPolicy(value: unknown): Result<BreakingChangePolicy, ApiError> {
  if (typeof value !== 'string' || !(BREAKING_CHANGE_POLICIES as readonly string[]).includes(value)) {
    return invalid('breakingChangePolicy', `must be one of ${BREAKING_CHANGE_POLICIES.join(', ')}`);
  }
  return ok(value as BreakingChangePolicy);
}

function checkFlag(field: string, value: unknown): Result<boolean, ApiError> {
  return typeof value === 'boolean' ? ok(value) : invalid(field, 'must be true or false');
}

function checkType(value: unknown): Result<ApiType, ApiError> {
  if (typeof value !== 'string' || !(API_TYPES as readonly string[]).includes(value)) {
    return invalid('type', `must be one of ${API_TYPES.join(', ')}`);
  }
  return ok(value as ApiType);
}

export class Api {
  private events: DomainEvent[] = [];

  /** The revision storage holds, for optimistic concurrency; undefined until first stored. */
  readonly storedRevision: number | undefined;

  private constructor(
    private state: ApiState,
    storedRevision: number | undefined,
  ) {
    this.storedRevision = storedRevision;
  }

  /**
   * A new, empty API of `accountId`, created by `owner`. Records `api.created`.
   * Errors: `InvalidField` for `name`, `nickname` or `type` (default `private`).
   */
  static create(
    input: {
      readonly id: ApiId;
      readonly accountId: AccountId;
      readonly owner: Actor;
      readonly name: unknown;
      readonly nickname: unknown;
      readonly type?: unknown;
      readonly description?: string | null;
      readonly version?: string | null;
      readonly specFormat?: SpecFormat | null;
    },
    now: Date,
  ): Result<Api, ApiError> {
    const name = checkName(input.name);
    if (!name.ok) return name;
    const nickname = checkNickname(input.nickname);
    if (!nickname.ok) return nickname;
    const type = input.type === undefined ? ok<ApiType>('private') : checkType(input.type);
    if (!type.ok) return type;
    const api = new Api(
      {
        id: input.id,
        accountId: input.accountId,
        owner: input.owner,
        nickname: nickname.value,
        name: name.value,
        type: type.value,
        revision: 1,
        description: input.description ?? null,
        version: input.version ?? null,
        specFormat: input.specFormat ?? null,
        breakingChangePolicy: 'allow',
        allowRemovalAfterSunset: false,
        creationDate: now,
        updateDate: now,
      },
      undefined,
    );
    api.record('api.created', input.owner, now);
    return ok(api);
  }

  static rehydrate(state: ApiState): Api {
    return new Api(state, state.revision);
  }

  get id(): ApiId {
    return this.state.id;
  }
  get accountId(): AccountId {
    return this.state.accountId;
  }
  get nickname(): string {
    return this.state.nickname;
  }
  get revision(): number {
    return this.state.revision;
  }
  get breakingChangePolicy(): BreakingChangePolicy {
    return this.state.breakingChangePolicy;
  }
  get allowRemovalAfterSunset(): boolean {
    return this.state.allowRemovalAfterSunset;
  }

  /**
   * Changes name, nickname, type, breaking-change policy and/or `allowRemovalAfterSunset`. `expectedRevision` (from
   * `If-Match`) must equal the current revision when given. The revision grows by one, and
   * `api.updated` is recorded, when anything actually changed.
   * Errors: `RevisionMismatch`, `InvalidField`.
   */
  update(changes: ApiChanges, expectedRevision: number | undefined, actor: Actor, now: Date): Result<void, ApiError> {
    if (expectedRevision !== undefined && expectedRevision !== this.state.revision) {
      return err({ kind: 'RevisionMismatch', expected: expectedRevision, actual: this.state.revision });
    }
    let next = this.state;
    if (changes.name !== undefined) {
      const name = checkName(changes.name);
      if (!name.ok) return name;
      next = { ...next, name: name.value };
    }
    if (changes.nickname !== undefined) {
      const nickname = checkNickname(changes.nickname);
      if (!nickname.ok) return nickname;
      next = { ...next, nickname: nickname.value };
    }
    if (changes.type !== undefined) {
      const type = checkType(changes.type);
      if (!type.ok) return type;
      next = { ...next, type: type.value };
    }
    if (changes.breakingChangePolicy !== undefined) {
      const policy = checkPolicy(changes.breakingChangePolicy);
      if (!policy.ok) return policy;
      next = { ...next, breakingChangePolicy: policy.value };
    }
    if (changes.allowRemovalAfterSunset !== undefined) {
      const flag = checkFlag('allowRemovalAfterSunset', changes.allowRemovalAfterSunset);
      if (!flag.ok) return flag;
      next = { ...next, allowRemovalAfterSunset: flag.value };
    }
    const s = this.state;
    const changed =
      next.name !== s.name ||
      next.nickname !== s.nickname ||
      next.type !== s.type ||
      next.breakingChangePolicy !== s.breakingChangePolicy ||
      next.allowRemovalAfterSunset !== s.allowRemovalAfterSunset;
    if (changed) {
      this.state = { ...next, revision: s.revision + 1, updateDate: now };
      this.record('api.updated', actor, now);
    }
    return ok();
  }

  /**
   * Takes format, name, description and version from a new spec (the name is `info.title`, see
   * nameFromTitle; a blank title keeps the current name; the format may differ from the last
   * spec's). The revision grows by one and `api.updated` is recorded with what the spec changed
   * (`changes`). Errors: `RevisionMismatch` for a stale `expectedRevision`.
   */
  replaceSpec(summary: SpecSummary, expectedRevision: number | undefined, actor: Actor, changes: SpecChangeSummary, now: Date): Result<void, ApiError> {
    if (expectedRevision !== undefined && expectedRevision !== this.state.revision) {
      return err({ kind: 'RevisionMismatch', expected: expectedRevision, actual: this.state.revision });
    }
    this.state = {
      ...this.state,
      name: nameFromTitle(summary.title, this.state.name),
      description: summary.description,
      version: summary.version,
      specFormat: summary.format,
      revision: this.state.revision + 1,
      updateDate: now,
    };
    this.record('api.updated', actor, now, { changes });
    return ok();
  }

  /** The API as a release's event names it. */
  asReleased(): { readonly id: ApiId; readonly accountId: AccountId; readonly nickname: string; readonly name: string } {
    return { id: this.state.id, accountId: this.state.accountId, nickname: this.state.nickname, name: this.state.name };
  }

  /** Records `api.deleted` (by `actor`, who may not be the owner); storage removes the rows. */
  delete(actor: Actor, now: Date): void {
    this.record('api.deleted', actor, now);
  }

  /** Hands the recorded events to the unit of work, once. */
  pullEvents(): DomainEvent[] {
    const events = this.events;
    this.events = [];
    return events;
  }

  snapshot(): ApiState {
    return this.state;
  }

  /** The API as answers and events show it; made once per state (states are replaced, never changed), frozen. */
  toRecord(): ApiRecord {
    const s = this.state;
    let record = records.get(s);
    if (record === undefined) {
      record = Object.freeze({
        id: s.id,
        revision: s.revision,
        user: Object.freeze({ id: s.owner.id, nickname: s.owner.nickname }),
        nickname: s.nickname,
        name: s.name,
        type: s.type,
        description: s.description,
        version: s.version,
        specFormat: s.specFormat,
        breakingChangePolicy: s.breakingChangePolicy,
        allowRemovalAfterSunset: s.allowRemovalAfterSunset,
        creationDate: formatTimestamp(s.creationDate),
        updateDate: formatTimestamp(s.updateDate),
      });
      records.set(s, record);
    }
    return record;
  }

  private record(name: 'api.created' | 'api.updated' | 'api.deleted', actor: Actor, now: Date, extra: Readonly<Record<string, unknown>> = {}): void {
    this.events.push({
      name,
      occurredAt: now,
      accountId: this.state.accountId,
      actor: { id: actor.id, nickname: actor.nickname },
      resourceType: 'Api',
      resource: Object.keys(extra).length === 0 ? this.toRecord() : { ...this.toRecord(), ...extra },
    });
  }
}
