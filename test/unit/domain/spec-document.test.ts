import { expect } from 'chai';
import { isJsonObject, specFormatOf, summarizeSpec, type JsonObject } from '../../../src/domain/spec/spec-document.js';

const INFO = { title: 'Pets', version: '1.0.0' };

describe('domain: a spec document (spec-document)', () => {
  describe('isJsonObject', () => {
    it('is an object with keys, not null, an array or a scalar', () => {
      expect([{}, { a: 1 }, null, [], [{}], 'x', 0, true, undefined].map(isJsonObject)).to.deep.equal([true, true, false, false, false, false, false, false, false]);
    });
  });

  describe('specFormatOf: the format a document declares', () => {
    it('swagger: "2.0" is Swagger 2.0', () => {
      expect(specFormatOf({ swagger: '2.0', info: INFO })).to.equal('swagger-2.0');
    });

    it('openapi: "3.0.0" to "3.0.4" is OpenAPI 3.0, and no other 3.0 version', () => {
      expect(['3.0.0', '3.0.1', '3.0.2', '3.0.3', '3.0.4'].map((openapi) => specFormatOf({ openapi }))).to.deep.equal(Array(5).fill('openapi-3.0'));
      expect(['3.0.5', '3.0', '3.0.00', '3.0.1-rc', ' 3.0.0', 'v3.0.0', '3.0.0 '].map((openapi) => specFormatOf({ openapi }))).to.deep.equal(Array(7).fill(undefined));
    });

    it('openapi: "3.1.x" is OpenAPI 3.1, for any patch number written without a leading zero', () => {
      expect(['3.1.0', '3.1.1', '3.1.2', '3.1.10', '3.1.99'].map((openapi) => specFormatOf({ openapi }))).to.deep.equal(Array(5).fill('openapi-3.1'));
      expect(['3.1', '3.1.01', '3.1.', '3.1.x', '3.1.0-rc1', 'x3.1.0', '3.2.0', '4.0.0', '2.0'].map((openapi) => specFormatOf({ openapi }))).to.deep.equal(Array(9).fill(undefined));
    });

    it('a version written as a number is none: swagger: 2.0, openapi: 3.1', () => {
      expect(specFormatOf({ swagger: 2.0 })).to.equal(undefined);
      expect(specFormatOf({ openapi: 3.1 })).to.equal(undefined);
    });

    it('a document that declares both swagger and openapi is neither', () => {
      expect(specFormatOf({ swagger: '2.0', openapi: '3.0.0' })).to.equal(undefined);
      expect(specFormatOf({ swagger: '1.2', openapi: '3.1.0' })).to.equal(undefined);
      expect(specFormatOf({ swagger: null, openapi: '3.0.0' })).to.equal(undefined);
    });

    it('Swagger 1.x and a document that declares nothing are none', () => {
      expect(specFormatOf({ swaggerVersion: '1.2' })).to.equal(undefined);
      expect(specFormatOf({ swagger: '1.2' })).to.equal(undefined);
      expect(specFormatOf({})).to.equal(undefined);
    });
  });

  describe('summarizeSpec: what the API record takes', () => {
    it('takes the format and info’s title, description and version', () => {
      expect(summarizeSpec({ openapi: '3.1.0', info: { ...INFO, description: 'All the pets' } })).to.deep.equal({ format: 'openapi-3.1', title: 'Pets', description: 'All the pets', version: '1.0.0' });
    });

    it('reads a field that is not a string as absent: an empty title, no description or version', () => {
      const odd: JsonObject = { openapi: '3.0.3', info: { title: 7, description: ['a'], version: 1 } };
      expect(summarizeSpec(odd)).to.deep.equal({ format: 'openapi-3.0', title: '', description: null, version: null });
    });

    it('reads an info that is not an object, or none, as empty, and a document of no accepted format as format null', () => {
      for (const info of [undefined, 'Pets', ['Pets'], null]) {
        const document: JsonObject = info === undefined ? { swagger: '1.2' } : { swagger: '1.2', info };
        expect(summarizeSpec(document), JSON.stringify(info)).to.deep.equal({ format: null, title: '', description: null, version: null });
      }
    });
  });
});
