import {
  describeApi,
  type ApiDescription,
  type CallbackOperation,
  type FormFields,
  type HeaderDescription,
  type MediaContent,
  type OperationDescription,
  type ParameterDescription,
  type SecurityRequirement,
  type Serialization,
} from '../api-description.js';
import type { AuthAdapter } from '../derived-resources.js';
import { escapePointer, References, unescapePointer } from '../json-pointer.js';
import { ofKind } from '../reference-kinds.js';
import { isJsonObject, specFormatOf, type JsonObject, type JsonValue } from '../spec-document.js';
import type { Change, ChangeLocation } from './change.js';
import { withOasdiffId } from './oasdiff-ids.js';
import { FIXED_RULES, negatedKind, propertyLevel, schemaLevel, SCOPE_DIRECTION, type Direction, type FixedRuleId, type PropertyKind, type SchemaKind, type SchemaScope } from './rules.js';
import { MAX_OTHER_PLACES, SchemaComparator, type SchemaAt, type SchemaDifference } from './schema-diff.js';
import { removedAfterSunset } from './sunset.js';

/** What a comparison is judged by, besides the two documents. */
export interface ClassifyOptions {
  /**
   * The day (`YYYY-MM-DD`, UTC) the newer document replaces the older one: an operation removed
   * on or after its `x-sunset` day is marked `afterSunset`. Without it none is.
   */
  readonly today?: string;
}

/**
 * The changes from `older` to `newer`, two validated documents of any accepted formats (Swagger
 * 2.0 against OpenAPI 3.1 works: both are read through describeApi), in a stable order: servers,
 * security schemes, models, operations in the newer document's order (removed ones where the
 * older had them, after), each with its callbacks last, then webhooks in the same way. Pure: no
 * I/O, no clock (the day to judge sunsets by is `options.today`).
 */
export function classifyChanges(older: JsonObject, newer: JsonObject, options: ClassifyOptions = {}): Change[] {
  return new Classifier(older, newer, options).run();
}

const SCHEMA_WORDS: Record<SchemaKind, (detail: string) => string> = {
  'type-changed': (d) => `the type changed from ${d}`,
  'type-narrowed': (d) => `the type was narrowed from ${d}`,
  'type-widened': (d) => `the type was widened from ${d}`,
  'nullable-added': () => 'null became a valid value',
  'nullable-removed': () => 'null is no longer a valid value',
  'format-changed': (d) => `the format changed from ${d}`,
  'format-added': (d) => `the values must now have the format ${d}`,
  'format-removed': (d) => `the values no longer need the format ${d}`,
  'enum-value-added': (d) => `the enum value ${d} was added`,
  'enum-value-removed': (d) => `the enum value ${d} was removed`,
  'enum-added': (d) => `the values are now limited to ${d}`,
  'enum-removed': () => 'the values are no longer limited to an enum',
  'max-decreased': (d) => `a maximum was lowered (${d})`,
  'max-increased': (d) => `a maximum was raised (${d})`,
  'min-increased': (d) => `a minimum was raised (${d})`,
  'min-decreased': (d) => `a minimum was lowered (${d})`,
  'pattern-changed': (d) => `the pattern changed from ${d}`,
  'multiple-of-changed': (d) => `multipleOf changed from ${d}`,
  'unique-items-added': () => 'the items must now be unique',
  'unique-items-removed': () => 'the items may now repeat',
  'default-changed': (d) => `the default changed from ${d}`,
  'additional-properties-added': () => 'properties that are not listed became allowed',
  'additional-properties-removed': () => 'properties that are not listed are no longer allowed',
  'option-added': (d) => `the alternative ${d} was added`,
  'option-removed': (d) => `the alternative ${d} was removed`,
  'pattern-added': (d) => `the values must now match the pattern ${d}`,
  'pattern-removed': (d) => `the values no longer need to match the pattern ${d}`,
  'const-added': (d) => `the value is now fixed to ${d}`,
  'const-removed': (d) => `the value is no longer fixed to ${d}`,
  'const-changed': (d) => `the one value taken changed from ${d}`,
  'extensible-enum-value-added': (d) => `the extensible enum value ${d} was added`,
  'extensible-enum-value-removed': (d) => `the extensible enum value ${d} was removed`,
  'contains-added': () => 'the array must now contain an item matching contains',
  'contains-removed': () => 'the array no longer needs an item matching contains',
  'dependent-required-added': (d) => `${d} now (dependentRequired)`,
  'dependent-required-removed': (d) => `no longer: ${d} (dependentRequired)`,
  'condition-changed': () => 'the if condition changed, so then and else apply to other values',
  'content-media-type-changed': (d) => `the content's media type changed from ${d}`,
  'content-encoding-changed': (d) => `the content's encoding changed from ${d}`,
  'one-of-overlap-added': (d) => `${d}, and a oneOf refuses a value that matches two`,
  'discriminator-added': (d) => `the discriminator ${d} was added`,
  'discriminator-removed': (d) => `the discriminator ${d} was removed`,
  'discriminator-property-changed': (d) => `the discriminator's property changed from ${d}`,
  'discriminator-mapping-added': (d) => `the discriminator value ${d} was mapped`,
  'discriminator-mapping-removed': (d) => `the discriminator value ${d} is no longer mapped`,
  'discriminator-mapping-changed': (d) => `the discriminator value ${d}`,
  'not-narrowed': (d) => `inside not, ${d}, so more values pass`,
  'not-widened': (d) => `inside not, ${d}, so fewer values pass`,
  'not-changed': (d) => `inside not, ${d}`,
  'multiple-of-narrowed': (d) => `multipleOf changed from ${d}, so fewer values pass`,
  'multiple-of-widened': (d) => `multipleOf changed from ${d}, so more values pass`,
};

const PROPERTY_WORDS: Record<PropertyKind, string> = {
  added: 'was added',
  'required-added': 'was added as required',
  removed: 'was removed',
  'became-required': 'became required',
  'became-optional': 'became optional',
  deprecated: 'became deprecated',
  'became-read-only': 'became read-only',
  'became-writable': 'is no longer read-only',
  'became-write-only': 'became write-only',
  'became-readable': 'is no longer write-only',
};

/** A path with its template parameters unnamed: `/pets/{id}` and `/pets/{petId}` are one path. */
function pathShape(path: string): string {
  return path.replace(/\{[^}]*\}/g, '{}');
}

function pathNames(path: string): string[] {
  return [...path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]!);
}

/** Dotted property names; `[]`, `{}`, a tuple position `[0]` and an applicator `(not)` follow without a dot. */
function propertyPath(path: readonly string[]): string {
  const attached = (segment: string) => segment === '{}' || segment.startsWith('[') || segment.startsWith('(');
  return path.reduce((joined, segment) => (attached(segment) || joined === '' ? `${joined}${segment}` : `${joined}.${segment}`), '');
}

/** The place of a schema difference `path` below a context's schema. */
function locationOf(context: Context, path: readonly string[]): ChangeLocation {
  const property = propertyPath(path);
  return property === '' ? context.location : { ...context.location, property };
}

/** Without the fields that are not set. */
const clean = (location: ChangeLocation): ChangeLocation => Object.fromEntries(Object.entries(location).filter(([, v]) => v !== undefined));

/** Where a schema of an operation stands, for rule ids, locations and messages. */
interface Context {
  readonly direction: Direction;
  readonly scope: SchemaScope;
  readonly location: ChangeLocation;
  /** `GET /pets, query parameter limit` */
  readonly where: string;
}

function context(scope: SchemaScope, location: ChangeLocation, where: string): Context {
  return { direction: SCOPE_DIRECTION[scope], scope, location, where };
}

/** How a header is said in a message (`the header X-Rate may be missing`) under its rule. */
interface HeaderRule {
  readonly rule: FixedRuleId;
  readonly says: (header: string) => string;
}

interface MediaRules {
  readonly added: FixedRuleId;
  readonly removed: FixedRuleId;
  readonly generalized: FixedRuleId;
  readonly narrowed: FixedRuleId;
  readonly addedSays: (where: string, mediaType: string) => string;
  readonly removedSays: (where: string, mediaType: string) => string;
}

/**
 * The rules of one way round of an exchange: an operation, whose request the client sends and
 * whose responses it receives (CALLED), or a webhook or callback, whose request the API sends to
 * the client's consumer and whose responses are the consumer's answer (SENT). The scopes carry the
 * direction of each place (SCOPE_DIRECTION).
 */
interface Exchange {
  readonly scopes: { readonly parameter: SchemaScope; readonly body: SchemaScope; readonly response: SchemaScope; readonly header: SchemaScope };
  readonly parameter: Readonly<Record<'added' | 'requiredAdded' | 'removed' | 'requiredRemoved' | 'becameRequired' | 'becameOptional' | 'deprecated' | 'styleChanged', FixedRuleId>>;
  readonly body: Readonly<Record<'added' | 'requiredAdded' | 'removed' | 'requiredRemoved' | 'becameRequired' | 'becameOptional', FixedRuleId>>;
  readonly requestMedia: MediaRules;
  readonly status: Readonly<Record<'added' | 'removed' | 'successRemoved', FixedRuleId>>;
  readonly responseMedia: MediaRules;
  readonly header: Readonly<Record<'added' | 'requiredAdded' | 'removed' | 'requiredRemoved' | 'becameRequired' | 'becameOptional', HeaderRule>>;
}

const CALLED: Exchange = {
  scopes: { parameter: 'request-parameter', body: 'request-body', response: 'response-body', header: 'response-header' },
  parameter: {
    added: 'request-parameter-added',
    requiredAdded: 'request-parameter-required-added',
    removed: 'request-parameter-removed',
    requiredRemoved: 'request-parameter-removed',
    becameRequired: 'request-parameter-became-required',
    becameOptional: 'request-parameter-became-optional',
    deprecated: 'request-parameter-deprecated',
    styleChanged: 'request-parameter-style-changed',
  },
  body: {
    added: 'request-body-added',
    requiredAdded: 'request-body-required-added',
    removed: 'request-body-removed',
    requiredRemoved: 'request-body-removed',
    becameRequired: 'request-body-became-required',
    becameOptional: 'request-body-became-optional',
  },
  requestMedia: {
    added: 'request-media-type-added',
    removed: 'request-media-type-removed',
    generalized: 'request-media-type-generalized',
    narrowed: 'request-media-type-narrowed',
    addedSays: (where, m) => `${where}: may be sent as ${m}.`,
    removedSays: (where, m) => `${where}: is no longer taken as ${m}.`,
  },
  status: { added: 'response-status-added', removed: 'response-status-removed', successRemoved: 'response-success-status-removed' },
  responseMedia: {
    added: 'response-media-type-added',
    removed: 'response-media-type-removed',
    generalized: 'response-media-type-generalized',
    narrowed: 'response-media-type-narrowed',
    addedSays: (where, m) => `${where}: may come as ${m}.`,
    removedSays: (where, m) => `${where}: no longer comes as ${m}.`,
  },
  header: {
    added: { rule: 'response-header-added', says: (h) => `the header ${h} was added` },
    requiredAdded: { rule: 'response-header-added', says: (h) => `the header ${h} was added` },
    removed: { rule: 'response-header-removed', says: (h) => `the header ${h} was removed` },
    requiredRemoved: { rule: 'response-required-header-removed', says: (h) => `the header ${h}, always sent, was removed` },
    becameRequired: { rule: 'response-header-became-required', says: (h) => `the header ${h} is always sent` },
    becameOptional: { rule: 'response-header-became-optional', says: (h) => `the header ${h} may be missing` },
  },
};

const SENT: Exchange = {
  scopes: { parameter: 'callback-request-parameter', body: 'callback-request-body', response: 'callback-response-body', header: 'callback-response-header' },
  parameter: {
    added: 'callback-request-parameter-added',
    requiredAdded: 'callback-request-parameter-added',
    removed: 'callback-request-parameter-removed',
    requiredRemoved: 'callback-request-required-parameter-removed',
    becameRequired: 'callback-request-parameter-became-required',
    becameOptional: 'callback-request-parameter-became-optional',
    deprecated: 'callback-request-parameter-deprecated',
    styleChanged: 'callback-request-parameter-style-changed',
  },
  body: {
    added: 'callback-request-body-added',
    requiredAdded: 'callback-request-body-added',
    removed: 'callback-request-body-removed',
    requiredRemoved: 'callback-request-required-body-removed',
    becameRequired: 'callback-request-body-became-required',
    becameOptional: 'callback-request-body-became-optional',
  },
  requestMedia: {
    added: 'callback-request-media-type-added',
    removed: 'callback-request-media-type-removed',
    generalized: 'callback-request-media-type-generalized',
    narrowed: 'callback-request-media-type-narrowed',
    addedSays: (where, m) => `${where}: may come as ${m}.`,
    removedSays: (where, m) => `${where}: no longer comes as ${m}.`,
  },
  status: { added: 'callback-response-status-added', removed: 'callback-response-status-removed', successRemoved: 'callback-response-status-removed' },
  responseMedia: {
    added: 'callback-response-media-type-added',
    removed: 'callback-response-media-type-removed',
    generalized: 'callback-response-media-type-generalized',
    narrowed: 'callback-response-media-type-narrowed',
    addedSays: (where, m) => `${where}: may be answered as ${m}.`,
    removedSays: (where, m) => `${where}: is no longer taken as ${m}.`,
  },
  header: {
    added: { rule: 'callback-response-header-added', says: (h) => `the optional header ${h} was added` },
    requiredAdded: { rule: 'callback-response-required-header-added', says: (h) => `the required header ${h} was added` },
    removed: { rule: 'callback-response-header-removed', says: (h) => `the header ${h} was removed` },
    requiredRemoved: { rule: 'callback-response-header-removed', says: (h) => `the header ${h} was removed` },
    becameRequired: { rule: 'callback-response-header-became-required', says: (h) => `the header ${h} became required` },
    becameOptional: { rule: 'callback-response-header-became-optional', says: (h) => `the header ${h} became optional` },
  },
};

/** A media type or range, read: lower case, parameters unquoted and in order in `key`. */
interface MediaRange {
  readonly type: string;
  readonly subtype: string;
  /** The structured syntax suffix: `json` of `application/problem+json`. */
  readonly suffix: string | null;
  readonly parameters: ReadonlyMap<string, string>;
  readonly key: string;
}

function mediaRange(mediaType: string): MediaRange {
  const [essence = '', ...rest] = mediaType.toLowerCase().split(';');
  const [type = '', subtype = ''] = essence.trim().split('/').map((part) => part.trim());
  const parameters = new Map(
    rest
      .map((parameter) => parameter.split('=').map((part) => part.trim()))
      .filter(([name]) => name !== undefined && name !== '')
      .map(([name, value]) => [name!, (value ?? '').replace(/^"(.*)"$/, '$1')] as const)
      .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)),
  );
  const plus = subtype.lastIndexOf('+');
  const key = `${type}/${subtype}${[...parameters].map(([name, value]) => `;${name}=${value}`).join('')}`;
  return { type, subtype, suffix: plus < 0 ? null : subtype.slice(plus + 1), parameters, key };
}

/**
 * Whether every message of type `b` is also of type `a`: `*\/*` covers every type, `text/*` every
 * text type, `application/json` (and `application/*+json`) every `application/...+json`, and a
 * type covers itself with more parameters (`; charset=utf-8`).
 */
function covers(a: MediaRange, b: MediaRange): boolean {
  if (a.type !== '*' && a.type !== b.type) return false;
  const subtype = a.subtype === '*' || a.subtype === b.subtype || (b.suffix !== null && (a.subtype === b.suffix || a.subtype === `*+${b.suffix}`));
  return subtype && [...a.parameters].every(([name, value]) => b.parameters.get(name) === value);
}

type Shape = 'primitive' | 'array' | 'object';

/** The styles that write `name=value` pairs (2.0's `tsv` too); a primitive value is one such pair in any of them. */
const PAIRED = new Set(['form', 'spaceDelimited', 'pipeDelimited', 'tabDelimited', 'deepObject']);

/** What a serialization writes for a value of a shape, as a name: two serializations with one name write the same. */
function wire(s: Serialization | null, shape: Shape): string {
  if (s === null) return 'content';
  if (shape === 'primitive') return PAIRED.has(s.style) ? 'form' : s.style;
  // `simple` writes an array's items comma-separated, exploded or not.
  if (s.style === 'simple' && shape === 'array') return 'simple';
  if (s.style === 'deepObject') return 'deepObject';
  // Exploded, the paired styles all write one pair per item (an array) or property (an object).
  if (PAIRED.has(s.style) && s.explode) return 'exploded';
  return `${s.style} ${s.explode}`;
}

function serialization(s: Serialization | null): string {
  return s === null ? 'its media type' : `${s.style}${s.explode ? ', exploded' : ''}${s.allowReserved ? ', reserved characters as they are' : ''}`;
}

/** How deep a parameter's schema is followed through `allOf` and `items` to tell its shape (`$ref`s are followed at each step). */
const SHAPE_DEPTH = 16;

/** What names a 2.0 `formData` body of the older document apart from the newer's: no JSON pointer starts so. */
const OLDER_FORM = 'older:';

/** A document's schemas behind `$ref`s, as far as they are schemas. */
class Schemas {
  private readonly references: References;
  private readonly isSchema: (value: JsonValue) => boolean;

  constructor(document: JsonObject) {
    this.references = new References(document);
    this.isSchema = ofKind('schema', specFormatOf(document) ?? 'openapi-3.1');
  }

  follow(value: JsonValue | undefined): JsonValue | undefined {
    return this.references.follow(value, '', this.isSchema).value;
  }
}

interface NormalScheme {
  readonly type: string;
  readonly key: string | null;
  readonly flows: ReadonlyMap<string, { readonly urls: readonly (string | null)[]; readonly scopes: ReadonlySet<string> }>;
  readonly urls: readonly (string | null)[];
}

/** Swagger 2.0's flow names as OpenAPI 3 names them, so that the formats compare. */
const FLOW_NAMES: Record<string, string> = { application: 'clientCredentials', accessCode: 'authorizationCode' };

function normalScheme(scheme: AuthAdapter): NormalScheme {
  if ('flows' in scheme) {
    const flows = new Map(Object.entries(scheme.flows ?? {}).map(([name, f]) => [name, { urls: [f.authorizationUrl, f.tokenUrl, f.refreshUrl], scopes: new Set(f.scopes.map((s) => s.name)) }]));
    const key = scheme.type === 'apiKey' ? `${scheme.in ?? ''} ${scheme.paramName ?? ''}` : scheme.type === 'http' ? (scheme.scheme ?? '').toLowerCase() : null;
    return { type: scheme.type, key, flows, urls: [scheme.openIdConnectUrl] };
  }
  // Swagger 2.0 has no OpenID Connect URL: the same null as an OpenAPI 3 scheme of another type.
  if (scheme.type === 'basic') return { type: 'http', key: 'basic', flows: new Map(), urls: [null] };
  const flows = scheme.type === 'oauth2' ? new Map([[FLOW_NAMES[scheme.flow ?? ''] ?? scheme.flow ?? '', { urls: [scheme.authorizationUrl, scheme.tokenUrl, null], scopes: new Set(scheme.scopes.map((s) => s.name)) }]]) : new Map();
  return { type: scheme.type, key: scheme.type === 'apiKey' ? `${scheme.in ?? ''} ${scheme.parameterName ?? ''}` : null, flows, urls: [null] };
}

class Classifier {
  private readonly changes: Change[] = [];
  /**
   * The item of each schema difference reported, and the other places it is reached from, by what
   * the difference is: its direction, kind, pointer and detail. One difference found in several
   * pairs of schemas (a property added to a trait that twenty models merge in with `allOf`) is one
   * change, as one found in one pair reached from several places is.
   */
  private readonly reported = new Map<string, { readonly index: number; readonly detail: string; readonly alsoAt: ChangeLocation[] }>();
  private readonly a: ApiDescription;
  private readonly b: ApiDescription;
  private readonly schemas: SchemaComparator;
  private readonly olderSchemas: Schemas;
  private readonly newerSchemas: Schemas;
  /** The 2.0 `formData` bodies compared, by the name their schema goes by (contentSchemas). */
  private readonly forms = new Map<string, FormFields>();

  constructor(
    older: JsonObject,
    newer: JsonObject,
    private readonly options: ClassifyOptions = {},
  ) {
    this.a = describeApi(older);
    this.b = describeApi(newer);
    this.schemas = new SchemaComparator(older, newer);
    this.olderSchemas = new Schemas(older);
    this.newerSchemas = new Schemas(newer);
  }

  run(): Change[] {
    this.servers();
    this.securitySchemes();
    this.models();
    this.operations();
    this.webhooks();
    for (const { index, alsoAt } of this.reported.values()) {
      if (alsoAt.length > 0) this.changes[index] = { ...this.changes[index]!, alsoAt };
    }
    const details = new Map([...this.reported.values()].map(({ index, detail }) => [index, detail]));
    return this.changes.map((change, index) => withOasdiffId(change, details.get(index)));
  }

  private fixed(rule: FixedRuleId, location: ChangeLocation, pointer: string, message: string): void {
    this.changes.push({ rule, level: FIXED_RULES[rule].level, location: clean(location), pointer, message });
  }

  private servers(): void {
    const before = new Set(this.a.servers.map((s) => s.url));
    const after = new Set(this.b.servers.map((s) => s.url));
    for (const server of this.b.servers) if (!before.has(server.url)) this.fixed('server-added', { server: server.url }, server.pointer, `The server ${server.url} was added.`);
    for (const server of this.a.servers) if (!after.has(server.url)) this.fixed('server-removed', { server: server.url }, server.pointer, `The server ${server.url} was removed.`);
  }

  private securitySchemes(): void {
    const before = new Map(this.a.securitySchemes.map((s) => [s.name, s]));
    const at = (api: ApiDescription, name: string) => `${api.securitySchemesPointer}/${escapePointer(name)}`;
    for (const scheme of this.b.securitySchemes) {
      const old = before.get(scheme.name);
      const location = { securityScheme: scheme.name };
      const pointer = at(this.b, scheme.name);
      if (old === undefined) {
        this.fixed('security-scheme-added', location, pointer, `The security scheme ${scheme.name} was added.`);
        continue;
      }
      const [x, y] = [normalScheme(old), normalScheme(scheme)];
      if (x.type !== y.type) {
        this.fixed('security-scheme-type-changed', location, pointer, `The security scheme ${scheme.name} changed its type from ${x.type} to ${y.type}.`);
        continue;
      }
      if (x.key !== y.key) this.fixed('security-scheme-key-changed', location, pointer, `The security scheme ${scheme.name} is sent differently: ${x.key ?? 'none'} became ${y.key ?? 'none'}.`);
      if (x.urls.some((url, i) => url !== y.urls[i])) this.fixed('security-scheme-url-changed', location, pointer, `The OpenID Connect URL of the security scheme ${scheme.name} changed.`);
      for (const [name, flow] of x.flows) {
        const next = y.flows.get(name);
        if (next === undefined) {
          this.fixed('security-scheme-flow-removed', location, at(this.a, scheme.name), `The security scheme ${scheme.name} no longer offers the ${name} flow.`);
          continue;
        }
        if (flow.urls.some((url, i) => url !== next.urls[i])) this.fixed('security-scheme-url-changed', location, pointer, `A URL of the ${name} flow of the security scheme ${scheme.name} changed.`);
        for (const scope of flow.scopes) if (!next.scopes.has(scope)) this.fixed('security-scheme-scope-removed', location, pointer, `The ${name} flow of the security scheme ${scheme.name} no longer offers the scope ${scope}.`);
        for (const scope of next.scopes) if (!flow.scopes.has(scope)) this.fixed('security-scheme-scope-added', location, pointer, `The ${name} flow of the security scheme ${scheme.name} offers the scope ${scope}.`);
      }
      for (const name of y.flows.keys()) if (!x.flows.has(name)) this.fixed('security-scheme-flow-added', location, pointer, `The security scheme ${scheme.name} offers the ${name} flow.`);
    }
    const after = new Set(this.b.securitySchemes.map((s) => s.name));
    for (const scheme of this.a.securitySchemes) {
      if (!after.has(scheme.name)) this.fixed('security-scheme-removed', { securityScheme: scheme.name }, at(this.a, scheme.name), `The security scheme ${scheme.name} was removed.`);
    }
  }

  private models(): void {
    const before = new Set(this.a.models.map((m) => m.name));
    const after = new Set(this.b.models.map((m) => m.name));
    for (const model of this.b.models) if (!before.has(model.name)) this.fixed('model-added', { model: model.name }, model.pointer, `The model ${model.name} was added.`);
    for (const model of this.a.models) if (!after.has(model.name)) this.fixed('model-removed', { model: model.name }, model.pointer, `The model ${model.name} was removed.`);
  }

  private operations(): void {
    const key = (op: OperationDescription) => `${op.method} ${pathShape(op.path)}`;
    const before = new Map(this.a.operations.map((op) => [key(op), op]));
    const matched = new Set<string>();
    for (const op of this.b.operations) {
      const old = before.get(key(op));
      const location = { method: op.method, path: op.path };
      if (old === undefined) {
        this.fixed('endpoint-added', location, op.pointer, `${op.method} ${op.path} was added.`);
        continue;
      }
      matched.add(key(op));
      this.operation(old, op);
    }
    for (const op of this.a.operations) {
      if (!matched.has(key(op))) this.endpointRemoved(op);
    }
  }

  /** Breaking even after its sunset (a client still calling it fails), but marked: a policy may let that case through. */
  private endpointRemoved(op: OperationDescription): void {
    const afterSunset = this.options.today !== undefined && removedAfterSunset(op, this.options.today);
    this.fixed('endpoint-removed', { method: op.method, path: op.path }, op.pointer, `${op.method} ${op.path} was removed${afterSunset ? ` after its sunset (${op.sunset})` : ''}.`);
    if (afterSunset) this.changes.push({ ...this.changes.pop()!, afterSunset: true });
  }

  private operation(a: OperationDescription, b: OperationDescription): void {
    const location = { method: b.method, path: b.path };
    const name = `${b.method} ${b.path}`;
    if (!a.deprecated && b.deprecated) this.fixed('endpoint-deprecated', location, b.pointer, `${name} became deprecated.`);
    if (a.deprecated && !b.deprecated) this.fixed('endpoint-reactivated', location, b.pointer, `${name} is no longer deprecated.`);
    if (b.sunset !== null && a.sunset !== b.sunset) this.fixed('endpoint-sunset-changed', location, `${b.pointer}/x-sunset`, `${name} is to be removed on ${b.sunset}${a.sunset === null ? '' : ` (was ${a.sunset})`}.`);
    if (b.sunset === null && a.sunset !== null) this.fixed('endpoint-sunset-removed', location, `${a.pointer}/x-sunset`, `${name} is no longer to be removed on ${a.sunset}.`);
    if (a.operationId !== null && b.operationId === null) {
      this.fixed('endpoint-operation-id-changed', location, `${a.pointer}/operationId`, `${name}: the operationId ${a.operationId} was removed.`);
    }
    if (a.operationId !== null && b.operationId !== null && a.operationId !== b.operationId) {
      this.fixed('endpoint-operation-id-changed', location, `${b.pointer}/operationId`, `${name}: the operationId changed from ${a.operationId} to ${b.operationId}.`);
    }
    if (a.operationId === null && b.operationId !== null) this.fixed('endpoint-operation-id-added', location, `${b.pointer}/operationId`, `${name}: the operationId ${b.operationId} was given.`);
    if (a.summary !== b.summary || a.description !== b.description) this.fixed('endpoint-description-changed', location, b.pointer, `${name}: the summary or description changed.`);
    for (const [i, tag] of b.tags.entries()) if (!a.tags.includes(tag)) this.fixed('endpoint-tag-added', location, `${b.pointer}/tags/${i}`, `${name}: the tag ${tag} was added.`);
    for (const [i, tag] of a.tags.entries()) if (!b.tags.includes(tag)) this.fixed('endpoint-tag-removed', location, `${a.pointer}/tags/${i}`, `${name}: the tag ${tag} was removed.`);
    this.exchange(a, b, location, name, CALLED);
    this.security(a, b, location, name);
    this.callbacks(a, b, location, name);
  }

  /** Callbacks matched by their name, expression and method: each a request the API sends, compared the other way round. */
  private callbacks(a: OperationDescription, b: OperationDescription, location: ChangeLocation, name: string): void {
    const key = (c: CallbackOperation) => `${c.callback}\u0000${c.path}\u0000${c.method}`;
    const before = new Map(a.callbacks.map((c) => [key(c), c]));
    const after = new Set(b.callbacks.map(key));
    const said = (c: CallbackOperation) => `the callback ${c.callback} (${c.method} ${c.path})`;
    for (const callback of b.callbacks) {
      const where = { ...location, callback: `${callback.callback} ${callback.method} ${callback.path}` };
      const old = before.get(key(callback));
      if (old === undefined) this.fixed('callback-added', where, callback.pointer, `${name}: ${said(callback)} was added.`);
      else this.exchange(old, callback, where, `${name}, ${said(callback)}`, SENT);
    }
    for (const callback of a.callbacks) {
      if (!after.has(key(callback))) this.fixed('callback-removed', { ...location, callback: `${callback.callback} ${callback.method} ${callback.path}` }, callback.pointer, `${name}: ${said(callback)} was removed.`);
    }
  }

  /** OpenAPI 3.1 webhooks, matched by their name and method: requests the API sends, compared the other way round. */
  private webhooks(): void {
    const key = (w: OperationDescription) => `${w.path}\u0000${w.method}`;
    const before = new Map(this.a.webhooks.map((w) => [key(w), w]));
    const after = new Set(this.b.webhooks.map(key));
    for (const webhook of this.b.webhooks) {
      const where = { webhook: webhook.path, method: webhook.method };
      const old = before.get(key(webhook));
      if (old === undefined) this.fixed('webhook-added', where, webhook.pointer, `The webhook ${webhook.path} (${webhook.method}) was added.`);
      else this.exchange(old, webhook, where, `The webhook ${webhook.path} (${webhook.method})`, SENT);
    }
    for (const webhook of this.a.webhooks) {
      if (!after.has(key(webhook))) this.fixed('webhook-removed', { webhook: webhook.path, method: webhook.method }, webhook.pointer, `The webhook ${webhook.path} (${webhook.method}) was removed.`);
    }
  }

  /** What goes each way between the two ends of an operation, a webhook or a callback: parameters, request body, responses. */
  private exchange(a: OperationDescription, b: OperationDescription, location: ChangeLocation, name: string, rules: Exchange): void {
    this.parameters(a, b, location, name, rules);
    this.requestBody(a, b, location, name, rules);
    this.responses(a, b, location, name, rules);
  }

  private parameters(a: OperationDescription, b: OperationDescription, location: ChangeLocation, name: string, rules: Exchange): void {
    // Path parameters are matched by their place in the path, whatever their names.
    const renamed = new Map(pathNames(a.path).map((old, i) => [old, pathNames(b.path)[i] ?? old]));
    const key = (p: ParameterDescription, renames?: ReadonlyMap<string, string>) =>
      `${p.in}\u0000${p.in === 'header' ? p.name.toLowerCase() : p.in === 'path' ? (renames?.get(p.name) ?? p.name) : p.name}`;
    const readable = (list: readonly ParameterDescription[]) => list.filter((p) => p.ref === null);
    const before = new Map(readable(a.parameters).map((p) => [key(p, renamed), p]));
    const after = new Map(readable(b.parameters).map((p) => [key(p), p]));
    const { parameter: said } = rules;
    for (const [k, p] of after) {
      const old = before.get(k);
      const where = { ...location, parameter: `${p.in} ${p.name}` };
      if (old === undefined) {
        if (p.required) this.fixed(said.requiredAdded, where, p.pointer, `${name}: the required ${p.in} parameter ${p.name} was added.`);
        else this.fixed(said.added, where, p.pointer, `${name}: the optional ${p.in} parameter ${p.name} was added.`);
        continue;
      }
      if (!old.required && p.required) this.fixed(said.becameRequired, where, p.pointer, `${name}: the ${p.in} parameter ${p.name} became required.`);
      if (old.required && !p.required) this.fixed(said.becameOptional, where, p.pointer, `${name}: the ${p.in} parameter ${p.name} became optional.`);
      if (!old.deprecated && p.deprecated) this.fixed(said.deprecated, where, p.pointer, `${name}: the ${p.in} parameter ${p.name} became deprecated.`);
      if (this.serializedDifferently(old, p)) {
        this.fixed(said.styleChanged, where, p.pointer, `${name}: the ${p.in} parameter ${p.name} is written differently (${serialization(old.serialization)} to ${serialization(p.serialization)}).`);
      }
      this.schema(
        { schema: old.schema, pointer: old.schemaPointer },
        { schema: p.schema, pointer: p.schemaPointer },
        context(rules.scopes.parameter, where, `${name}, ${p.in} parameter ${p.name}`),
      );
    }
    for (const [k, p] of before) {
      if (after.has(k)) continue;
      const where = { ...location, parameter: `${p.in} ${p.name}` };
      if (p.required) this.fixed(said.requiredRemoved, where, p.pointer, `${name}: the ${p.in} parameter ${p.name}${said.requiredRemoved === said.removed ? '' : ', always sent,'} was removed.`);
      else this.fixed(said.removed, where, p.pointer, `${name}: the ${p.in} parameter ${p.name} was removed.`);
    }
  }

  /** Whether what is written for a parameter's values changed: a style, explode or allowReserved that reads the same for the values its schemas take is no change. */
  private serializedDifferently(a: ParameterDescription, b: ParameterDescription): boolean {
    const shapes = new Set([...this.shapes(this.olderSchemas, a.schema, 0), ...this.shapes(this.newerSchemas, b.schema, 0)]);
    const reserved = (p: ParameterDescription, schemas: Schemas) => p.in === 'query' && p.serialization?.allowReserved === true && this.textual(schemas, p.schema, 0);
    if (reserved(a, this.olderSchemas) !== reserved(b, this.newerSchemas)) return true;
    return [...shapes].some((shape) => wire(a.serialization, shape) !== wire(b.serialization, shape));
  }

  /** The shapes of the values a schema takes: by its type, else by its keywords or its first `allOf` member that tells; all three when nothing does. */
  private shapes(schemas: Schemas, raw: JsonValue | undefined, depth: number): Shape[] {
    const any: Shape[] = ['primitive', 'array', 'object'];
    const schema = schemas.follow(raw);
    if (!isJsonObject(schema) || depth > SHAPE_DEPTH) return any;
    const type = schema['type'];
    const types = typeof type === 'string' ? [type] : Array.isArray(type) ? type.filter((t): t is string => typeof t === 'string') : null;
    if (types !== null) return [...new Set(types.map((t): Shape => (t === 'array' || t === 'object' ? t : 'primitive')))];
    if (schema['items'] !== undefined) return ['array'];
    if (schema['properties'] !== undefined || schema['additionalProperties'] !== undefined) return ['object'];
    for (const member of Array.isArray(schema['allOf']) ? schema['allOf'] : []) {
      const told = this.shapes(schemas, member, depth + 1);
      if (told.length < any.length) return told;
    }
    return any;
  }

  /** Whether a schema's values may hold text, where reserved characters can stand (numbers and booleans cannot). */
  private textual(schemas: Schemas, raw: JsonValue | undefined, depth: number): boolean {
    const schema = schemas.follow(raw);
    if (!isJsonObject(schema) || depth > SHAPE_DEPTH) return true;
    const type = schema['type'];
    const types = typeof type === 'string' ? [type] : Array.isArray(type) ? type : [];
    if (types.length > 0 && types.every((t) => t === 'integer' || t === 'number' || t === 'boolean' || t === 'null')) return false;
    if (types.length === 1 && types[0] === 'array') return this.textual(schemas, schema['items'], depth + 1);
    return true;
  }

  private requestBody(a: OperationDescription, b: OperationDescription, location: ChangeLocation, name: string, rules: Exchange): void {
    const [x, y] = [a.requestBody, b.requestBody];
    const where = { ...location, status: 'requestBody' };
    const { body: said } = rules;
    if (x === null && y === null) return;
    if (x === null && y !== null) {
      if (y.required) this.fixed(said.requiredAdded, where, y.pointer, `${name}: a required request body was added.`);
      else this.fixed(said.added, where, y.pointer, `${name}: an optional request body was added.`);
      return;
    }
    if (x !== null && y === null) {
      if (x.required) this.fixed(said.requiredRemoved, where, x.pointer, `${name}: the request body${said.requiredRemoved === said.removed ? '' : ', always sent,'} was removed.`);
      else this.fixed(said.removed, where, x.pointer, `${name}: the request body was removed.`);
      return;
    }
    if (x === null || y === null || x.ref !== null || y.ref !== null) return;
    if (!x.required && y.required) this.fixed(said.becameRequired, where, y.pointer, `${name}: the request body became required.`);
    if (x.required && !y.required) this.fixed(said.becameOptional, where, y.pointer, `${name}: the request body became optional.`);
    this.content(x.content, y.content, where, `${name}, request body`, rules.scopes.body, rules.requestMedia);
  }

  /**
   * Media types matched whatever their case and their parameters' order; one without its like is
   * matched with one that covers it or that it covers (generalised or narrowed), and only what has
   * no counterpart either way was added or removed. Each pair's schemas are compared.
   */
  private content(before: readonly MediaContent[], after: readonly MediaContent[], location: ChangeLocation, where: string, scope: SchemaScope, said: MediaRules): void {
    const old = new Map(before.map((c) => [mediaRange(c.mediaType).key, c]));
    const keys = new Set(after.map((c) => mediaRange(c.mediaType).key));
    const unmatched = after.filter((c) => !old.has(mediaRange(c.mediaType).key));
    const counterparts = new Map<MediaContent, MediaContent[]>();
    const removed: MediaContent[] = [];
    for (const [key, content] of old) {
      if (keys.has(key)) continue;
      const range = mediaRange(content.mediaType);
      const counterpart = unmatched.find((c) => covers(mediaRange(c.mediaType), range) || covers(range, mediaRange(c.mediaType)));
      if (counterpart === undefined) removed.push(content);
      else counterparts.set(counterpart, [...(counterparts.get(counterpart) ?? []), content]);
    }
    const compare = (from: MediaContent, to: MediaContent) => this.contentSchemas(from, to, context(scope, { ...location, mediaType: to.mediaType }, `${where} (${to.mediaType})`));
    for (const content of after) {
      const at = { ...location, mediaType: content.mediaType };
      const match = old.get(mediaRange(content.mediaType).key);
      if (match !== undefined) {
        compare(match, content);
        continue;
      }
      const pairs = counterparts.get(content);
      if (pairs === undefined) {
        this.fixed(said.added, at, content.at, said.addedSays(where, content.mediaType));
        continue;
      }
      for (const pair of pairs) {
        const wider = covers(mediaRange(content.mediaType), mediaRange(pair.mediaType));
        this.fixed(wider ? said.generalized : said.narrowed, at, content.at, `${where}: ${pair.mediaType} became the ${wider ? 'wider' : 'narrower'} ${content.mediaType}.`);
        compare(pair, content);
      }
    }
    for (const content of removed) this.fixed(said.removed, { ...location, mediaType: content.mediaType }, content.at, said.removedSays(where, content.mediaType));
  }

  /** The schemas of two media types; a 2.0 `formData` body is named apart in each document, so that what is found in a field points at its parameter. */
  private contentSchemas(from: MediaContent, to: MediaContent, at: Context): void {
    const named = (content: MediaContent, name: string) => {
      if (content.form === undefined) return content;
      this.forms.set(name, content.form);
      return { schema: content.schema, pointer: name };
    };
    this.schema(named(from, `${OLDER_FORM}${from.pointer}`), named(to, to.pointer), at);
  }

  /** A pointer into a 2.0 `formData` body's schema, named by contentSchemas, as the pointer of the field's parameter (or of the list of them). */
  private located(pointer: string): string {
    if (this.forms.size === 0) return pointer;
    const whole = this.forms.get(pointer);
    if (whole !== undefined) return whole.pointer;
    for (let i = pointer.indexOf('/properties/'); i >= 0; i = pointer.indexOf('/properties/', i + 1)) {
      const form = this.forms.get(pointer.slice(0, i));
      if (form === undefined) continue;
      const rest = pointer.slice(i + '/properties/'.length);
      const end = rest.includes('/') ? rest.indexOf('/') : rest.length;
      const field = form.fields.get(unescapePointer(rest.slice(0, end)));
      return field === undefined ? form.pointer : `${field}${rest.slice(end)}`;
    }
    return pointer;
  }

  private responses(a: OperationDescription, b: OperationDescription, location: ChangeLocation, name: string, rules: Exchange): void {
    const status = (s: string) => s.toUpperCase();
    const before = new Map(a.responses.map((r) => [status(r.status), r]));
    const after = new Set(b.responses.map((r) => status(r.status)));
    for (const response of b.responses) {
      const old = before.get(status(response.status));
      const where = { ...location, status: response.status };
      const label = `${name}, response ${response.status}`;
      if (old === undefined) {
        this.fixed(rules.status.added, where, response.pointer, `${name}: the response ${response.status} was added.`);
        continue;
      }
      if (old.ref !== null || response.ref !== null) continue;
      this.content(old.content, response.content, where, label, rules.scopes.response, rules.responseMedia);
      this.headers(old.headers, response.headers, where, label, rules);
    }
    for (const response of a.responses) {
      if (after.has(status(response.status))) continue;
      const rule = response.status.startsWith('2') ? rules.status.successRemoved : rules.status.removed;
      this.fixed(rule, { ...location, status: response.status }, response.pointer, `${name}: the response ${response.status} was removed.`);
    }
  }

  private headers(before: readonly HeaderDescription[], after: readonly HeaderDescription[], location: ChangeLocation, label: string, rules: Exchange): void {
    const old = new Map(before.map((h) => [h.name.toLowerCase(), h]));
    const seen = new Set<string>();
    const { header: said } = rules;
    for (const header of after) {
      const key = header.name.toLowerCase();
      seen.add(key);
      const where = { ...location, header: header.name };
      const match = old.get(key);
      if (match === undefined) {
        const added = header.required ? said.requiredAdded : said.added;
        this.fixed(added.rule, where, header.pointer, `${label}: ${added.says(header.name)}.`);
        continue;
      }
      if (match.required && !header.required) this.fixed(said.becameOptional.rule, where, header.pointer, `${label}: ${said.becameOptional.says(header.name)}.`);
      if (!match.required && header.required) this.fixed(said.becameRequired.rule, where, header.pointer, `${label}: ${said.becameRequired.says(header.name)}.`);
      this.schema(
        { schema: match.schema, pointer: match.schemaPointer },
        { schema: header.schema, pointer: header.schemaPointer },
        context(rules.scopes.header, where, `${label}, header ${header.name}`),
      );
    }
    for (const [key, header] of old) {
      if (seen.has(key)) continue;
      const removed = header.required ? said.requiredRemoved : said.removed;
      this.fixed(removed.rule, { ...location, header: header.name }, header.pointer, `${label}: ${removed.says(header.name)}.`);
    }
  }

  /**
   * A client able to call with `old` (one alternative: schemes used together, with their scopes)
   * can still call when some alternative of `next` needs no scheme it lacks and no scope it lacks.
   */
  private security(a: OperationDescription, b: OperationDescription, location: ChangeLocation, name: string): void {
    const alternatives = (list: readonly SecurityRequirement[]) => (list.length === 0 ? [[]] : list);
    const covers = (having: SecurityRequirement, needed: SecurityRequirement) =>
      needed.every((n) => having.some((h) => h.scheme === n.scheme && n.scopes.every((s) => h.scopes.includes(s))));
    const describe = (r: SecurityRequirement) => (r.length === 0 ? 'no credentials' : r.map((x) => `${x.scheme}${x.scopes.length > 0 ? ` (${x.scopes.join(', ')})` : ''}`).join(' and '));
    const [before, after] = [alternatives(a.security), alternatives(b.security)];
    const pointer = b.securityPointer;
    for (const old of before) {
      if (after.some((next) => covers(old, next))) continue;
      const sameSchemes = after.find((next) => next.length === old.length && next.every((n) => old.some((o) => o.scheme === n.scheme)));
      if (sameSchemes !== undefined) this.fixed('security-scope-added', location, pointer, `${name}: calling with ${describe(old)} is not enough any more: it needs ${describe(sameSchemes)}.`);
      else this.fixed('security-requirement-added', location, pointer, `${name}: calling with ${describe(old)} is not enough any more: it needs ${after.map(describe).join(' or ')}.`);
    }
    for (const next of after) {
      if (!before.some((old) => covers(next, old))) this.fixed('security-requirement-removed', location, pointer, `${name}: it can now be called with ${describe(next)}.`);
    }
  }

  /** A difference inside a schema that several places use is one item, at the first; the others are listed in its `alsoAt`. */
  private schema(from: SchemaAt, to: SchemaAt, context: Context): void {
    // Parameters and headers travel as text; bodies as JSON.
    const wire = context.scope.endsWith('-parameter') || context.scope.endsWith('-header');
    for (const { difference, path, negated } of this.schemas.walk(from, to, { direction: context.direction, wire })) {
      const key = [context.direction, negated, difference.kind, difference.pointer, difference.detail].join('\u0001');
      const earlier = this.reported.get(key);
      if (earlier === undefined) {
        this.reported.set(key, { index: this.changes.length, detail: difference.detail, alsoAt: [] });
        this.changes.push(this.schemaChange(difference, path, context, negated));
      } else if (earlier.alsoAt.length < MAX_OTHER_PLACES) {
        earlier.alsoAt.push(locationOf(context, path));
      }
    }
  }

  private schemaChange(d: SchemaDifference, path: readonly string[], context: Context, negated: boolean): Change {
    const property = propertyPath(path);
    const location = locationOf(context, path);
    if (negated) {
      // Reported where the `not` stands: what changed inside it is part of the message.
      const outer = path.slice(0, path.indexOf('(not)'));
      const inside = propertyPath(path.slice(outer.length + 1));
      const kind = negatedKind(d.kind);
      const change = d.kind.startsWith('property-') ? `the property ${d.detail} ${PROPERTY_WORDS[d.kind.slice('property-'.length) as PropertyKind]}` : SCHEMA_WORDS[d.kind as SchemaKind](d.detail);
      const at = propertyPath(outer);
      return {
        rule: at === '' ? `${context.scope}-${kind}` : `${context.direction}-property-${kind}`,
        level: schemaLevel(kind, context.direction),
        location: locationOf(context, outer),
        pointer: this.located(d.pointer),
        message: `${context.where}${at === '' ? '' : `, property ${at}`}: ${SCHEMA_WORDS[kind](inside === '' ? change : `at ${inside}, ${change}`)}.`,
      };
    }
    if (d.kind.startsWith('property-')) {
      const kind = d.kind.slice('property-'.length) as PropertyKind;
      return {
        rule: `${context.direction}-property-${kind}`,
        level: propertyLevel(kind, context.direction),
        location,
        pointer: this.located(d.pointer),
        message: `${context.where}: the property ${property} ${PROPERTY_WORDS[kind]}.`,
      };
    }
    const kind = d.kind as SchemaKind;
    return {
      rule: property === '' ? `${context.scope}-${kind}` : `${context.direction}-property-${kind}`,
      level: schemaLevel(kind, context.direction),
      location,
      pointer: this.located(d.pointer),
      message: `${context.where}${property === '' ? '' : `, property ${property}`}: ${SCHEMA_WORDS[kind](d.detail)}.`,
    };
  }
}
