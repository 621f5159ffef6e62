import Ajv2020 from 'ajv/dist/2020.js';
import { pointer } from '../../src/domain/spec/json-pointer.js';
import type { JsonObject } from '../../src/domain/spec/spec-document.js';

/**
 * What is wrong with the Schema Objects of an OpenAPI 3.1 document as JSON Schema 2020-12, which
 * the published 3.1 schema (and so the codec) does not look into: it takes any object or boolean
 * as a schema. Each schema must be valid against the 2020-12 meta-schema and use no keyword that
 * a validator ignores (`then` without `if`, `minContains` without `contains`, an unknown one but
 * the OpenAPI vocabulary's and `x-` extensions); every `$ref` must resolve (pointers into the
 * components and their `$defs`, anchors), every anchor be unique, and every discriminator mapping
 * lead to a schema. Empty when all is well.
 */
type Json = Record<string, unknown>;

const BASE = 'https://specbase.test/generated';
const ajv = new Ajv2020.default({ strict: false, strictSchema: true, validateFormats: false, allErrors: false, code: { optimize: false }, inlineRefs: false });
// ajv 8 resolves `$anchor` but lists it among no vocabulary, so strict mode would call it unknown.
ajv.addVocabulary(['$anchor', 'discriminator', 'xml', 'externalDocs', 'example', 'x-extensible-enum']);
let documents = 0;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** The Schema Objects of a document, where they stand: the components' and those of every operation (webhooks and callbacks too). */
export function schemaObjects(document: JsonObject): { readonly at: string; readonly schema: unknown }[] {
  const found: { at: string; schema: unknown }[] = [];
  const content = (value: unknown, at: string) => {
    for (const [type, media] of Object.entries(isObject(value) ? value : {})) if (isObject(media) && 'schema' in media) found.push({ at: `${at}/${type}`, schema: media['schema'] });
  };
  const pathItems = (value: unknown, at: string): void => {
    for (const [path, item] of Object.entries(isObject(value) ? value : {})) {
      for (const method of METHODS) {
        const operation = isObject(item) ? item[method] : undefined;
        if (!isObject(operation)) continue;
        const where = `${at} ${path} ${method}`;
        for (const [i, p] of (Array.isArray(operation['parameters']) ? operation['parameters'] : []).entries()) if (isObject(p) && 'schema' in p) found.push({ at: `${where} parameter ${i}`, schema: p['schema'] });
        if (isObject(operation['requestBody'])) content(operation['requestBody']['content'], `${where} request body`);
        for (const [status, response] of Object.entries(isObject(operation['responses']) ? operation['responses'] : {})) {
          if (!isObject(response)) continue;
          content(response['content'], `${where} ${status}`);
          for (const [name, header] of Object.entries(isObject(response['headers']) ? response['headers'] : {})) if (isObject(header) && 'schema' in header) found.push({ at: `${where} ${status} header ${name}`, schema: header['schema'] });
        }
        for (const [name, callback] of Object.entries(isObject(operation['callbacks']) ? operation['callbacks'] : {})) pathItems(callback, `${where} callback ${name}`);
      }
    }
  };
  const components = isObject(document['components']) ? document['components'] : {};
  for (const [name, schema] of Object.entries(isObject(components['schemas']) ? components['schemas'] : {})) found.push({ at: `components.schemas.${name}`, schema });
  pathItems(document['paths'], 'paths');
  pathItems(document['webhooks'], 'webhooks');
  return found;
}

export function jsonSchemaProblems(document: JsonObject): string[] {
  const schemas = schemaObjects(document);
  const problems: string[] = [];
  const mappings = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(mappings);
    if (!isObject(value)) return;
    const mapping = isObject(value['discriminator']) ? value['discriminator']['mapping'] : undefined;
    for (const [name, target] of Object.entries(isObject(mapping) ? mapping : {})) {
      if (typeof target !== 'string' || pointer(document, target) === undefined) problems.push(`the discriminator mapping ${name} leads nowhere: ${String(target)}`);
    }
    Object.values(value).forEach(mappings);
  };
  mappings(schemas.map((s) => s.schema));
  // Every schema in one resource, as in the document: its anchors are the document's, and its
  // pointers into the components become pointers to the same schemas among the resource's $defs.
  const id = `${BASE}/${(documents += 1)}`;
  const names = schemas.map((_, i) => `s${i}`);
  const models = new Map(schemas.filter((s) => s.at.startsWith('components.schemas.')).map((s) => [s.at.slice('components.schemas.'.length), names[schemas.indexOf(s)]!]));
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (!isObject(value)) return value;
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => {
        if (k !== '$ref' || typeof v !== 'string' || !v.startsWith('#/components/schemas/')) return [k, rewrite(v)];
        const [model, ...rest] = v.slice('#/components/schemas/'.length).split('/');
        return [k, ['#/$defs', models.get(model!) ?? model, ...rest].join('/')];
      }),
    );
  };
  const bundle = { $id: id, $defs: Object.fromEntries(schemas.map((s, i) => [names[i], rewrite(s.schema)])) };
  try {
    ajv.addSchema(bundle);
  } catch (error) {
    return [...problems, `the schemas: ${(error as Error).message}`];
  }
  try {
    for (const [i, s] of schemas.entries()) {
      try {
        ajv.getSchema(`${id}#/$defs/${names[i]}`);
      } catch (error) {
        problems.push(`${s.at}: ${(error as Error).message}`);
      }
    }
  } finally {
    ajv.removeSchema(id);
  }
  return problems;
}
