import { describeApi, type ApiDescription, type HeaderDescription, type MediaContent, type OperationDescription, type ParameterDescription, type SecurityRequirement } from '../api-description.js';
import type { AuthAdapter } from '../derived-resources.js';
import { escapePointer } from '../json-pointer.js';
import type { JsonObject } from '../spec-document.js';
import type { Change, ChangeLocation } from './change.js';
import { withOasdiffId } from './oasdiff-ids.js';
import { FIXED_RULES, negatedKind, propertyLevel, schemaLevel, type Direction, type FixedRuleId, type PropertyKind, type SchemaKind, type SchemaScope } from './rules.js';
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
 * security schemes, models, then operations in the newer document's order (removed ones where the
 * older had them, after). Pure: no I/O, no clock (the day to judge sunsets by is `options.today`).
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

  constructor(
    older: JsonObject,
    newer: JsonObject,
    private readonly options: ClassifyOptions = {},
  ) {
    this.a = describeApi(older);
    this.b = describeApi(newer);
    this.schemas = new SchemaComparator(older, newer);
  }

  run(): Change[] {
    this.servers();
    this.securitySchemes();
    this.models();
    this.operations();
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
    if (a.summary !== b.summary || a.description !== b.description) this.fixed('endpoint-description-changed', location, b.pointer, `${name}: the summary or description changed.`);
    this.parameters(a, b, location, name);
    this.requestBody(a, b, location, name);
    this.responses(a, b, location, name);
    this.security(a, b, location, name);
  }

  private parameters(a: OperationDescription, b: OperationDescription, location: ChangeLocation, name: string): void {
    // Path parameters are matched by their place in the path, whatever their names.
    const renamed = new Map(pathNames(a.path).map((old, i) => [old, pathNames(b.path)[i] ?? old]));
    const key = (p: ParameterDescription, renames?: ReadonlyMap<string, string>) =>
      `${p.in}\u0000${p.in === 'header' ? p.name.toLowerCase() : p.in === 'path' ? (renames?.get(p.name) ?? p.name) : p.name}`;
    const readable = (list: readonly ParameterDescription[]) => list.filter((p) => p.ref === null);
    const before = new Map(readable(a.parameters).map((p) => [key(p, renamed), p]));
    const after = new Map(readable(b.parameters).map((p) => [key(p), p]));
    for (const [k, p] of after) {
      const old = before.get(k);
      const where = { ...location, parameter: `${p.in} ${p.name}` };
      if (old === undefined) {
        if (p.required) this.fixed('request-parameter-required-added', where, p.pointer, `${name}: the required ${p.in} parameter ${p.name} was added.`);
        else this.fixed('request-parameter-added', where, p.pointer, `${name}: the optional ${p.in} parameter ${p.name} was added.`);
        continue;
      }
      if (!old.required && p.required) this.fixed('request-parameter-became-required', where, p.pointer, `${name}: the ${p.in} parameter ${p.name} became required.`);
      if (old.required && !p.required) this.fixed('request-parameter-became-optional', where, p.pointer, `${name}: the ${p.in} parameter ${p.name} became optional.`);
      if (!old.deprecated && p.deprecated) this.fixed('request-parameter-deprecated', where, p.pointer, `${name}: the ${p.in} parameter ${p.name} became deprecated.`);
      this.schema(
        { schema: old.schema, pointer: old.schemaPointer },
        { schema: p.schema, pointer: p.schemaPointer },
        { direction: 'request', scope: 'request-parameter', location: where, where: `${name}, ${p.in} parameter ${p.name}` },
      );
    }
    for (const [k, p] of before) {
      if (!after.has(k)) this.fixed('request-parameter-removed', { ...location, parameter: `${p.in} ${p.name}` }, p.pointer, `${name}: the ${p.in} parameter ${p.name} was removed.`);
    }
  }

  private requestBody(a: OperationDescription, b: OperationDescription, location: ChangeLocation, name: string): void {
    const [x, y] = [a.requestBody, b.requestBody];
    const where = { ...location, status: 'requestBody' };
    if (x === null && y === null) return;
    if (x === null && y !== null) {
      if (y.required) this.fixed('request-body-required-added', where, y.pointer, `${name}: a required request body was added.`);
      else this.fixed('request-body-added', where, y.pointer, `${name}: an optional request body was added.`);
      return;
    }
    if (x !== null && y === null) {
      this.fixed('request-body-removed', where, x.pointer, `${name}: the request body was removed.`);
      return;
    }
    if (x === null || y === null || x.ref !== null || y.ref !== null) return;
    if (!x.required && y.required) this.fixed('request-body-became-required', where, y.pointer, `${name}: the request body became required.`);
    if (x.required && !y.required) this.fixed('request-body-became-optional', where, y.pointer, `${name}: the request body became optional.`);
    this.content(x.content, y.content, where, `${name}, request body`, 'request', 'request-body', {
      added: (m, p) => this.fixed('request-media-type-added', { ...where, mediaType: m }, p, `${name}: the request body may be sent as ${m}.`),
      removed: (m, p) => this.fixed('request-media-type-removed', { ...where, mediaType: m }, p, `${name}: the request body is no longer taken as ${m}.`),
    });
  }

  private content(
    before: readonly MediaContent[],
    after: readonly MediaContent[],
    location: ChangeLocation,
    where: string,
    direction: Direction,
    scope: SchemaScope,
    report: { added(mediaType: string, pointer: string): void; removed(mediaType: string, pointer: string): void },
  ): void {
    const old = new Map(before.map((c) => [c.mediaType.toLowerCase(), c]));
    const seen = new Set<string>();
    for (const content of after) {
      const type = content.mediaType.toLowerCase();
      seen.add(type);
      const match = old.get(type);
      if (match === undefined) {
        report.added(content.mediaType, content.pointer);
        continue;
      }
      this.schema(match, content, { direction, scope, location: { ...location, mediaType: content.mediaType }, where: `${where} (${content.mediaType})` });
    }
    for (const [type, content] of old) if (!seen.has(type)) report.removed(content.mediaType, content.pointer);
  }

  private responses(a: OperationDescription, b: OperationDescription, location: ChangeLocation, name: string): void {
    const status = (s: string) => s.toUpperCase();
    const before = new Map(a.responses.map((r) => [status(r.status), r]));
    const after = new Set(b.responses.map((r) => status(r.status)));
    for (const response of b.responses) {
      const old = before.get(status(response.status));
      const where = { ...location, status: response.status };
      const label = `${name}, response ${response.status}`;
      if (old === undefined) {
        this.fixed('response-status-added', where, response.pointer, `${name}: the response ${response.status} was added.`);
        continue;
      }
      if (old.ref !== null || response.ref !== null) continue;
      this.content(old.content, response.content, where, label, 'response', 'response-body', {
        added: (m, p) => this.fixed('response-media-type-added', { ...where, mediaType: m }, p, `${label}: may come as ${m}.`),
        removed: (m, p) => this.fixed('response-media-type-removed', { ...where, mediaType: m }, p, `${label}: no longer comes as ${m}.`),
      });
      this.headers(old.headers, response.headers, where, label);
    }
    for (const response of a.responses) {
      if (after.has(status(response.status))) continue;
      const rule = response.status.startsWith('2') ? 'response-success-status-removed' : 'response-status-removed';
      this.fixed(rule, { ...location, status: response.status }, response.pointer, `${name}: the response ${response.status} was removed.`);
    }
  }

  private headers(before: readonly HeaderDescription[], after: readonly HeaderDescription[], location: ChangeLocation, label: string): void {
    const old = new Map(before.map((h) => [h.name.toLowerCase(), h]));
    const seen = new Set<string>();
    for (const header of after) {
      const key = header.name.toLowerCase();
      seen.add(key);
      const where = { ...location, header: header.name };
      const match = old.get(key);
      if (match === undefined) {
        this.fixed('response-header-added', where, header.pointer, `${label}: the header ${header.name} was added.`);
        continue;
      }
      if (match.required && !header.required) this.fixed('response-header-became-optional', where, header.pointer, `${label}: the header ${header.name} may be missing.`);
      if (!match.required && header.required) this.fixed('response-header-became-required', where, header.pointer, `${label}: the header ${header.name} is always sent.`);
      this.schema(
        { schema: match.schema, pointer: match.schemaPointer },
        { schema: header.schema, pointer: header.schemaPointer },
        { direction: 'response', scope: 'response-header', location: where, where: `${label}, header ${header.name}` },
      );
    }
    for (const [key, header] of old) {
      if (seen.has(key)) continue;
      const where = { ...location, header: header.name };
      if (header.required) this.fixed('response-required-header-removed', where, header.pointer, `${label}: the header ${header.name}, always sent, was removed.`);
      else this.fixed('response-header-removed', where, header.pointer, `${label}: the header ${header.name} was removed.`);
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
        pointer: d.pointer,
        message: `${context.where}${at === '' ? '' : `, property ${at}`}: ${SCHEMA_WORDS[kind](inside === '' ? change : `at ${inside}, ${change}`)}.`,
      };
    }
    if (d.kind.startsWith('property-')) {
      const kind = d.kind.slice('property-'.length) as PropertyKind;
      return {
        rule: `${context.direction}-property-${kind}`,
        level: propertyLevel(kind, context.direction),
        location,
        pointer: d.pointer,
        message: `${context.where}: the property ${property} ${PROPERTY_WORDS[kind]}.`,
      };
    }
    const kind = d.kind as SchemaKind;
    return {
      rule: property === '' ? `${context.scope}-${kind}` : `${context.direction}-property-${kind}`,
      level: schemaLevel(kind, context.direction),
      location,
      pointer: d.pointer,
      message: `${context.where}${property === '' ? '' : `, property ${property}`}: ${SCHEMA_WORDS[kind](d.detail)}.`,
    };
  }
}
