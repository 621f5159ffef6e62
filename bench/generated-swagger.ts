/**
 * A Swagger 2.0 document of any size, for bench/growth.ts: `resources` copies of one resource
 * (a collection path and an item path, five operations, its own model), so the document grows by
 * the same bytes, paths, operations, models and `$ref`s per resource and nothing else grows.
 * Deterministic: the same count gives the same bytes. Shaped like a hand-written API (tags,
 * summaries and descriptions, path, query, header and body parameters, shared parameters and
 * responses, a model per resource with nested objects, arrays, enums and `$ref`s to shared
 * models), so parsing and validating it exercise what a real document does.
 */

export interface GeneratedSwagger {
  readonly text: string;
  readonly paths: number;
  readonly operations: number;
  readonly definitions: number;
}

const SHARED_DEFINITIONS = {
  Error: {
    type: 'object',
    required: ['code', 'message'],
    properties: {
      code: { type: 'string', description: 'A stable, machine-readable error code.' },
      message: { type: 'string', description: 'A human-readable description of the error.' },
      details: { type: 'array', items: { type: 'object', additionalProperties: { type: 'string' } } },
    },
  },
  Owner: {
    type: 'object',
    required: ['id'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      displayName: { type: 'string', maxLength: 200 },
      email: { type: 'string', format: 'email' },
    },
  },
  PageInfo: {
    type: 'object',
    properties: {
      nextCursor: { type: 'string', description: 'Pass as `cursor` to read the next page; absent on the last page.' },
      total: { type: 'integer', format: 'int64', minimum: 0 },
    },
  },
} as const;

function resource(i: number) {
  const name = `Resource${i}`;
  const tag = `resources-${i}`;
  const ref = { $ref: `#/definitions/${name}` };
  const idParam = { name: 'id', in: 'path', required: true, type: 'string', format: 'uuid', description: `The id of the ${tag} item.` };
  const errors = {
    '400': { description: 'The request is malformed.', schema: { $ref: '#/definitions/Error' } },
    '401': { $ref: '#/responses/Unauthorized' },
    '404': { description: `No such ${tag} item.`, schema: { $ref: '#/definitions/Error' } },
  };
  const collection = {
    get: {
      tags: [tag],
      operationId: `list${name}`,
      summary: `List the ${tag} items`,
      description: `Returns the ${tag} items visible to the caller, oldest first, one page at a time.`,
      parameters: [{ $ref: '#/parameters/limit' }, { $ref: '#/parameters/cursor' }, { name: 'status', in: 'query', type: 'string', enum: ['active', 'archived'] }],
      responses: {
        '200': {
          description: 'A page of items.',
          schema: { type: 'object', properties: { items: { type: 'array', items: ref }, page: { $ref: '#/definitions/PageInfo' } } },
        },
        '401': errors['401'],
      },
    },
    post: {
      tags: [tag],
      operationId: `create${name}`,
      summary: `Create a ${tag} item`,
      parameters: [
        { name: 'body', in: 'body', required: true, schema: ref },
        { name: 'Idempotency-Key', in: 'header', type: 'string', maxLength: 64, description: 'Retries with the same key create one item.' },
      ],
      responses: { '201': { description: 'Created.', schema: ref, headers: { Location: { type: 'string' } } }, '400': errors['400'], '401': errors['401'] },
    },
  };
  const item = {
    parameters: [idParam],
    get: { tags: [tag], operationId: `get${name}`, summary: `Read one ${tag} item`, responses: { '200': { description: 'The item.', schema: ref }, ...errors } },
    put: {
      tags: [tag],
      operationId: `replace${name}`,
      summary: `Replace a ${tag} item`,
      parameters: [{ name: 'body', in: 'body', required: true, schema: ref }],
      responses: { '200': { description: 'The item as stored.', schema: ref }, ...errors },
    },
    delete: { tags: [tag], operationId: `delete${name}`, summary: `Delete a ${tag} item`, responses: { '204': { description: 'Deleted.' }, ...errors } },
  };
  const model = {
    type: 'object',
    required: ['id', 'name'],
    description: `An item of ${tag}.`,
    properties: {
      id: { type: 'string', format: 'uuid', readOnly: true },
      name: { type: 'string', minLength: 1, maxLength: 200 },
      status: { type: 'string', enum: ['active', 'archived'], default: 'active' },
      owner: { $ref: '#/definitions/Owner' },
      labels: { type: 'object', additionalProperties: { type: 'string' } },
      tags: { type: 'array', items: { type: 'string' }, maxItems: 50 },
      limits: {
        type: 'object',
        properties: { requestsPerMinute: { type: 'integer', minimum: 0, maximum: 100000 }, burst: { type: 'integer', minimum: 0 } },
      },
      createdAt: { type: 'string', format: 'date-time', readOnly: true },
      updatedAt: { type: 'string', format: 'date-time', readOnly: true },
    },
  };
  return { tag, name, collectionPath: `/${tag}`, itemPath: `/${tag}/{id}`, collection, item, model };
}

/** `resources` resources: 2 paths, 5 operations and 1 model each, plus 3 shared models. */
export function generatedSwagger(resources: number): GeneratedSwagger {
  const paths: Record<string, unknown> = {};
  const definitions: Record<string, unknown> = { ...SHARED_DEFINITIONS };
  const tags: { name: string; description: string }[] = [];
  for (let i = 1; i <= resources; i++) {
    const r = resource(i);
    paths[r.collectionPath] = r.collection;
    paths[r.itemPath] = r.item;
    definitions[r.name] = r.model;
    tags.push({ name: r.tag, description: `Operations on ${r.tag}.` });
  }
  const document = {
    swagger: '2.0',
    info: { title: `Growth ${resources}`, version: '1.0.0', description: `A generated document with ${resources} resources.` },
    host: 'api.example.com',
    basePath: '/v1',
    schemes: ['https'],
    consumes: ['application/json'],
    produces: ['application/json'],
    securityDefinitions: { bearer: { type: 'apiKey', name: 'Authorization', in: 'header' } },
    security: [{ bearer: [] }],
    tags,
    parameters: {
      limit: { name: 'limit', in: 'query', type: 'integer', minimum: 1, maximum: 200, default: 50 },
      cursor: { name: 'cursor', in: 'query', type: 'string' },
    },
    responses: { Unauthorized: { description: 'No valid token.', schema: { $ref: '#/definitions/Error' } } },
    paths,
    definitions,
  };
  return {
    text: JSON.stringify(document, null, 2),
    paths: 2 * resources,
    operations: 5 * resources,
    definitions: resources + Object.keys(SHARED_DEFINITIONS).length,
  };
}
