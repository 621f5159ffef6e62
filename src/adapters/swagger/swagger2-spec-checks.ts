import { escapePointer, References } from '../../domain/spec/json-pointer.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../domain/spec/spec-document.js';
import { dottedPath } from './reference-targets.js';

/** One finding of the checks: where (dotted, as the schema validator's paths) and what. */
export interface SpecCheckError {
  readonly path: string;
  readonly message: string;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'] as const;
const PRIMITIVE_TYPES = ['array', 'boolean', 'integer', 'number', 'string'];
const SCHEMA_TYPES = [...PRIMITIVE_TYPES, 'object', 'null', undefined];

/** A value as the messages show it: text as it is, anything else as JSON. */
function shown(value: JsonValue | undefined): string {
  return typeof value === 'string' ? value : JSON.stringify(value) ?? 'undefined';
}

class CheckFailed extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The Swagger 2.0 rules that its JSON schema cannot express (swagger-parser's lib/validators/spec.js,
 * with its messages): unique operation ids, one body parameter, path parameters that match the
 * path's placeholders and are required, parameter and response types, `items` on arrays, `required`
 * naming properties that exist, file parameters with a form media type.
 *
 * swagger-parser runs them on the dereferenced document, whose size is the number of paths through
 * the reference graph (exponential for a chain of models each referring twice to the next). Here
 * each reference is followed where it is read, and a schema's properties (through `allOf`) are
 * collected once per schema: the work is linear in the document as written. The first finding is
 * returned, as swagger-parser throws its first.
 */
export function swagger2SpecChecks(api: JsonObject): SpecCheckError | undefined {
  try {
    new Checks(api).run();
    return undefined;
  } catch (error) {
    if (error instanceof CheckFailed) return { path: error.path, message: error.message };
    throw error;
  }
}

class Checks {
  /** Property names of a schema and its `allOf` members, by the schema's pointer. */
  private readonly propertyNames = new Map<string, ReadonlySet<string>>();
  /** One for the document: a chain of references is walked once, however many places refer into it. */
  private readonly references: References;

  constructor(private readonly api: JsonObject) {
    this.references = new References(api);
  }

  run(): void {
    const operationIds = new Set<string>();
    const paths = isJsonObject(this.api['paths']) ? this.api['paths'] : {};
    for (const [pathName, raw] of Object.entries(paths)) {
      if (!pathName.startsWith('/')) continue;
      const path = this.resolve(raw, `/paths/${escapePointer(pathName)}`);
      if (path === undefined) continue;
      this.path(path.value, pathName, path.at, operationIds);
    }
    const definitions = isJsonObject(this.api['definitions']) ? this.api['definitions'] : {};
    for (const [name, definition] of Object.entries(definitions)) {
      const at = `/definitions/${escapePointer(name)}`;
      const resolved = this.resolve(definition, at);
      if (resolved !== undefined) this.requiredPropertiesExist(resolved.value, resolved.at, `/definitions/${name}`);
    }
  }

  /** An object with its internal references followed; undefined for anything else or a reference that cannot be followed. */
  private resolve(value: JsonValue | undefined, at: string): { value: JsonObject; at: string } | undefined {
    const followed = this.references.follow(value, at);
    return followed.ref === null && isJsonObject(followed.value) ? { value: followed.value, at: followed.at } : undefined;
  }

  private list(value: JsonValue | undefined, at: string): { value: JsonObject; at: string }[] {
    if (!Array.isArray(value)) return [];
    return value.flatMap((item, i) => this.resolve(item, `${at}/${i}`) ?? []);
  }

  private path(path: JsonObject, pathName: string, at: string, operationIds: Set<string>): void {
    const pathId = `/paths${pathName}`;
    for (const method of METHODS) {
      const operation = this.resolve(path[method], `${at}/${method}`);
      if (operation === undefined) continue;
      const operationId = `${pathId}/${method}`;
      const declared = operation.value['operationId'];
      if (typeof declared === 'string' && declared !== '') {
        if (operationIds.has(declared)) throw new CheckFailed(dottedPath(`${operation.at}/operationId`), `Validation failed. Duplicate operation id '${declared}'`);
        operationIds.add(declared);
      }
      this.parameters(path, at, pathId, operation.value, operation.at, operationId);
      const responses = isJsonObject(operation.value['responses']) ? operation.value['responses'] : {};
      for (const [code, raw] of Object.entries(responses)) {
        // An extension, not a response (swagger-parser's numeric comparison lets it through too).
        if (code.startsWith('x-')) continue;
        const response = this.resolve(raw, `${operation.at}/responses/${escapePointer(code)}`) ?? { value: {}, at: `${operation.at}/responses/${escapePointer(code)}` };
        this.response(code, response.value, response.at, `${operationId}/responses/${code}`);
      }
    }
  }

  private parameters(path: JsonObject, pathAt: string, pathId: string, operation: JsonObject, operationAt: string, operationId: string): void {
    const pathParams = this.list(path['parameters'], `${pathAt}/parameters`);
    const operationParams = this.list(operation['parameters'], `${operationAt}/parameters`);
    this.noDuplicates(pathParams, `${pathId} has duplicate parameters`);
    this.noDuplicates(operationParams, `${operationId} has duplicate parameters`);
    // The operation's parameters first, then the path's that it does not override.
    const params = [...operationParams];
    for (const param of pathParams) {
      if (!params.some((p) => p.value['in'] === param.value['in'] && p.value['name'] === param.value['name'])) params.push(param);
    }
    const body = params.filter((p) => p.value['in'] === 'body');
    const form = params.filter((p) => p.value['in'] === 'formData');
    if (body.length > 1) throw new CheckFailed(dottedPath(operationAt), `Validation failed. ${operationId} has ${body.length} body parameters. Only one is allowed.`);
    if (body.length > 0 && form.length > 0) throw new CheckFailed(dottedPath(operationAt), `Validation failed. ${operationId} has body parameters and formData parameters. Only one or the other is allowed.`);
    this.pathParameters(params, pathId, operationId);
    this.parameterTypes(params, operation, operationId);
  }

  private noDuplicates(params: readonly { value: JsonObject; at: string }[], context: string): void {
    const seen = new Set<string>();
    for (const { value, at } of params) {
      const key = `${shown(value['in'])}\u0000${shown(value['name'])}`;
      if (seen.has(key)) throw new CheckFailed(dottedPath(at), `Validation failed. ${context}: found multiple ${shown(value['in'])} parameters named "${shown(value['name'])}"`);
      seen.add(key);
    }
  }

  private pathParameters(params: readonly { value: JsonObject; at: string }[], pathId: string, operationId: string): void {
    const placeholders = pathId.match(/\{([^/}]+)}/g) ?? [];
    const distinct = new Set<string>();
    for (const placeholder of placeholders) {
      if (distinct.has(placeholder)) throw new CheckFailed(dottedPath(`/paths/${escapePointer(pathId.slice('/paths'.length))}`), `Validation failed. ${operationId} has multiple path placeholders named ${placeholder}`);
      distinct.add(placeholder);
    }
    for (const { value, at } of params) {
      if (value['in'] !== 'path') continue;
      const name = shown(value['name']);
      if (value['required'] !== true) {
        throw new CheckFailed(dottedPath(at), `Validation failed. Path parameters cannot be optional. Set required=true for the "${name}" parameter at ${operationId}`);
      }
      if (!distinct.delete(`{${name}}`)) {
        throw new CheckFailed(dottedPath(at), `Validation failed. ${operationId} has a path parameter named "${name}", but there is no corresponding {${name}} in the path string`);
      }
    }
    if (distinct.size > 0) throw new CheckFailed(dottedPath(`/paths/${escapePointer(pathId.slice('/paths'.length))}`), `Validation failed. ${operationId} is missing path parameter(s) for ${[...distinct].join(',')}`);
  }

  private parameterTypes(params: readonly { value: JsonObject; at: string }[], operation: JsonObject, operationId: string): void {
    for (const { value: param, at } of params) {
      const parameterId = `${operationId}/parameters/${shown(param['name'])}`;
      let schema: { value: JsonObject; at: string } = { value: param, at };
      let validTypes: readonly (string | undefined)[] = PRIMITIVE_TYPES;
      if (param['in'] === 'body') {
        schema = this.resolve(param['schema'], `${at}/schema`) ?? { value: {}, at: `${at}/schema` };
        validTypes = SCHEMA_TYPES;
      } else if (param['in'] === 'formData') {
        validTypes = [...PRIMITIVE_TYPES, 'file'];
      }
      this.schemaType(schema.value, schema.at, parameterId, validTypes);
      this.requiredPropertiesExist(schema.value, schema.at, parameterId);
      if (schema.value['type'] === 'file') {
        const consumes = operation['consumes'] ?? this.api['consumes'] ?? [];
        const form = /multipart\/(.*\+)?form-data/;
        const urlEncoded = /application\/(.*\+)?x-www-form-urlencoded/;
        if (!Array.isArray(consumes) || !consumes.some((c) => typeof c === 'string' && (form.test(c) || urlEncoded.test(c)))) {
          throw new CheckFailed(dottedPath(at), `Validation failed. ${operationId} has a file parameter, so it must consume multipart/form-data or application/x-www-form-urlencoded`);
        }
      }
    }
  }

  private response(code: string, response: JsonObject, at: string, responseId: string): void {
    const status = Number(code);
    if (code !== 'default' && !(status >= 100 && status <= 599)) throw new CheckFailed(dottedPath(at), `Validation failed. ${responseId} has an invalid response code (${code})`);
    const headers = isJsonObject(response['headers']) ? response['headers'] : {};
    for (const [name, raw] of Object.entries(headers)) {
      const header = this.resolve(raw, `${at}/headers/${escapePointer(name)}`);
      if (header !== undefined) this.schemaType(header.value, header.at, `${responseId}/headers/${name}`, PRIMITIVE_TYPES);
    }
    if (response['schema'] !== undefined) {
      const schema = this.resolve(response['schema'], `${at}/schema`);
      if (schema === undefined) return;
      const validTypes = [...SCHEMA_TYPES, 'file'];
      const type = schema.value['type'];
      if (!validTypes.includes(type as string | undefined)) throw new CheckFailed(dottedPath(schema.at), `Validation failed. ${responseId} has an invalid response schema type (${shown(type)})`);
      this.schemaType(schema.value, schema.at, `${responseId}/schema`, validTypes);
    }
  }

  private schemaType(schema: JsonObject, at: string, schemaId: string, validTypes: readonly (string | undefined)[]): void {
    const type = schema['type'];
    if (!validTypes.includes(type as string | undefined)) throw new CheckFailed(dottedPath(at), `Validation failed. ${schemaId} has an invalid type (${shown(type)})`);
    if (type === 'array' && schema['items'] === undefined) throw new CheckFailed(dottedPath(at), `Validation failed. ${schemaId} is an array, so it must include an "items" schema`);
  }

  private requiredPropertiesExist(schema: JsonObject, at: string, schemaId: string): void {
    const type = schema['type'];
    if (Array.isArray(type) ? !type.includes('object') : type !== 'object') return;
    if (!Array.isArray(schema['required'])) return;
    const names = this.properties(schema, at);
    for (const required of schema['required']) {
      if (typeof required === 'string' && !names.has(required)) {
        throw new CheckFailed(dottedPath(at), `Validation failed. Property '${required}' listed as required but does not exist in '${schemaId}'`);
      }
    }
  }

  /**
   * The property names of a schema and of its `allOf` members, members' members too; each schema's
   * once, walked with a stack (a chain of `allOf` references is as deep as it is long). A schema in
   * an `allOf` cycle has what was known of it when the cycle closed.
   */
  private properties(schema: JsonObject, at: string): ReadonlySet<string> {
    const known = this.propertyNames.get(at);
    if (known !== undefined) return known;
    const own = (object: JsonObject) => (isJsonObject(object['properties']) ? Object.keys(object['properties']) : []);
    // Each frame: a schema, its members, and how many of them are done.
    const frames: { value: JsonObject; at: string; names: Set<string>; members: { value: JsonObject; at: string }[]; next: number }[] = [];
    const open = (value: JsonObject, where: string) => {
      const names = new Set(own(value));
      this.propertyNames.set(where, names);
      frames.push({ value, at: where, names, members: this.list(value['allOf'], `${where}/allOf`), next: 0 });
    };
    open(schema, at);
    while (frames.length > 0) {
      const frame = frames.at(-1)!;
      if (frame.next === frame.members.length) {
        frames.pop();
        const parent = frames.at(-1);
        if (parent !== undefined) for (const name of frame.names) parent.names.add(name);
        continue;
      }
      const member = frame.members[frame.next++]!;
      const memberNames = this.propertyNames.get(member.at);
      if (memberNames !== undefined) for (const name of memberNames) frame.names.add(name);
      else open(member.value, member.at);
    }
    return this.propertyNames.get(at)!;
  }
}
