import { expect } from 'chai';
import fc from 'fast-check';
import { escapePointer, follow, nameUnder, pointer, refOf, References, unescapePointer } from '../../../src/domain/spec/json-pointer.js';
import type { JsonObject, JsonValue } from '../../../src/domain/spec/spec-document.js';

const PET = { type: 'object', properties: { name: { type: 'string' } } };
const DOCUMENT: JsonObject = {
  info: { title: 'Pets' },
  definitions: { Pet: PET, 'a/b': { type: 'integer' }, 'a~b': { type: 'boolean' }, 'a b': { type: 'number' }, '': { type: 'null' } },
  list: ['zero', 'one', { deep: 'two' }],
};

describe('domain: JSON pointers and internal references (json-pointer)', () => {
  describe('pointer: the value an internal reference points at', () => {
    it('# is the whole document', () => {
      expect(pointer(DOCUMENT, '#')).to.equal(DOCUMENT);
    });

    it('follows keys of objects and indexes of arrays', () => {
      expect(pointer(DOCUMENT, '#/definitions/Pet')).to.equal(PET);
      expect(pointer(DOCUMENT, '#/definitions/Pet/properties/name/type')).to.equal('string');
      expect(pointer(DOCUMENT, '#/list/0')).to.equal('zero');
      expect(pointer(DOCUMENT, '#/list/2/deep')).to.equal('two');
    });

    it('reads ~1 as / and ~0 as ~ in a key, and URI escapes before them', () => {
      expect(pointer(DOCUMENT, '#/definitions/a~1b')).to.deep.equal({ type: 'integer' });
      expect(pointer(DOCUMENT, '#/definitions/a~0b')).to.deep.equal({ type: 'boolean' });
      expect(pointer(DOCUMENT, '#/definitions/a%20b')).to.deep.equal({ type: 'number' });
      expect(pointer(DOCUMENT, '#/definitions/a%7E1b'), 'an escaped ~1 is still ~1').to.deep.equal({ type: 'integer' });
      expect(pointer(DOCUMENT, '#/definitions/')).to.deep.equal({ type: 'null' });
    });

    it('is undefined for an external reference or one that is not a pointer', () => {
      for (const ref of ['other.yaml#/definitions/Pet', '/definitions/Pet', 'definitions/Pet', '', '#definitions/Pet', '##info', 'x/info', 'https://example.com/#/definitions/Pet']) {
        expect(pointer(DOCUMENT, ref), ref).to.equal(undefined);
      }
    });

    it('is undefined for a reference that cannot be decoded', () => {
      expect(pointer(DOCUMENT, '#/definitions/%E0%A4%A')).to.equal(undefined);
      expect(pointer({ '%': 1 }, '#/%')).to.equal(undefined);
    });

    it('is undefined for a reference that leads nowhere: a missing key, past a scalar, an index out of range or not written as one', () => {
      for (const ref of ['#/definitions/Cat', '#/info/title/length', '#/list/3', '#/list/01', '#/list/-1', '#/list/1.0', '#/list/ 1', '#/list/length', '#/list/x', '#/info/title/0']) {
        expect(pointer(DOCUMENT, ref), ref).to.equal(undefined);
      }
    });

    it('reads only a document’s own keys, not what every object inherits', () => {
      for (const ref of ['#/info/toString', '#/info/constructor', '#/info/__proto__', '#/info/hasOwnProperty']) expect(pointer(DOCUMENT, ref), ref).to.equal(undefined);
    });

    it('reads index 10 and on as numbers', () => {
      const list = Array.from({ length: 12 }, (_, i) => `item ${i}`);
      expect(pointer({ list }, '#/list/10')).to.equal('item 10');
      expect(pointer({ list }, '#/list/11')).to.equal('item 11');
    });
  });

  describe('refOf', () => {
    it('is the $ref of an object that has one as a string, null otherwise', () => {
      expect([{ $ref: '#/a' }, { $ref: 1 }, { ref: '#/a' }, [{ $ref: '#/a' }], '#/a', null, undefined].map((value) => refOf(value as JsonValue | undefined))).to.deep.equal([
        '#/a',
        null,
        null,
        null,
        null,
        null,
        null,
      ]);
    });
  });

  describe('escapePointer and unescapePointer (RFC 6901)', () => {
    it('escape ~ as ~0 and / as ~1, and read them back', () => {
      expect(escapePointer('a/b~c/d~e')).to.equal('a~1b~0c~1d~0e');
      expect(unescapePointer('a~1b~0c~1d~0e')).to.equal('a/b~c/d~e');
    });

    it('keep a key written as ~1 apart from one written as /: ~ first on the way out, last on the way back', () => {
      expect(escapePointer('~1')).to.equal('~01');
      expect(unescapePointer('~01')).to.equal('~1');
      expect(unescapePointer('~1')).to.equal('/');
    });

    it('read back any key they escape', () => {
      fc.assert(fc.property(fc.string({ unit: fc.constantFrom('a', '~', '/', '0', '1') }), (key) => unescapePointer(escapePointer(key)) === key && !escapePointer(key).includes('/')));
    });
  });

  describe('follow: a chain of internal references', () => {
    const chain: JsonObject = {
      a: { $ref: '#/b' },
      b: { $ref: '#/c%20d' },
      'c d': PET,
      loop: { $ref: '#/loop2' },
      loop2: { $ref: '#/loop' },
      self: { $ref: '#/self' },
      lost: { $ref: '#/nowhere' },
      far: { $ref: 'other.yaml#/Pet' },
    };

    it('a value written in place is itself, where it stands; `at` is empty when not given', () => {
      expect(follow(chain, PET, '/here')).to.deep.equal({ value: PET, ref: null, at: '/here' });
      expect(follow(chain, undefined, '/here')).to.deep.equal({ value: undefined, ref: null, at: '/here' });
      expect(follow(chain, PET)).to.deep.equal({ value: PET, ref: null, at: '' });
    });

    it('ends in the value the chain leads to, located by the pointer of the last reference, decoded', () => {
      expect(follow(chain, { $ref: '#/a' }, '/here')).to.deep.equal({ value: PET, ref: null, at: '/c d' });
      expect(follow(chain, { $ref: '#/c%20d' }, '/here')).to.deep.equal({ value: PET, ref: null, at: '/c d' });
    });

    it('names a reference that leads nowhere, where it stands', () => {
      expect(follow(chain, { $ref: '#/nowhere' }, '/here')).to.deep.equal({ value: undefined, ref: '#/nowhere', at: '/here' });
      expect(follow(chain, { $ref: '#/lost' }, '/here')).to.deep.equal({ value: undefined, ref: '#/nowhere', at: '/lost' });
      expect(follow(chain, { $ref: 'other.yaml#/Pet' }, '/here')).to.deep.equal({ value: undefined, ref: 'other.yaml#/Pet', at: '/here' });
      expect(follow(chain, { $ref: '#/far' }, '/here')).to.deep.equal({ value: undefined, ref: 'other.yaml#/Pet', at: '/far' });
    });

    it('names a reference of a cycle, where it stands', () => {
      expect(follow(chain, { $ref: '#/self' }, '/here')).to.deep.equal({ value: undefined, ref: '#/self', at: '/self' });
      expect(follow(chain, { $ref: '#/loop' }, '/here')).to.deep.equal({ value: undefined, ref: '#/loop', at: '/loop2' });
      expect(follow(chain, { $ref: '#/loop2' }, '/here')).to.deep.equal({ value: undefined, ref: '#/loop2', at: '/loop' });
    });

    it('names the last reference, where it stands, when `accepts` refuses what the chain leads to', () => {
      const refuse = () => false;
      expect(follow(chain, { $ref: '#/a' }, '/here', refuse)).to.deep.equal({ value: undefined, ref: '#/c%20d', at: '/b' });
      expect(follow(chain, { $ref: '#/c%20d' }, '/here', refuse)).to.deep.equal({ value: undefined, ref: '#/c%20d', at: '/here' });
      expect(follow(chain, { $ref: '#/a' }, '/here', (target) => target === PET)).to.deep.equal({ value: PET, ref: null, at: '/c d' });
    });
  });

  describe('References: one document’s references, each chain walked once', () => {
    /** A document of `n0` -> `n1` -> ... -> `n(length-1)`, the last `end`. */
    const line = (length: number, end: JsonValue): JsonObject =>
      Object.fromEntries(Array.from({ length }, (_, i) => [`n${i}`, i === length - 1 ? end : { $ref: `#/n${i + 1}` }]));

    it('a value written in place is itself; `at` is empty when not given', () => {
      expect(new References(line(2, PET)).follow(PET)).to.deep.equal({ value: PET, ref: null, at: '' });
    });

    it('answers from a chain entered in the middle as from one walked alone: where it ends, and where its last reference stands', () => {
      const refs = new References(line(4, PET));
      expect(refs.follow({ $ref: '#/n0' }, '/a')).to.deep.equal({ value: PET, ref: null, at: '/n3' });
      expect(refs.follow({ $ref: '#/n2' }, '/b', () => false)).to.deep.equal({ value: undefined, ref: '#/n3', at: '/n2' });
      expect(refs.follow({ $ref: '#/n3' }, '/c', () => false)).to.deep.equal({ value: undefined, ref: '#/n3', at: '/c' });
      expect(refs.follow({ $ref: '#/n1' }, '/d', () => false)).to.deep.equal({ value: undefined, ref: '#/n3', at: '/n2' });
    });

    it('answers from a chain that leads nowhere, entered anywhere, with the reference that does and where it stands', () => {
      const refs = new References(line(3, { $ref: '#/nowhere' }));
      expect(refs.follow({ $ref: '#/n1' }, '/a')).to.deep.equal({ value: undefined, ref: '#/nowhere', at: '/n2' });
      expect(refs.follow({ $ref: '#/n0' }, '/b')).to.deep.equal({ value: undefined, ref: '#/nowhere', at: '/n2' });
      expect(refs.follow({ $ref: '#/n2' }, '/c')).to.deep.equal({ value: undefined, ref: '#/nowhere', at: '/n2' });
      expect(refs.follow({ $ref: '#/nowhere' }, '/d')).to.deep.equal({ value: undefined, ref: '#/nowhere', at: '/d' });
    });

    it('answers from a chain that joins one walked before as if walked alone', () => {
      const document: JsonObject = { ...line(3, PET), side: { $ref: '#/n1' }, other: { $ref: '#/side' } };
      const refs = new References(document);
      expect(refs.follow({ $ref: '#/n0' }, '/a', () => false)).to.deep.equal({ value: undefined, ref: '#/n2', at: '/n1' });
      expect(refs.follow({ $ref: '#/other' }, '/b', () => false)).to.deep.equal({ value: undefined, ref: '#/n2', at: '/n1' });
      expect(refs.follow({ $ref: '#/side' }, '/c')).to.deep.equal({ value: PET, ref: null, at: '/n2' });
      const toEnd = new References({ ...line(3, PET), a: { $ref: '#/n2' }, b: { $ref: '#/c' }, c: { $ref: '#/d' }, d: { $ref: '#/n2' } });
      expect(toEnd.follow({ $ref: '#/n2' }, '/x', () => false)).to.deep.equal({ value: undefined, ref: '#/n2', at: '/x' });
      expect(toEnd.follow({ $ref: '#/a' }, '/y', () => false), 'one step to the end of a chain walked before').to.deep.equal({ value: undefined, ref: '#/n2', at: '/a' });
      expect(toEnd.follow({ $ref: '#/b' }, '/z', () => false), 'three steps to it').to.deep.equal({ value: undefined, ref: '#/n2', at: '/d' });
      const lost: JsonObject = { ...line(3, { $ref: '#/nowhere' }), side: { $ref: '#/n2' }, other: { $ref: '#/side' } };
      const lostRefs = new References(lost);
      expect(lostRefs.follow({ $ref: '#/n0' }, '/a')).to.deep.equal({ value: undefined, ref: '#/nowhere', at: '/n2' });
      expect(lostRefs.follow({ $ref: '#/other' }, '/b')).to.deep.equal({ value: undefined, ref: '#/nowhere', at: '/n2' });
    });

    it('answers from a chain that runs into a cycle with a reference of the cycle, where it stands', () => {
      const document: JsonObject = { start: { $ref: '#/a' }, a: { $ref: '#/b' }, b: { $ref: '#/a' } };
      const refs = new References(document);
      expect(refs.follow({ $ref: '#/start' }, '/x')).to.deep.equal({ value: undefined, ref: '#/a', at: '/b' });
      expect(refs.follow({ $ref: '#/a' }, '/y')).to.deep.equal({ value: undefined, ref: '#/a', at: '/b' });
      expect(refs.follow({ $ref: '#/b' }, '/z')).to.deep.equal({ value: undefined, ref: '#/a', at: '/b' });
    });
  });

  describe('nameUnder: the name a reference gives under a prefix', () => {
    const MODELS = '#/components/schemas/';

    it('is the last segment, unescaped and decoded', () => {
      expect(nameUnder(MODELS, '#/components/schemas/Pet')).to.equal('Pet');
      expect(nameUnder(MODELS, '#/components/schemas/a~1b~0c')).to.equal('a/b~c');
      expect(nameUnder(MODELS, '#/components/schemas/Pet%20Food')).to.equal('Pet Food');
    });

    it('is null under another prefix, for the prefix alone, deeper down, or when it cannot be decoded', () => {
      for (const ref of ['#/definitions/Pet', '#/components/schemas/', '#/components/schemas/Pet/properties', 'other.yaml#/components/schemas/Pet', '#/components/schemas/%E0%A4%A']) {
        expect(nameUnder(MODELS, ref), ref).to.equal(null);
      }
    });
  });
});
