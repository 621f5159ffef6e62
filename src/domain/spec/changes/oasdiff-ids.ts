import type { Change, ChangeLocation } from './change.js';
import { FIXED_RULES, type RuleId } from './rules.js';

/**
 * The id of oasdiff's catalog (`oasdiff checks changelog`, checker/rules.go) that means what a
 * rule of ours means, so that a team moving from oasdiff keeps its vocabulary (issue 42). An
 * equivalence by meaning, never by name alone: the same place (a parameter, a request body or a
 * property of one, a response body or a property of one, a response header), the same change, the
 * same direction. Where oasdiff splits one of our rules in several (maxLength, maxItems and maximum
 * are one `max-decreased` here), the item's detail chooses, or no id is given; where oasdiff rates
 * a change of ours as non-breaking that we rate breaking, no id is given either, so that an oasdiff
 * id never promises a softer verdict than ours. The tables go by pattern (scope, kind), so a rule
 * added to the catalog gets its id, or none, without a line here.
 */

/** What of an item, besides its rule, decides its oasdiff id. */
export interface OasdiffContext {
  readonly location?: ChangeLocation | undefined;
  /** A schema difference's detail: `maxLength 10 to 5`, `none to ^[a-z]+$`, `number to integer`. */
  readonly detail?: string | undefined;
}

/**
 * The ids we give, oasdiff's, as of its checker/rules.go at commit 001f320 (plus
 * `request-parameter-style-changed`, added to oasdiff later). A composed name that is not here is
 * not an oasdiff id: nothing is given.
 */
const OASDIFF_IDS: ReadonlySet<string> = new Set([
  'endpoint-added', 'endpoint-deprecated', 'endpoint-reactivated', 'api-operation-id-removed', 'api-operation-id-added', 'api-tag-added', 'api-tag-removed',
  'new-optional-request-parameter', 'new-required-request-parameter', 'request-parameter-removed',
  'request-parameter-became-required', 'request-parameter-became-optional', 'request-parameter-deprecated', 'request-parameter-style-changed',
  'request-body-added-optional', 'request-body-added-required', 'request-body-removed', 'request-body-became-required', 'request-body-became-optional',
  'request-body-media-type-added', 'request-body-media-type-removed',
  'response-success-status-added', 'response-non-success-status-added', 'response-success-status-removed',
  'response-media-type-added', 'response-media-type-removed', 'response-media-type-name-generalized', 'response-media-type-name-specialized',
  'response-header-added', 'optional-response-header-removed', 'required-response-header-removed', 'response-header-became-optional',
  'api-security-scope-added', 'api-security-component-added', 'api-security-component-removed',
  'api-security-component-oauth-scope-added', 'api-security-component-oauth-scope-removed', 'api-schema-removed', 'webhook-added', 'webhook-removed',
  ...forEach(['request-parameter', 'request-parameter-property', 'request-body', 'request-property', 'response-body', 'response-property', 'response-header'], ['type-changed', 'type-generalized', 'became-nullable', 'became-not-nullable']),
  ...forEach(['request-parameter-property', 'response-body', 'response-property', 'response-header'], ['type-specialized']),
  ...forEach(['request-parameter', 'request-parameter-property', 'request-body', 'request-property', 'response-body', 'response-property'], ['list-of-types-widened', 'list-of-types-narrowed']),
  ...forEach(['request-parameter', 'request-parameter-property', 'request-property', 'response-property'], ['enum-value-added']),
  ...forEach(['request-parameter', 'request-parameter-property', 'request-body', 'request-property', 'response-property'], ['enum-value-removed']),
  'response-mediatype-enum-value-removed',
  ...forEach(['request-parameter', 'request-body', 'request-property', 'request-header-property'], ['became-enum']),
  ...forEach(['request-parameter', 'request-body', 'request-property'], [
    'max-decreased', 'max-increased', 'max-set', 'exclusive-max-decreased', 'exclusive-max-increased', 'exclusive-max-set', 'max-length-decreased', 'max-length-increased', 'max-length-set',
    'max-items-decreased', 'max-items-increased', 'min-increased', 'min-decreased', 'min-set', 'exclusive-min-increased', 'exclusive-min-decreased', 'exclusive-min-set',
    'min-length-increased', 'min-length-decreased', 'min-items-increased', 'min-items-set',
  ]),
  'request-parameter-min-items-decreased',
  ...forEach(['request-body', 'request-property'], ['max-items-set', 'max-properties-decreased', 'max-properties-increased', 'max-properties-set', 'min-properties-increased']),
  ...forEach(['response-body', 'response-property'], [
    'max-increased', 'exclusive-max-increased', 'max-length-increased', 'max-length-unset', 'max-items-increased', 'max-properties-increased',
    'min-decreased', 'exclusive-min-decreased', 'min-length-decreased', 'min-items-decreased', 'min-items-unset', 'min-properties-decreased',
  ]),
  ...forEach(['request-parameter', 'request-property', 'response-property'], ['pattern-added', 'pattern-removed', 'pattern-changed']),
  ...forEach(['request-body', 'request-property'], ['multiple-of-set', 'multiple-of-generalized', 'unique-items-set']),
  ...forEach(['request-body', 'request-property', 'response-body', 'response-property'], ['multiple-of-unset', 'multiple-of-changed', 'unique-items-unset']),
  ...forEach(['response-body', 'response-property'], ['multiple-of-specialized']),
  ...forEach(['request-parameter', 'request-body', 'request-property', 'response-body', 'response-property'], ['default-value-added', 'default-value-changed', 'default-value-removed']),
  ...forEach(['request-body', 'request-property', 'response-body', 'response-property'], [
    'const-added', 'const-removed', 'const-changed', 'discriminator-added', 'discriminator-removed', 'content-media-type-changed', 'content-encoding-changed',
    'dependent-required-added', 'dependent-required-removed', 'pattern-property-added', 'pattern-property-removed', 'contains-added', 'contains-removed',
  ]),
  // oasdiff rates every discriminator change info; we rate breaking a changed property or mapping,
  // a mapping added to a response, one taken from a request: those we leave without an id.
  ...forEach(['request-body', 'request-property'], ['discriminator-mapping-added']),
  ...forEach(['response-body', 'response-property'], ['discriminator-mapping-deleted']),
  ...forEach(['request-parameter', 'request-property'], ['x-extensible-enum-value-removed']),
  'new-optional-request-property', 'new-required-request-property', 'new-required-request-header-property', 'request-property-removed',
  'request-property-became-required', 'request-header-property-became-required', 'request-property-became-optional', 'request-property-deprecated',
  'response-optional-property-added', 'response-required-property-added', 'response-property-became-required', 'response-property-became-optional', 'response-property-deprecated',
]);

function forEach(places: readonly string[], changes: readonly string[]): string[] {
  return places.flatMap((place) => changes.map((change) => `${place}-${change}`));
}

/** Where oasdiff names a schema change: the first word of its ids. */
type Place =
  | 'request-parameter'
  | 'request-parameter-property'
  | 'request-header-property'
  | 'request-body'
  | 'request-property'
  | 'response-body'
  | 'response-property'
  | 'response-header';

/** oasdiff ids that do not read `<place>-<change>`, by the name they would have. */
const RENAMED: Readonly<Record<string, string>> = {
  'request-property-added': 'new-optional-request-property',
  'request-property-required-added': 'new-required-request-property',
  'request-header-property-required-added': 'new-required-request-header-property',
  'response-property-added': 'response-optional-property-added',
  'response-property-required-added': 'response-required-property-added',
  'response-body-enum-value-removed': 'response-mediatype-enum-value-removed',
};

/** One of our fixed rules: its oasdiff id, or the ids the item's location chooses among. */
type FixedId = string | { readonly ids: readonly string[]; readonly pick: (location: ChangeLocation) => string | undefined };

/** oasdiff counts a status a success only when it is a number from 200 to 299; `default` and `2XX` it does not compare at all. */
const statusCode = (location: ChangeLocation): number | undefined => (/^\d{3}$/.test(location.status ?? '') ? Number(location.status) : undefined);
const isSuccess = (code: number) => code >= 200 && code <= 299;

/**
 * Our fixed rules with an equivalent. Left out, and why:
 * - `endpoint-removed`: oasdiff's ids for a removed operation all say more than ours: whether it
 *   was deprecated first, whether its sunset had come, whether its whole path went.
 * - `response-status-removed` and `security-scheme-type-changed`: the same change, but oasdiff
 *   rates it non-breaking (info); we rate it breaking.
 * - `security-requirement-added`, `security-requirement-removed`: ours say whether a way of
 *   calling stopped (or started) working, oasdiff's which entry of the `security` list was added or
 *   removed; the two do not match one to one.
 * - `security-scheme-url-changed`: oasdiff has ids for the authorization and the token URL only,
 *   ours covers the refresh and OpenID Connect URLs too, and does not say which changed.
 * - `endpoint-sunset-changed`, `endpoint-sunset-removed`: oasdiff judges sunset dates against its
 *   deprecation policy (too soon, deleted while deprecated), not as changes of their own.
 * - descriptions, servers, models added, security scheme keys and flows, response headers made
 *   required, request media types generalized or narrowed, callbacks: oasdiff has no id.
 */
const FIXED_IDS: Readonly<Record<string, FixedId>> = {
  'endpoint-added': 'endpoint-added',
  'endpoint-deprecated': 'endpoint-deprecated',
  'endpoint-reactivated': 'endpoint-reactivated',
  // oasdiff reports an operationId changed or removed as removed (and replaced).
  'endpoint-operation-id-changed': 'api-operation-id-removed',
  'endpoint-operation-id-added': 'api-operation-id-added',
  'endpoint-tag-added': 'api-tag-added',
  'endpoint-tag-removed': 'api-tag-removed',
  'request-parameter-added': 'new-optional-request-parameter',
  // A path parameter added makes another path, so another operation: never this rule.
  'request-parameter-required-added': 'new-required-request-parameter',
  'request-parameter-removed': 'request-parameter-removed',
  'request-parameter-became-required': 'request-parameter-became-required',
  'request-parameter-became-optional': 'request-parameter-became-optional',
  'request-parameter-deprecated': 'request-parameter-deprecated',
  'request-parameter-style-changed': 'request-parameter-style-changed',
  'request-body-added': 'request-body-added-optional',
  'request-body-required-added': 'request-body-added-required',
  'request-body-removed': 'request-body-removed',
  'request-body-became-required': 'request-body-became-required',
  'request-body-became-optional': 'request-body-became-optional',
  'request-media-type-added': 'request-body-media-type-added',
  'request-media-type-removed': 'request-body-media-type-removed',
  'response-status-added': {
    ids: ['response-success-status-added', 'response-non-success-status-added'],
    pick: (location) => {
      const code = statusCode(location);
      return code === undefined ? undefined : isSuccess(code) ? 'response-success-status-added' : 'response-non-success-status-added';
    },
  },
  // Ours counts `2XX` among the successes; oasdiff does not compare it.
  'response-success-status-removed': { ids: ['response-success-status-removed'], pick: (location) => (statusCode(location) === undefined ? undefined : 'response-success-status-removed') },
  'response-media-type-added': 'response-media-type-added',
  'response-media-type-removed': 'response-media-type-removed',
  'response-media-type-generalized': 'response-media-type-name-generalized',
  'response-media-type-narrowed': 'response-media-type-name-specialized',
  'response-header-added': 'response-header-added',
  'response-header-removed': 'optional-response-header-removed',
  'response-required-header-removed': 'required-response-header-removed',
  'response-header-became-optional': 'response-header-became-optional',
  'security-scope-added': 'api-security-scope-added',
  'security-scheme-added': 'api-security-component-added',
  'security-scheme-removed': 'api-security-component-removed',
  'security-scheme-scope-added': 'api-security-component-oauth-scope-added',
  'security-scheme-scope-removed': 'api-security-component-oauth-scope-removed',
  'model-removed': 'api-schema-removed',
  'webhook-added': 'webhook-added',
  'webhook-removed': 'webhook-removed',
};

/** A change of ours, in oasdiff's words: every change it may be (`all`), and the one an item's detail says. */
interface Kind {
  readonly all: readonly string[];
  readonly pick?: (detail: string, direction: 'request' | 'response') => string | undefined;
}
const one = (change: string): Kind => ({ all: [change] });

/** The two sides of a detail `A to B`; undefined when it is not of that form. */
function sides(detail: string): readonly [string, string] | undefined {
  const at = detail.indexOf(' to ');
  return at === -1 ? undefined : [detail.slice(0, at), detail.slice(at + ' to '.length)];
}

/** oasdiff's stem of a keyword in its ids (`request-property-max-length-decreased`). */
const LIMIT_STEMS: Readonly<Record<string, string>> = {
  maxLength: 'max-length',
  maxItems: 'max-items',
  maxProperties: 'max-properties',
  minLength: 'min-length',
  minItems: 'min-items',
  minProperties: 'min-properties',
};
const BOUND_STEMS: Readonly<Record<string, string>> = { maximum: 'max', 'exclusive maximum': 'exclusive-max', minimum: 'min', 'exclusive minimum': 'exclusive-min' };

/**
 * The stem on each side of a bound's detail, undefined for a side where none is set:
 * `maxLength 10 to 5`, `minItems 0 to 2` (no minLength, minItems or minProperties is 0, here as in
 * oasdiff), `none to maximum 5`, `maximum 10 to exclusive maximum 10`.
 */
function boundStems(detail: string): readonly [string | undefined, string | undefined] | undefined {
  const limit = /^(max|min)(Length|Items|Properties) (\S+) to (\S+)$/.exec(detail);
  if (limit) {
    const stem = LIMIT_STEMS[`${limit[1]}${limit[2]}`];
    const set = (value: string) => value !== 'none' && !(limit[1] === 'min' && value === '0');
    return [set(limit[3]!) ? stem : undefined, set(limit[4]!) ? stem : undefined];
  }
  const both = sides(detail);
  if (both === undefined) return undefined;
  const [from, to] = both;
  const stemOf = (side: string) => (side === 'none' ? undefined : BOUND_STEMS[side.slice(0, side.lastIndexOf(' '))]);
  if ((from !== 'none' && stemOf(from) === undefined) || (to !== 'none' && stemOf(to) === undefined)) return undefined;
  return [stemOf(from), stemOf(to)];
}

/**
 * The oasdiff change a bound moved by: oasdiff names each keyword, and a bound set (a maximum
 * lowered, a minimum raised from nothing) or unset apart from one moved. A maximum made exclusive
 * (or inclusive) has no id there.
 */
function boundChange(moved: 'increased' | 'decreased', stems: readonly string[], or: 'set' | 'unset'): Kind {
  return {
    all: stems.flatMap((stem) => [`${stem}-${moved}`, `${stem}-${or}`]),
    pick: (detail) => {
      const bound = boundStems(detail);
      if (bound === undefined) return undefined;
      const [from, to] = bound;
      if (from === undefined) return or === 'set' && to !== undefined ? `${to}-set` : undefined;
      if (to === undefined) return or === 'unset' ? `${from}-unset` : undefined;
      return from === to ? `${from}-${moved}` : undefined;
    },
  };
}

const MAX_STEMS = ['max', 'exclusive-max', 'max-length', 'max-items', 'max-properties'];
const MIN_STEMS = ['min', 'exclusive-min', 'min-length', 'min-items', 'min-properties'];

/**
 * `number or string to string`: the types on each side. `any type` and `no value` come alone on
 * their side, never among types: not within the other side's list, neither number nor integer,
 * they get no id.
 */
function typeLists(detail: string): readonly [readonly string[], readonly string[]] | undefined {
  const both = sides(detail);
  return both === undefined ? undefined : [both[0].split(' or '), both[1].split(' or ')];
}
const within = (some: readonly string[], all: readonly string[]) => some.every((t) => all.includes(t));

/** `none to X` set, `X to none` unset, else changed. A JSON text is never the bare word none. */
function setOrChanged(added: string, removed: string, changed: string): Kind {
  return {
    all: [added, removed, changed],
    pick: (detail) => (detail.startsWith('none to ') ? added : detail.endsWith(' to none') ? removed : changed),
  };
}

/**
 * One keyword, three kinds of ours: oasdiff's id follows from the two values, whichever way they
 * go, among those the kind may carry (`all`).
 */
function multipleOfIds(all: readonly string[]): Kind {
  return {
    all,
    pick: (detail, direction) => {
      const both = sides(detail);
      if (both === undefined) return undefined;
      const [from, to] = both;
      // oasdiff's own names for a multiple that lets more values through a request, or fewer out of a response.
      const id =
        from === 'none'
          ? 'multiple-of-set'
          : to === 'none'
            ? 'multiple-of-unset'
            : direction === 'request' && Number.isInteger(Number(from) / Number(to))
              ? 'multiple-of-generalized'
              : direction === 'response' && Number.isInteger(Number(to) / Number(from))
                ? 'multiple-of-specialized'
                : 'multiple-of-changed';
      return all.includes(id) ? id : undefined;
    },
  };
}

/**
 * A type list that lost (or gained) types is oasdiff's `list-of-types-narrowed` (`-widened`); number
 * to integer is its `type-specialized`, integer to number its `type-generalized`.
 */
function typeListIds(way: 'narrowed' | 'widened'): Kind {
  const [list, single, one, other] = way === 'narrowed' ? ['list-of-types-narrowed', 'type-specialized', 'number', 'integer'] : ['list-of-types-widened', 'type-generalized', 'integer', 'number'];
  return {
    all: [list, single],
    pick: (detail) => {
      const lists = typeLists(detail);
      if (lists === undefined) return undefined;
      const [from, to] = lists;
      const [fewer, more] = way === 'narrowed' ? [to, from] : [from, to];
      if (more.length > fewer.length && within(fewer, more)) return list;
      return from.join() === one && to.join() === other ? single : undefined;
    },
  };
}

/**
 * Our schema and property kinds. Left out, and why:
 * - `format-*`: oasdiff files a format under the type (`type-changed`, `type-generalized`), by its
 *   own table of which formats widen which; ours does not follow it.
 * - `enum-removed`, `additional-properties-*`, `extensible-enum-value-added`, `one-of-overlap-added`,
 *   `condition-changed`, `not-*` (a change inside a `not`, whatever it was): no id in oasdiff's
 *   catalog.
 * - `option-added`, `option-removed`: oasdiff says whether the alternative was of a `oneOf` or an
 *   `anyOf`; ours does not.
 * - `removed` in a response: oasdiff says whether the property was required (breaking) or not
 *   (info); ours does not.
 * - `became-read-only`, `became-write-only`, `became-writable`, `became-readable`: oasdiff says
 *   whether the property is required; ours does not.
 */
const KINDS: Readonly<Record<string, Kind>> = {
  'type-changed': one('type-changed'),
  'type-narrowed': typeListIds('narrowed'),
  'type-widened': typeListIds('widened'),
  'nullable-added': one('became-nullable'),
  'nullable-removed': one('became-not-nullable'),
  'enum-value-added': one('enum-value-added'),
  'enum-value-removed': one('enum-value-removed'),
  'enum-added': one('became-enum'),
  'max-decreased': boundChange('decreased', MAX_STEMS, 'set'),
  'max-increased': boundChange('increased', MAX_STEMS, 'unset'),
  'min-increased': boundChange('increased', MIN_STEMS, 'set'),
  'min-decreased': boundChange('decreased', MIN_STEMS, 'unset'),
  'pattern-changed': one('pattern-changed'),
  'pattern-added': one('pattern-added'),
  'pattern-removed': one('pattern-removed'),
  'multiple-of-changed': multipleOfIds(['multiple-of-changed']),
  'multiple-of-narrowed': multipleOfIds(['multiple-of-set', 'multiple-of-changed', 'multiple-of-specialized']),
  'multiple-of-widened': multipleOfIds(['multiple-of-unset', 'multiple-of-changed', 'multiple-of-generalized']),
  'unique-items-added': one('unique-items-set'),
  'unique-items-removed': one('unique-items-unset'),
  'default-changed': setOrChanged('default-value-added', 'default-value-removed', 'default-value-changed'),
  'const-added': one('const-added'),
  'const-removed': one('const-removed'),
  'const-changed': one('const-changed'),
  'extensible-enum-value-removed': one('x-extensible-enum-value-removed'),
  'discriminator-added': one('discriminator-added'),
  'discriminator-removed': one('discriminator-removed'),
  'discriminator-property-changed': one('discriminator-property-name-changed'),
  'discriminator-mapping-added': one('discriminator-mapping-added'),
  'discriminator-mapping-removed': one('discriminator-mapping-deleted'),
  'discriminator-mapping-changed': one('discriminator-mapping-changed'),
  'content-media-type-changed': one('content-media-type-changed'),
  'content-encoding-changed': one('content-encoding-changed'),
  'dependent-required-added': one('dependent-required-added'),
  'dependent-required-removed': one('dependent-required-removed'),
  'pattern-properties-added': one('pattern-property-added'),
  'pattern-properties-removed': one('pattern-property-removed'),
  'contains-added': one('contains-added'),
  'contains-removed': one('contains-removed'),
  // Property kinds.
  added: one('added'),
  'required-added': one('required-added'),
  removed: one('removed'),
  'became-required': one('became-required'),
  'became-optional': one('became-optional'),
  deprecated: one('deprecated'),
};

/** The scopes of our schema rules that oasdiff has: each is one place. Callbacks are not among them. */
const SCOPES: ReadonlyArray<readonly [string, Place]> = [
  ['request-parameter-', 'request-parameter'],
  ['request-body-', 'request-body'],
  ['response-body-', 'response-body'],
  ['response-header-', 'response-header'],
];

/** What a location holds for an operation's schemas; a location with more is somewhere oasdiff does not compare. */
const SCHEMA_PLACE_KEYS: ReadonlySet<string> = new Set(['method', 'path', 'parameter', 'status', 'mediaType', 'header', 'property']);

/**
 * Where a property of what a client sends or receives is, in oasdiff's places, the first that has
 * an id winning (a header parameter's object has a few ids of its own, else those of any
 * parameter's). oasdiff has no ids for a property of a response header. Without a location, every
 * place the property may be in.
 */
function propertyPlaces(direction: 'request' | 'response', location: ChangeLocation | undefined): readonly (readonly Place[])[] {
  if (location === undefined) return direction === 'request' ? [['request-property'], ['request-parameter-property'], ['request-header-property', 'request-parameter-property']] : [['response-property']];
  if (Object.keys(location).some((key) => !SCHEMA_PLACE_KEYS.has(key))) return [];
  if (direction === 'request') {
    if (location.parameter !== undefined) return [location.parameter.startsWith('header ') ? ['request-header-property', 'request-parameter-property'] : ['request-parameter-property']];
    return location.status === 'requestBody' ? [['request-property']] : [];
  }
  return location.status !== undefined && location.status !== 'requestBody' && location.header === undefined && location.parameter === undefined ? [['response-property']] : [];
}

/** The ids an item may get: one when its location and detail decide, several when they are not given (the catalog). */
function candidates(rule: RuleId, { location, detail }: OasdiffContext): string[] {
  if (rule in FIXED_RULES) {
    const fixed = FIXED_IDS[rule];
    if (fixed === undefined) return [];
    if (typeof fixed === 'string') return [fixed];
    if (location === undefined) return [...fixed.ids];
    const picked = fixed.pick(location);
    return picked === undefined ? [] : [picked];
  }
  const property = /^(request|response)-property-(.+)$/.exec(rule);
  const scope = SCOPES.find(([prefix]) => rule.startsWith(prefix));
  const direction = property ? (property[1] as 'request' | 'response') : scope?.[1].startsWith('request') ? 'request' : 'response';
  const kind = property ? KINDS[property[2]!] : scope ? KINDS[rule.slice(scope[0].length)] : undefined;
  if (kind === undefined) return [];
  const changes = detail === undefined || kind.pick === undefined ? kind.all : [kind.pick(detail, direction)].filter((c): c is string => c !== undefined);
  const places = property ? propertyPlaces(direction, location) : [[scope![1]]];
  const found = new Set<string>();
  for (const change of changes) {
    for (const preference of places) {
      const id = preference.map((place) => RENAMED[`${place}-${change}`] ?? `${place}-${change}`).find((name) => OASDIFF_IDS.has(name));
      if (id !== undefined) found.add(id);
    }
  }
  return [...found];
}

/** The oasdiff id of an item of `rule`, where one exists and the item's location and detail decide it. */
export function oasdiffIdOf(rule: RuleId, item: OasdiffContext = {}): string | undefined {
  const ids = candidates(rule, item);
  return ids.length === 1 ? ids[0] : undefined;
}

/** Every oasdiff id an item of `rule` may get, for the catalog: empty when there is none. */
export function oasdiffIdsOf(rule: RuleId): string[] {
  return candidates(rule, {});
}

/** The item with its `oasdiffId`, next to its rule; as it was when it has none. */
export function withOasdiffId(change: Change, detail: string | undefined): Change {
  const oasdiffId = oasdiffIdOf(change.rule, { location: change.location, detail });
  if (oasdiffId === undefined) return change;
  const { rule, ...rest } = change;
  return { rule, oasdiffId, ...rest };
}
