import { expect } from 'chai';
import { SCOPES } from '../../src/domain/token/scope.js';
import { forEachDatabase } from '../support/databases.js';
import { problem, startTestServerOn, type TestServer, type TestUser } from '../support/http-server.js';

interface PageBody {
  id: string;
  title: string;
  slug: string;
  body: string;
  position: number;
  creationDate: string;
  updateDate: string;
}

const MARKDOWN = '# Getting started\n\n```sh\ncurl -H "Authorization: Bearer $TOKEN" …\n```\n\n* trailing spaces  \n* <b>raw html</b> & emoji 🚀\r\nwindows line\n';

forEachDatabase('Core-API: API pages and guides over HTTP', (target) => {
  let server: TestServer;
  let ada: TestUser;
  let all: string;
  let base: string;

  before(async () => {
    server = await startTestServerOn(target, { JSON_MAX_BYTES: '65536' });
    ada = await server.user('ada@example.com', 'ada');
    all = await server.token(ada, SCOPES);
    const api = (await (await server.request('POST', `/api/${ada.accountId}`, { token: all, body: { name: 'Guides', nickname: 'guides' } })).json()) as { id: string };
    base = `/api/${ada.accountId}/${api.id}/pages`;
  });
  after(async () => {
    await server?.stop();
  });

  async function create(body: Record<string, unknown>, token = all): Promise<Response> {
    return server.request('POST', base, { token, body });
  }

  it('creates, reads, updates and deletes a page, keeping its Markdown exactly as written', async () => {
    const created = await create({ title: 'Getting started', slug: 'getting-started', body: MARKDOWN });
    expect(created.status, await created.clone().text()).to.equal(201);
    const page = (await created.json()) as PageBody;
    expect(created.headers.get('location')).to.equal(`${base}/${page.id}`);
    expect(page).to.include({ title: 'Getting started', slug: 'getting-started', body: MARKDOWN, position: 0 });
    const read = (await (await server.request('GET', `${base}/${page.id}`, { token: all })).json()) as PageBody;
    expect(read.body).to.equal(MARKDOWN);
    const patched = await server.request('PATCH', `${base}/${page.id}`, { token: all, body: { title: 'Start here', slug: 'start' } });
    expect(await patched.json()).to.deep.include({ title: 'Start here', slug: 'start', body: MARKDOWN });
    expect((await server.request('DELETE', `${base}/${page.id}`, { token: all })).status).to.equal(204);
    expect((await server.request('GET', `${base}/${page.id}`, { token: all })).status).to.equal(404);
    expect((await server.request('DELETE', `${base}/${page.id}`, { token: all })).status).to.equal(404);
  });

  it('lists pages by position (ties by creation), new ones after the last, reordered by PATCH, a page at a time', async () => {
    const ids: string[] = [];
    for (const [slug, position] of [['one', 10], ['two', 20], ['three', 20]] as const) {
      ids.push(((await (await create({ title: slug, slug: `order-${slug}`, body: '', position })).json()) as PageBody).id);
    }
    const last = (await (await create({ title: 'four', slug: 'order-four', body: '' })).json()) as PageBody;
    expect(last.position, 'after the last page').to.equal(21);
    await server.request('PATCH', `${base}/${last.id}`, { token: all, body: { position: 5 } });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const response = await server.request('GET', `${base}?limit=3${cursor ? `&cursor=${cursor}` : ''}`, { token: all });
      const listed = (await response.json()) as { items: PageBody[]; nextCursor: string | null };
      seen.push(...listed.items.map((p) => p.slug));
      cursor = listed.nextCursor;
    } while (cursor !== null);
    expect(seen.filter((s) => s.startsWith('order-'))).to.deep.equal(['order-four', 'order-one', 'order-two', 'order-three']);
  });

  it('refuses a slug another page of the API has (409) and changes nothing', async () => {
    await create({ title: 'A', slug: 'taken', body: 'a' });
    const duplicate = await create({ title: 'B', slug: 'taken', body: 'b' });
    expect(duplicate.status).to.equal(409);
    expect(await problem(duplicate)).to.include({ code: 'duplicate_slug' });
    const other = (await (await create({ title: 'C', slug: 'free', body: 'c' })).json()) as PageBody;
    const rename = await server.request('PATCH', `${base}/${other.id}`, { token: all, body: { slug: 'taken', title: 'Changed' } });
    expect(rename.status).to.equal(409);
    expect(await (await server.request('GET', `${base}/${other.id}`, { token: all })).json()).to.deep.include({ slug: 'free', title: 'C' });
  });

  for (const [label, body, field] of [
    ['a slug with capitals', { title: 'x', slug: 'Intro', body: '' }, 'slug'],
    ['a 65-character slug', { title: 'x', slug: 'a'.repeat(65), body: '' }, 'slug'],
    ['an empty title', { title: ' ', slug: 'x1', body: '' }, 'title'],
    ['a body that is not text', { title: 'x', slug: 'x2', body: { markdown: true } }, 'body'],
    ['a negative position', { title: 'x', slug: 'x3', body: '', position: -1 }, 'position'],
    ['a fractional position', { title: 'x', slug: 'x4', body: '', position: 1.5 }, 'position'],
    ['no slug', { title: 'x', body: '' }, 'slug'],
    ['an unknown field', { title: 'x', slug: 'x5', body: '', html: '<p>' }, 'html'],
  ] as const) {
    it(`refuses ${label} with 400 naming ${field}`, async () => {
      const response = await create(body);
      expect(response.status).to.equal(400);
      expect((await problem(response)).errors?.map((e) => e.field)).to.include(field);
    });
  }

  it('reads with api_page.readonly, writes only with api_page', async () => {
    const readonly = await server.token(ada, ['api_page.readonly']);
    expect((await server.request('GET', base, { token: readonly })).status).to.equal(200);
    const refused = await create({ title: 'x', slug: 'ro', body: '' }, readonly);
    expect(refused.status).to.equal(403);
    expect(refused.headers.get('www-authenticate')).to.include('scope="api_page"');
    expect((await server.request('GET', base, { token: await server.token(ada, ['api']) })).status).to.equal(403);
  });

  it("hides another account's pages, and an unknown API's, as not found", async () => {
    const bob = await server.user('bob@example.com', 'bob');
    const bobToken = await server.token(bob, ['api_page']);
    const page = (await (await create({ title: 'Secret', slug: 'secret', body: 'x' })).json()) as PageBody;
    expect((await server.request('GET', base, { token: bobToken })).status).to.equal(404);
    expect((await server.request('GET', `${base}/${page.id}`, { token: bobToken })).status).to.equal(404);
    expect((await server.request('POST', `/api/${bob.accountId}/00000000-0000-7000-8000-000000000001/pages`, { token: bobToken, body: { title: 'x', slug: 'x', body: '' } })).status).to.equal(404);
  });

  it('goes with its API', async () => {
    const api = (await (await server.request('POST', `/api/${ada.accountId}`, { token: all, body: { name: 'Gone', nickname: 'gone' } })).json()) as { id: string };
    const pages = `/api/${ada.accountId}/${api.id}/pages`;
    await server.request('POST', pages, { token: all, body: { title: 'x', slug: 'x', body: '' } });
    expect((await server.request('DELETE', `/api/${ada.accountId}/${api.id}`, { token: all })).status).to.equal(204);
    expect((await server.request('GET', pages, { token: all })).status).to.equal(404);
    const rows = await server.rowCounts();
    const apisLeft = (await (await server.request('GET', `/api/${ada.accountId}?limit=200`, { token: all })).json()) as { items: unknown[] };
    expect(apisLeft.items).to.have.length(1);
    expect(rows['pages']).to.be.a('number');
  });
});
