import { expect } from 'chai';
import type { ApiId } from '../../../src/domain/api/api.aggregate.js';
import { isValidSlug, Page, type PageChanges } from '../../../src/domain/page/page.aggregate.js';
import { accountId, uuid } from '../../support/ids.js';

const NOW = new Date('2026-11-22T12:00:00.000Z');
const LATER = new Date('2026-11-22T13:00:00.000Z');
const FIELDS = { title: 'Getting started', slug: 'getting-started', body: '# Hello\n\nWelcome.', position: 3 };

function create(fields: Record<string, unknown> = {}) {
  return Page.create({ id: uuid('p1'), apiId: uuid<ApiId>('api-1'), accountId: accountId(2), ...FIELDS, ...fields }, NOW);
}
function made(fields: Record<string, unknown> = {}): Page {
  const result = create(fields);
  if (!result.ok) throw new Error(`expected ok: ${result.error.message}`);
  return result.value;
}
const refusal = (field: string, message: string) => ({ ok: false, error: { kind: 'InvalidField', field, message } });

const TITLE = 'must be 1-200 characters, not only spaces';
const SLUG = 'must be 1-64 of a-z, 0-9 and "-"';
const BODY = 'must be Markdown text of at most 1 MiB';
const POSITION = 'must be an integer from 0 to 1000000';

/** Each field's refused values, and the message naming its rule. */
const REFUSED: readonly (readonly [keyof PageChanges, unknown, string])[] = [
  ['title', '', TITLE],
  ['title', '   ', TITLE],
  ['title', 'x'.repeat(201), TITLE],
  ['title', 7, TITLE],
  ['slug', '', SLUG],
  ['slug', 'Getting-Started', SLUG],
  ['slug', 'getting started', SLUG],
  ['slug', 'x'.repeat(65), SLUG],
  ['slug', 'a/b', SLUG],
  ['slug', 12, SLUG],
  ['body', 'x'.repeat(1024 * 1024 + 1), BODY],
  ['body', null, BODY],
  ['position', -1, POSITION],
  ['position', 1_000_001, POSITION],
  ['position', 1.5, POSITION],
  ['position', '3', POSITION],
  ['position', Number.MAX_SAFE_INTEGER + 1, POSITION],
];

describe('Page aggregate', () => {
  it('is created with its fields as given, Markdown kept exactly', () => {
    const page = made({ body: '  *raw*  \r\n<b>kept</b>' });
    expect(page.toRecord()).to.deep.equal({
      id: 'p1',
      title: 'Getting started',
      slug: 'getting-started',
      body: '  *raw*  \r\n<b>kept</b>',
      position: 3,
      creationDate: '2026-11-22T12:00:00.000+00:00',
      updateDate: '2026-11-22T12:00:00.000+00:00',
    });
    expect(page.snapshot()).to.deep.include({ apiId: 'api-1', accountId: 2 });
    expect([page.id, page.slug]).to.deep.equal(['p1', 'getting-started']);
    expect(Page.rehydrate(page.snapshot()).snapshot()).to.deep.equal(page.snapshot());
  });

  it('takes each field up to its limits', () => {
    const page = made({ title: 'x'.repeat(200), slug: 'a-0'.repeat(21) + 'z', body: 'x'.repeat(1024 * 1024), position: 1_000_000 });
    expect(page.toRecord()).to.deep.include({ title: 'x'.repeat(200), slug: 'a-0'.repeat(21) + 'z', position: 1_000_000 });
    expect(page.toRecord().body).to.have.length(1024 * 1024);
    expect(made({ title: 'x', slug: '-', body: '', position: 0 }).toRecord()).to.deep.include({ title: 'x', slug: '-', body: '', position: 0 });
  });

  for (const [field, value, message] of REFUSED) {
    it(`refuses ${field} ${JSON.stringify(value)?.slice(0, 24)} naming the field and the rule`, () => {
      expect(create({ [field]: value })).to.deep.equal(refusal(field, message));
    });
  }

  it('checks the fields in order and reports the first refused one', () => {
    expect(create({ title: '', slug: 'Bad', body: null, position: -1 })).to.deep.equal(refusal('title', TITLE));
    expect(create({ slug: 'Bad', body: null, position: -1 })).to.deep.equal(refusal('slug', SLUG));
    expect(create({ body: null, position: -1 })).to.deep.equal(refusal('body', BODY));
  });

  it('accepts as a slug 1-64 of a-z, 0-9 and "-" only', () => {
    for (const slug of ['a', '0', '-', 'getting-started-2', 'x'.repeat(64)]) expect(isValidSlug(slug), slug).to.equal(true);
    for (const slug of ['', 'x'.repeat(65), 'A', 'a_b', 'a.b', 'é', ' a', 'a\n', 1, null]) expect(isValidSlug(slug), String(slug)).to.equal(false);
  });

  describe('update', () => {
    it('changes the fields given, keeps the others, and moves updateDate', () => {
      const page = made();
      const before = page.snapshot();
      expect(page.update({ title: 'Start here', position: 0 }, LATER)).to.deep.equal({ ok: true, value: undefined });
      expect(page.snapshot()).to.deep.equal({ ...before, title: 'Start here', position: 0, updateDate: LATER });
      expect(page.update({ slug: 'start', body: '' }, LATER).ok).to.equal(true);
      expect(page.snapshot()).to.deep.equal({ ...before, title: 'Start here', slug: 'start', body: '', position: 0, updateDate: LATER });
    });

    it('moves updateDate on an empty change', () => {
      const page = made();
      expect(page.update({}, LATER).ok).to.equal(true);
      expect(page.toRecord().updateDate).to.equal('2026-11-22T13:00:00.000+00:00');
    });

    for (const [field, value, message] of REFUSED) {
      it(`refuses ${field} ${JSON.stringify(value)?.slice(0, 24)} and changes nothing`, () => {
        const page = made();
        const before = page.snapshot();
        // A valid change beside it is not applied either.
        const other: keyof PageChanges = field === 'title' ? 'position' : 'title';
        expect(page.update({ [other]: other === 'title' ? 'New' : 9, [field]: value }, LATER)).to.deep.equal(refusal(field, message));
        expect(page.snapshot()).to.equal(before);
      });
    }
  });
});
