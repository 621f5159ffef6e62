import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { SCOPES } from '../../src/domain/token/scope.js';
import { forEachDatabase } from '../support/databases.js';
import { swaggerFixture } from '../support/fixtures.js';
import { FormBrowser, hiddenFields } from '../support/form-browser.js';
import { startTestServerOn, type TestServer, type TestUser } from '../support/http-server.js';

const PAGE_CSP = "default-src 'none'; style-src 'self'; img-src 'self' https: data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const SWAGGER_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
const SWAGGER_UI_DIST = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** A guide written to attack its readers: none of it may come out as markup or a live link. */
const HOSTILE_GUIDE = [
  '# Getting started',
  '',
  'Welcome to the <b>pet</b> store.<script>alert("guide")</script>',
  '',
  '<img src=x onerror=alert(1)>',
  '',
  '[click me](javascript:alert(document.cookie)) [or me](JaVaScRiPt:alert(1)) [data](data:text/html,<script>alert(1)</script>) [vb](vbscript:msgbox)',
  '',
  '[safe link](https://example.com/pets) and [a relative one](/docs)',
  '',
  '| Pet | Legs |',
  '|:----|-----:|',
  '| cat | 4 |',
].join('\n');

/** A GET as a browser revalidates: fetch() would add `Cache-Control: no-cache` to a conditional request, which asks the server not to answer 304. */
function statusOf(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    }).on('error', reject);
  });
}

/** Every URL a page links or loads, but its empty icon (`data:,`, which keeps browsers from asking for /favicon.ico). */
function hrefs(html: string): string[] {
  return [...html.matchAll(/\s(?:href|src)="([^"]*)"/g)].map((m) => m[1]!).filter((url) => url !== 'data:,');
}

forEachDatabase('docs pages: rendered documentation of stored APIs and /docs', (target) => {
  let server: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let token: string;
  let publicId: string;
  let secretId: string;
  let account: number;

  async function ok(response: Promise<Response>, status = 200): Promise<Response> {
    const answered = await response;
    expect(answered.status, await answered.clone().text()).to.equal(status);
    return answered;
  }

  before(async function () {
    this.timeout(60_000);
    server = await startTestServerOn(target, { JSON_MAX_BYTES: '65536' });
    ada = await server.user('ada@example.com', 'ada');
    bob = await server.user('bob@example.com', 'bob');
    token = await server.token(ada, SCOPES);
    account = ada.accountId;

    const petstore = swaggerFixture('petstore.yaml');
    const imported = await ok(
      server.multipart('POST', `/api/${account}/import`, token, [
        { name: 'body', value: JSON.stringify({ type: 'public', nickname: 'petstore', createRelease: true, releaseVersion: '1.0.0' }) },
        { name: 'spec', value: petstore.bytes, filename: 'petstore.yaml', type: 'text/yaml' },
      ]),
      201,
    );
    publicId = ((await imported.json()) as { api: { id: string } }).api.id;
    const releases = `/api/${account}/${publicId}/releases`;
    for (const version of ['1.1.0', '1.2.0', '0.1.0']) await ok(server.request('POST', releases, { token, body: { version } }), 201);
    await ok(server.request('POST', `${releases}/1.0.0/end-of-life`, { token }));
    await ok(server.request('POST', `${releases}/1.1.0/deprecate`, { token }));
    await ok(server.request('DELETE', `${releases}/0.1.0`, { token }), 204);
    // The latest spec moves on after the releases: only it has /v2-only.
    const next = JSON.parse(swaggerFixture('petstore.json').bytes.toString('utf8')) as { info: { version: string }; paths: Record<string, unknown> };
    next.info.version = '2.0.0';
    next.paths['/v2-only'] = { get: { tags: ['pet'], summary: 'Only in the latest spec', responses: { '200': { description: 'fine' } } } };
    await ok(server.request('PUT', `/api/${account}/${publicId}/spec`, { token, body: JSON.stringify(next), headers: { 'Content-Type': 'application/json' } }));
    await ok(server.request('POST', `/api/${account}/${publicId}/pages`, { token, body: { title: 'Getting <started>', slug: 'getting-started', body: HOSTILE_GUIDE, position: 0 } }), 201);
    await ok(server.request('POST', `/api/${account}/${publicId}/pages`, { token, body: { title: 'Authentication', slug: 'auth', body: 'Send `api_key`.', position: 1 } }), 201);

    const secret = await ok(server.request('POST', `/api/${account}`, { token, body: { name: 'Secret plans', nickname: 'secret-plans' } }), 201);
    secretId = ((await secret.json()) as { id: string }).id;
    await ok(server.request('POST', `/api/${account}/${secretId}/pages`, { token, body: { title: 'Internal', slug: 'internal', body: 'Only for us.' } }), 201);
  });

  after(async () => {
    await server?.stop();
  });

  /** Signs `user` in through the login page the private page sends them to; returns where the form's 303 goes. */
  async function signIn(browser: FormBrowser, user: TestUser, path: string): Promise<string> {
    const first = await browser.get(path);
    expect(first.status, 'not signed in yet').to.equal(303);
    const login = await browser.get(first.headers.get('location')!);
    expect(login.status).to.equal(200);
    const fields = hiddenFields(browser.lastPage);
    const posted = await browser.post('/login', { ...fields, email: user.email, password: user.password });
    expect(posted.status, browser.lastPage).to.equal(303);
    return posted.headers.get('location')!;
  }

  describe('a public API', () => {
    it('is shown to anyone without signing in: name, description, the latest reference with parameters, responses and models, versions and guides', async () => {
      const response = await ok(fetch(`${server.url}/docs/${account}/petstore`));
      expect(response.headers.get('content-type')).to.equal('text/html; charset=utf-8');
      expect(response.headers.get('content-security-policy')).to.equal(PAGE_CSP);
      expect(response.headers.get('cache-control')).to.equal('no-cache');
      expect(response.headers.get('x-frame-options')).to.equal('DENY');
      const html = await response.text();
      expect(html).to.include('<title>Swagger Petstore · Specbase</title>');
      expect(html).to.include('<h1>Swagger Petstore</h1>');
      expect(html).to.include('Latest · version 2.0.0');
      expect(html).to.match(/This is a sample server Petstore server/);
      expect(html).to.include('<span class="sb-method get">GET</span> <code>/pet/{petId}</code>');
      expect(html).to.include('<p class="sb-summary">Find pet by ID</p>');
      expect(html).to.include('<tr><td><code>petId</code> <span class="sb-required">required</span></td><td>path</td><td><code>integer</code> (int64)</td><td>ID of pet to return</td></tr>');
      expect(html).to.include('<tr><td><code>200</code></td><td>successful operation</td><td><code>application/xml</code>, <code>application/json</code>: <a href="#model-pet"><code>Pet</code></a></td></tr>');
      expect(html).to.include('<section class="sb-model" id="model-pet"><h3>Pet</h3>');
      expect(html).to.include('Only in the latest spec');
      expect(html).to.include(`<a href="/docs/${account}/petstore" aria-current="page">Latest (2.0.0)</a>`);
      expect(html).to.include(`<a href="/docs/${account}/petstore/1.0.0">1.0.0</a> <span class="sb-badge endOfLife">end of life</span>`);
      expect(html).to.include(`<a href="/docs/${account}/petstore/1.1.0">1.1.0</a> <span class="sb-badge deprecated">deprecated</span>`);
      expect(html).to.include(`<a href="/docs/${account}/petstore/1.2.0">1.2.0</a></li>`);
      expect(html, 'a deleted release is not listed').to.not.include('0.1.0');
      expect(html).to.include(`<a href="/docs/${account}/petstore/guides/getting-started">Getting &#60;started&#62;</a>`);
      expect(html).to.include(`<a href="/docs/${account}/petstore/guides/auth">Authentication</a>`);
      expect(html, 'no script on the page').to.not.match(/<script/i);
    });

    it('shows a release’s frozen spec; deprecated and end-of-life releases carry a banner, a released one none', async () => {
      const deprecated = await (await ok(fetch(`${server.url}/docs/${account}/petstore/1.1.0`))).text();
      expect(deprecated).to.include('<title>Swagger Petstore 1.1.0 · Specbase</title>');
      expect(deprecated).to.include('Version 1.1.0 · deprecated · released ');
      expect(deprecated).to.include(`<div class="sb-banner deprecated" role="note" aria-label="Release status"><strong>Version 1.1.0 is deprecated.</strong> It still works, but will reach its end of life: move to <a href="/docs/${account}/petstore">the latest version</a>.</div>`);
      expect(deprecated).to.include('<code>/pet/{petId}</code>');
      expect(deprecated, 'the release was made before /v2-only').to.not.include('/v2-only');
      expect(deprecated).to.include(`<a href="/docs/${account}/petstore/1.1.0" aria-current="page">1.1.0</a>`);

      const ended = await (await ok(fetch(`${server.url}/docs/${account}/petstore/1.0.0`))).text();
      expect(ended).to.include('<div class="sb-banner endOfLife" role="note" aria-label="Release status"><strong>Version 1.0.0 has reached its end of life.</strong> It is no longer supported');

      const released = await (await ok(fetch(`${server.url}/docs/${account}/petstore/1.2.0`))).text();
      expect(released).to.include('Version 1.2.0 · released · released ');
      expect(released).to.not.include('sb-banner');
    });

    it('renders a guide’s Markdown with its HTML as text and its javascript:, data: and vbscript: links dropped', async () => {
      const response = await ok(fetch(`${server.url}/docs/${account}/petstore/guides/getting-started`));
      expect(response.headers.get('content-security-policy')).to.equal(PAGE_CSP);
      const html = await response.text();
      expect(html).to.include('<title>Getting &#60;started&#62; · Swagger Petstore · Specbase</title>');
      expect(html).to.include('<h1>Getting &#60;started&#62;</h1>');
      expect(html, 'the guide’s headings go below the page’s h1').to.include('<article class="sb-guide"><h2>Getting started</h2>');
      expect(html).to.include('Welcome to the &lt;b&gt;pet&lt;/b&gt; store.&lt;script&gt;alert(&quot;guide&quot;)&lt;/script&gt;');
      expect(html).to.include('&lt;img src=x onerror=alert(1)&gt;');
      expect(html).to.include('<a href="https://example.com/pets">safe link</a>');
      expect(html).to.include('<a href="/docs">a relative one</a>');
      expect(html).to.include('<th class="align-left">Pet</th>');
      expect(html).to.include('<td class="align-right">4</td>');
      expect(html, 'no script, image, event handler or inline style: the markup is text').to.not.match(/<script|<img|<[a-z][^>]*\son[a-z]+=|style="/i);
      for (const url of hrefs(html)) expect(url, url).to.match(/^(https:\/\/example\.com\/pets|\/docs(\/|$|\?|#)|\/login\?|#)/);
      expect(html).to.include('[click me](javascript:alert(document.cookie))');
      expect(html, 'the guide is marked as the page shown').to.include('aria-current="page">Getting &#60;started&#62;</a>');
    });

    it('answers an unknown version, a deleted release, an unknown guide or any other address under /docs with a 404 page', async () => {
      for (const path of [`/docs/${account}/petstore/9.9.9`, `/docs/${account}/petstore/0.1.0`, `/docs/${account}/petstore/guides/nope`, `/docs/${account}/petstore/1.0.0/extra`, '/docs/nobody']) {
        const response = await fetch(server.url + path, { redirect: 'manual' });
        expect(response.status, path).to.equal(404);
        expect(response.headers.get('content-type'), path).to.equal('text/html; charset=utf-8');
        expect(response.headers.get('content-security-policy'), path).to.equal(PAGE_CSP);
        expect(await response.text(), path).to.include('<h1>Not found</h1>');
      }
    });
  });

  describe('a private API', () => {
    it('sends a visitor who is not signed in to the login page and back, for its pages and for pages that do not exist alike', async () => {
      for (const path of [`/docs/${account}/secret-plans`, `/docs/${account}/secret-plans/1.0.0`, `/docs/${account}/secret-plans/guides/internal`, `/docs/${account}/no-such-api`, '/docs/424242/secret-plans']) {
        const response = await fetch(server.url + path, { redirect: 'manual' });
        expect(response.status, path).to.equal(303);
        expect(response.headers.get('location'), path).to.equal(`/login?continue=${encodeURIComponent(path)}`);
        expect(response.headers.get('cache-control'), path).to.equal('no-store');
        expect(await response.text(), path).to.not.include('Secret plans');
      }
    });

    it('is shown to its owner after signing in through the login form, which comes back to the page', async () => {
      const browser = new FormBrowser(server.url);
      const path = `/docs/${account}/secret-plans`;
      const back = await signIn(browser, ada, path);
      expect(back).to.equal(path);
      const session = browser.cookies.get('sb_session');
      expect(session, 'the login session').to.be.a('string');
      const page = await browser.get(path);
      expect(page.status, browser.lastPage).to.equal(200);
      expect(page.headers.get('cache-control')).to.equal('no-store');
      expect(page.headers.get('content-security-policy')).to.equal(PAGE_CSP);
      expect(browser.lastPage).to.include('<h1>Secret plans</h1>');
      expect(browser.lastPage).to.include('<span class="sb-badge">private</span>');
      expect(browser.lastPage).to.include('This API has no spec yet.');
      const guide = await browser.get(`${path}/guides/internal`);
      expect(guide.status).to.equal(200);
      expect(browser.lastPage).to.include('<p>Only for us.</p>');
      expect((await browser.get(`/docs/${account}/no-such-api`)).status, 'signed in, nothing there: 404').to.equal(404);
    });

    it('is a 404 to another signed-in user, the same page as for an API that does not exist, until the owner shares it', async () => {
      const browser = new FormBrowser(server.url);
      const path = `/docs/${account}/secret-plans`;
      await signIn(browser, bob, path);
      const hidden = await browser.get(path);
      const hiddenPage = browser.lastPage;
      const absent = await browser.get(`/docs/${account}/no-such-apx`);
      const absentPage = browser.lastPage;
      expect([hidden.status, absent.status]).to.deep.equal([404, 404]);
      const normalise = (html: string, p: string) => html.replace(encodeURIComponent(p), 'PATH');
      expect(normalise(hiddenPage, path), 'nothing tells a private API from none').to.equal(normalise(absentPage, `/docs/${account}/no-such-apx`));
      expect(hiddenPage).to.not.include('Secret plans');
      expect([...hidden.headers].filter(([name]) => !['date', 'x-request-id', 'content-length'].includes(name))).to.deep.equal(
        [...absent.headers].filter(([name]) => !['date', 'x-request-id', 'content-length'].includes(name)),
      );

      const share = await ok(server.request('POST', `/api/${account}/${secretId}/shares`, { token, body: { email: bob.email, role: 'viewer' } }), 201);
      expect((await browser.get(path)).status, 'shared with bob').to.equal(200);
      expect(browser.lastPage).to.include('<h1>Secret plans</h1>');
      await ok(server.request('DELETE', `/api/${account}/${secretId}/shares/${((await share.json()) as { id: string }).id}`, { token }), 204);
      expect((await browser.get(path)).status, 'the share revoked').to.equal(404);
    });

    it('becomes visible to anyone once made public, and hidden again when made private', async () => {
      const path = `/docs/${account}/secret-plans`;
      await ok(server.request('PATCH', `/api/${account}/${secretId}`, { token, body: { type: 'public' } }));
      expect((await fetch(server.url + path, { redirect: 'manual' })).status).to.equal(200);
      await ok(server.request('PATCH', `/api/${account}/${secretId}`, { token, body: { type: 'private' } }));
      expect((await fetch(server.url + path, { redirect: 'manual' })).status).to.equal(303);
    });
  });

  describe('the login page for the docs', () => {
    it('goes back only to a path of this origin; anything else goes to /docs', async () => {
      const cases: [string, string][] = [
        [`/docs/${account}/petstore?x=1#models`, `/docs/${account}/petstore?x=1#models`],
        ['https://evil.example/x', '/docs'],
        ['//evil.example/x', '/docs'],
        ['/\\evil.example/x', '/docs'],
        ['\\/evil.example', '/docs'],
        ['/\t/evil.example', '/docs'],
        ['javascript:alert(1)', '/docs'],
        [' /docs/1', '/docs'],
        ['/docs\r\nSet-Cookie: x=y', '/docs'],
        ['docs/1', '/docs'],
        [`/${'a'.repeat(3000)}`, '/docs'],
      ];
      for (const [given, expected] of cases) {
        const browser = new FormBrowser(server.url);
        expect((await browser.get(`/login?${new URLSearchParams({ continue: given }).toString()}`)).status).to.equal(200);
        const fields = hiddenFields(browser.lastPage);
        expect(fields['continue'], given).to.equal(expected);
        // A form made elsewhere may carry any continue: the POST checks it again.
        const posted = await browser.post('/login', { csrf: fields['csrf']!, continue: given, email: ada.email, password: ada.password });
        expect(posted.status, given).to.equal(303);
        expect(posted.headers.get('location'), given).to.equal(expected);
      }
    });

    it('keeps the person on the page with an alert for a wrong password, and refuses a form without its CSRF cookie', async () => {
      const browser = new FormBrowser(server.url);
      await browser.get('/login?continue=%2Fdocs%2F1%2Fx');
      const fields = hiddenFields(browser.lastPage);
      const wrong = await browser.post('/login', { ...fields, email: ada.email, password: 'not the passphrase' });
      expect(wrong.status).to.equal(200);
      expect(browser.lastPage).to.include('<p class="error" role="alert">The e-mail or password is wrong.</p>');
      expect(hiddenFields(browser.lastPage)['continue']).to.equal('/docs/1/x');
      expect(browser.cookies.has('sb_session')).to.equal(false);

      const forged = await fetch(`${server.url}/login`, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ csrf: fields['csrf']!, continue: '/docs', email: ada.email, password: ada.password }) });
      expect(forged.status).to.equal(403);
      expect(forged.headers.getSetCookie().some((c) => c.startsWith('sb_session='))).to.equal(false);
    });

    it('answers a body it cannot read with an HTML page, not a 500', async () => {
      const large = await fetch(`${server.url}/login`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: `email=${'a'.repeat(20_000)}` });
      expect(large.status).to.equal(413);
      expect(large.headers.get('content-type')).to.equal('text/html; charset=utf-8');
      const json = await fetch(`${server.url}/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"email":"x"}' });
      expect(json.status, 'no CSRF field: refused').to.equal(403);
    });
  });

  describe('addresses no API can have', () => {
    it('are a 404 page, never a 500, signed in or not (not signed in, a valid-looking one asks to sign in first)', async () => {
      const browser = new FormBrowser(server.url);
      await signIn(browser, bob, `/docs/${account}/secret-plans`);
      const paths = [
        '/docs/abc/petstore',
        '/docs/0/petstore',
        '/docs/-1/petstore',
        '/docs/99999999999999999999/petstore',
        '/docs/2147483648/petstore',
        `/docs/${account}/PetStore`,
        `/docs/${account}/pet%00store`,
        `/docs/${account}/%E0%A4`,
        `/docs/${account}/petstore/%00`,
        `/docs/${account}/petstore/..%2F1.0.0`,
        `/docs/${account}/petstore/guides/%00`,
        `/docs/${account}/petstore/guides/UPPER`,
        `/docs/${account}/${'a'.repeat(65)}`,
        '/docs/assets/index.html',
        '/docs/assets/swagger-ui-bundle.js.map',
        '/docs/assets/..%2F..%2Fpackage.json',
        '/docs/assets/__proto__',
      ];
      for (const path of paths) {
        const signedIn = await browser.get(path);
        expect(signedIn.status, `signed in: ${path}`).to.equal(404);
        expect(signedIn.headers.get('content-type'), path).to.equal('text/html; charset=utf-8');
        const anonymous = await fetch(server.url + path, { redirect: 'manual' });
        expect([303, 404], `anonymous: ${path}`).to.include(anonymous.status);
      }
      // An account id no account can have is refused before anything is read: no sign-in detour.
      for (const path of paths.filter((p) => !p.startsWith(`/docs/${account}/`) && !p.startsWith('/docs/assets/'))) {
        const anonymous = await fetch(server.url + path, { redirect: 'manual' });
        expect(anonymous.status, `anonymous: ${path}`).to.equal(404);
      }
    });
  });

  describe('/docs: the service’s own reference in Swagger UI', () => {
    it('is a page without inline script that loads Swagger UI from the package’s own files and points it at /openapi.json', async () => {
      const response = await ok(fetch(`${server.url}/docs`));
      expect(response.headers.get('content-type')).to.equal('text/html; charset=utf-8');
      expect(response.headers.get('content-security-policy')).to.equal(SWAGGER_CSP);
      const html = await response.text();
      expect(html).to.include('<div id="swagger-ui" data-url="/openapi.json"></div>');
      const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts.map((m) => m[1]!.match(/src="([^"?]+)/)?.[1])).to.deep.equal(['/docs/assets/swagger-ui-bundle.js', '/docs/assets/swagger-initializer.js']);
      expect(scripts.every((m) => m[2] === ''), 'no inline script').to.equal(true);
      for (const url of hrefs(html)) expect(url, 'nothing from elsewhere').to.match(/^\/(docs|openapi\.json)/);
    });

    it('serves the package’s files as they are, for a year when the URL names their content, revalidated otherwise, gzipped on request', async () => {
      const html = await (await ok(fetch(`${server.url}/docs`))).text();
      const bundleUrl = /src="(\/docs\/assets\/swagger-ui-bundle\.js\?v=[^"]+)"/.exec(html)![1]!;
      const bundle = await ok(fetch(server.url + bundleUrl, { headers: { 'Accept-Encoding': 'identity' } }));
      expect(bundle.headers.get('content-type')).to.equal('text/javascript; charset=utf-8');
      expect(bundle.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
      expect(Buffer.from(await bundle.arrayBuffer()).equals(readFileSync(join(SWAGGER_UI_DIST, 'swagger-ui-bundle.js'))), 'the package’s file').to.equal(true);
      const etag = bundle.headers.get('etag')!;
      expect(etag).to.match(/^"[A-Za-z0-9_-]{16}"$/);

      const compressed = await ok(fetch(server.url + bundleUrl));
      expect(compressed.headers.get('content-encoding')).to.equal('gzip');
      expect((await compressed.arrayBuffer()).byteLength, 'fetch decodes it').to.equal(readFileSync(join(SWAGGER_UI_DIST, 'swagger-ui-bundle.js')).length);

      const unversioned = await ok(fetch(`${server.url}/docs/assets/swagger-ui-bundle.js`));
      expect(unversioned.headers.get('cache-control')).to.equal('public, no-cache');
      expect(await statusOf(`${server.url}/docs/assets/swagger-ui-bundle.js`, { 'If-None-Match': etag }), 'revalidated').to.equal(304);

      const css = await ok(fetch(`${server.url}/docs/assets/swagger-ui.css`));
      expect(css.headers.get('content-type')).to.equal('text/css; charset=utf-8');
      expect(await css.text()).to.equal(readFileSync(join(SWAGGER_UI_DIST, 'swagger-ui.css'), 'utf8'));
      const initializer = await (await ok(fetch(`${server.url}/docs/assets/swagger-initializer.js`))).text();
      expect(initializer).to.include("url: root.getAttribute('data-url')");
      expect(initializer).to.include('validatorUrl: null');
    });
  });
});
