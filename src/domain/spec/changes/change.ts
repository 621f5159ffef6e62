import type { ChangeLevel, RuleId } from './rules.js';

/**
 * Where a change is: an operation (narrowed to a parameter, property, status...), a callback of an
 * operation or a webhook (narrowed the same way), a model, a security scheme or a server.
 */
export interface ChangeLocation {
  /** The operation's; a webhook's own (its `path` is absent). */
  readonly method?: string;
  readonly path?: string;
  /** An OpenAPI 3.1 webhook's name (its key under `webhooks`): what follows is in the request the API sends, or the answer to it. */
  readonly webhook?: string;
  /**
   * A callback of the operation, `<name> <METHOD> <expression>` (its key under `callbacks`, the
   * method of its request and the runtime expression of its URL): what follows is in the request
   * the API sends there, or the answer to it.
   */
  readonly callback?: string;
  /** `<in> <name>`, e.g. `query limit`. */
  readonly parameter?: string;
  /** `requestBody`, or the response status (of a webhook or callback: of the consumer's answer). */
  readonly status?: string;
  readonly mediaType?: string;
  /** A response header's name. */
  readonly header?: string;
  /** Dotted, with `[]` for an array's items and `{}` for a map's values: `owner.tags[].name`. */
  readonly property?: string;
  readonly model?: string;
  readonly securityScheme?: string;
  readonly server?: string;
}

export interface Change {
  readonly rule: RuleId;
  /**
   * The id of the rule of oasdiff's catalog that means the same change at the same place, for teams
   * that come from oasdiff; absent where oasdiff has none, splits the change by what the item does
   * not say, or rates it non-breaking where we do not (src/domain/spec/changes/oasdiff-ids.ts).
   */
  readonly oasdiffId?: string;
  readonly level: ChangeLevel;
  readonly location: ChangeLocation;
  /** JSON pointer into the newer document, or into the older one for what was removed. */
  readonly pointer: string;
  /** One sentence. */
  readonly message: string;
  /**
   * Where else the same change is reached (a schema that several operations use), at most
   * `MAX_OTHER_PLACES`; absent when nowhere else. The change is reported once, at its first place.
   */
  readonly alsoAt?: readonly ChangeLocation[];
  /**
   * `endpoint-removed` only: the operation was deprecated and its `x-sunset` day had come when it
   * was removed. Still breaking (a client still calling it fails); an API may let exactly these
   * through its breaking-change policy (`allowRemovalAfterSunset`).
   */
  readonly afterSunset?: true;
}

export interface ChangeCounts {
  readonly breaking: number;
  readonly warning: number;
  readonly info: number;
}

export function countChanges(changes: readonly Change[]): ChangeCounts {
  const counts = { breaking: 0, warning: 0, info: 0 };
  for (const change of changes) counts[change.level] += 1;
  return counts;
}
