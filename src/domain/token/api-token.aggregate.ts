import type { UserId } from '../account/account.js';
import { err, ok, type Result } from '../shared/result.js';
import type { FieldError } from '../shared/field-error.js';
import { isScope, type Scope } from './scope.js';
import { formatTimestamp } from '../shared/time.js';
import type { Uuid } from '../shared/ids.js';

export type ApiTokenId = Uuid<'ApiToken'>;

/** `sbt_` followed by 43 base64url characters (256 random bits). */
const TOKEN_FORMAT = /^sbt_[A-Za-z0-9_-]{43}$/;
export const API_TOKEN_PREFIX = 'sbt_';

/** A cheap syntactic check, done before any storage lookup. */
export function isWellFormedApiToken(value: string): boolean {
  return TOKEN_FORMAT.test(value);
}

export interface ApiTokenState {
  readonly id: ApiTokenId;
  readonly userId: UserId;
  readonly name: string;
  readonly scopes: readonly Scope[];
  /** Hash of the secret token; the token itself is never stored. */
  readonly tokenHash: string;
  readonly creationDate: Date;
  readonly lastUseDate: Date | null;
}

export type ApiTokenError = { readonly kind: 'InvalidField' } & FieldError;

/** How stale `lastUseDate` may get before a use is written back: one write a minute at most. */
export const LAST_USE_RESOLUTION_MS = 60_000;

export class ApiToken {
  private constructor(private readonly state: ApiTokenState) {}

  /**
   * A new token. Errors: `InvalidField` for `name` (1-100 characters) or `scopes` (non-empty,
   * every one from the scope table). Duplicate scopes are collapsed.
   */
  static create(
    input: {
      readonly id: ApiTokenId;
      readonly userId: UserId;
      readonly name: unknown;
      readonly scopes: unknown;
      readonly tokenHash: string;
    },
    now: Date,
  ): Result<ApiToken, ApiTokenError> {
    const { name, scopes } = input;
    if (typeof name !== 'string' || name.trim().length === 0 || name.length > 100) {
      return err({ kind: 'InvalidField', field: 'name', message: 'must be 1-100 characters' });
    }
    if (!Array.isArray(scopes) || scopes.length === 0) {
      return err({ kind: 'InvalidField', field: 'scopes', message: 'must be a non-empty list of scopes' });
    }
    for (const scope of scopes) {
      if (!isScope(scope)) {
        return err({ kind: 'InvalidField', field: 'scopes', message: `unknown scope: ${String(scope)}` });
      }
    }
    const unique = [...new Set(scopes as Scope[])];
    return ok(
      new ApiToken({
        id: input.id,
        userId: input.userId,
        name: name.trim(),
        scopes: unique,
        tokenHash: input.tokenHash,
        creationDate: now,
        lastUseDate: null,
      }),
    );
  }

  static rehydrate(state: ApiTokenState): ApiToken {
    return new ApiToken(state);
  }

  get id(): ApiTokenId {
    return this.state.id;
  }
  get userId(): UserId {
    return this.state.userId;
  }
  get name(): string {
    return this.state.name;
  }
  get scopes(): readonly Scope[] {
    return this.state.scopes;
  }
  get tokenHash(): string {
    return this.state.tokenHash;
  }
  get creationDate(): Date {
    return this.state.creationDate;
  }
  get lastUseDate(): Date | null {
    return this.state.lastUseDate;
  }

  /** Whether a use at `now` should be written back (throttled to keep reads cheap). */
  useIsWorthRecording(now: Date): boolean {
    const last = this.state.lastUseDate;
    return last === null || now.getTime() - last.getTime() >= LAST_USE_RESOLUTION_MS;
  }

  snapshot(): ApiTokenState {
    return this.state;
  }

  /** What a token list shows: never the token, which is not stored. */
  toRecord(): { readonly id: ApiTokenId; readonly name: string; readonly scopes: readonly Scope[]; readonly creationDate: string; readonly lastUseDate: string | null } {
    const s = this.state;
    return { id: s.id, name: s.name, scopes: s.scopes, creationDate: formatTimestamp(s.creationDate), lastUseDate: s.lastUseDate && formatTimestamp(s.lastUseDate) };
  }
}
