import { expect } from 'chai';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { SCOPES } from '../../src/domain/token/scope.js';
import { ARTIFACTS_ROOT, describeWithBrowser, launchChromium, sqliteForBrowser } from '../support/chromium.js';
import { swaggerFixture } from '../support/fixtures.js';
import { startTestServerOn, type TestServer, type TestUser } from '../support/http-server.js';

/*
 * The documentation pages as a person sees them in headless Chromium: /docs (Swagger UI from the
 * package's own files, under its CSP) and a stored API's server-rendered pages with their guides,
 * release banner and the sign-in for a private API. The console must stay clean: a CSP violation or
 * a failed asset shows up there. Screenshots go to test-artifacts/docs-browser/ (git-ignored).
 */

const SUITE = 'e2e: docs pages in headless Chromium';
const ARTIFACTS = join(ARTIFACTS_ROOT, 'docs-browser');
const OPERATION_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const GUIDE = [
  '# Getting started',
  '',
  'Every request needs an **API key** in the `api_key` header.',
  '',
  '<script>alert("guide")</script> [click me](javascript:alert(1)) <img src=x onerror=alert(2)>',
].join('\n');

/** The (method, path) pairs of an OpenAPI description: what Swagger UI must show, one block each at least. */
function operationsOf(description: { paths?: Record<string, Record<string, unknown>> }): string[] {
  return Object.entries(description.paths ?? {}).flatMap(([path, item]) => Object.keys(item).filter((key) => OPERATION_METHODS.includes(key)).map((method) => `${method} ${path}`));
}

describeWithBrowser(SUITE, function () {
  let server: TestServer;
  let ada: TestUser;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let consoleErrors: string[];
  let dialogs: string[];

  before(async function () {
    this.timeout(60_000);
    server = await startTestServerOn(sqliteForBrowser);
    ada = await server.user('ada@example.com', 'ada');
    const token = await server.token(ada, SCOPES);
    const imported = await server.multipart('POST', `/api/${ada.accountId}/import`, token, [
      { name: 'body', value: JSON.stringify({ type: 'public', nickname: 'petstore', createRelease: true, releaseVersion: '1.0.0' }) },
      { name: 'spec', value: swaggerFixture('petstore.yaml').bytes, filename: 'petstore.yaml', type: 'text/yaml' },
    ]);
    expect(imported.status, await imported.clone().text()).to.equal(201);
    const api = `/api/${ada.accountId}/${((await imported.json()) as { api: { id: string } }).api.id}`;
    const steps = [
      await server.request('POST', `${api}/releases/1.0.0/deprecate`, { token }),
      await server.request('POST', `${api}/pages`, { token, body: { title: 'Getting started', slug: 'getting-started', body: GUIDE } }),
      await server.request('POST', `${api}/pages`, { token, body: { title: 'Errors', slug: 'errors', body: 'Errors are problem documents.' } }),
      await server.request('POST', `/api/${ada.accountId}`, { token, body: { name: 'Internal API', nickname: 'internal' } }),
    ];
    for (const step of steps) expect(step.status, await step.clone().text()).to.be.oneOf([200, 201]);
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  beforeEach(async () => {
    context = await browser.newContext();
    context.setDefaultTimeout(10_000);
    page = await context.newPage();
    consoleErrors = [];
    dialogs = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(`${message.text()} (${message.location().url})`);
    });
    page.on('pageerror', (error) => consoleErrors.push(String(error)));
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') {
      mkdirSync(ARTIFACTS, { recursive: true });
      const file = join(ARTIFACTS, `failed-${this.currentTest.title.replace(/[^a-z0-9]+/gi, '-').slice(0, 60)}.png`);
      await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
      console.log(`    browser at ${page.url()}; screenshot ${file}; console errors: ${JSON.stringify(consoleErrors)}`);
    }
    await context.close();
  });

  /** What the window shows (the reference pages are long; the HTTP tests read all of them). */
  async function screenshot(name: string): Promise<void> {
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, name) });
  }

  /** Waits for Swagger UI to render `description` and checks its title and that every operation has a block. */
  async function seeSwaggerUi(description: { info: { title: string }; paths?: Record<string, Record<string, unknown>> }): Promise<void> {
    await page.locator('.swagger-ui .info .title').waitFor();
    expect(await page.locator('.swagger-ui .info .title').innerText()).to.include(description.info.title);
    await page.locator('.opblock').first().waitFor();
    const shown: string[] = [];
    for (const block of await page.locator('.opblock').all()) {
      const method = /\bopblock-(get|put|post|delete|options|head|patch|trace)\b/.exec((await block.getAttribute('class')) ?? '')?.[1];
      shown.push(`${method} ${await block.locator('[data-path]').first().getAttribute('data-path')}`);
    }
    const expected = operationsOf(description);
    expect(expected.length, 'the description has operations').to.be.greaterThan(0);
    expect([...new Set(shown)].sort()).to.deep.equal([...new Set(expected)].sort());
  }

  it('/docs shows the service’s own description (GET /openapi.json) in Swagger UI, every operation of it, with a clean console', async () => {
    // Needs GET /openapi.json, which the openapi branch adds: until that is merged, this test fails here, by design.
    const served = await fetch(`${server.url}/openapi.json`);
    expect(served.status, 'GET /openapi.json must answer: this test needs the openapi branch merged').to.equal(200);
    const description = (await served.json()) as { openapi: string; info: { title: string }; paths: Record<string, Record<string, unknown>> };
    await page.goto(`${server.url}/docs`);
    expect(await page.title()).to.equal('Specbase HTTP API reference');
    await seeSwaggerUi(description);
    await screenshot('docs-swagger-ui.png');
    expect(consoleErrors, 'browser console').to.deep.equal([]);
  });

  it('/docs renders whatever description /openapi.json answers (here a stub the browser is given), under the page’s CSP', async () => {
    // Checks the page itself (assets, initializer, CSP) independently of the real description.
    const stub = {
      openapi: '3.1.0',
      info: { title: 'Stub description for the /docs page', version: '0.0.1' },
      servers: [{ url: '/' }],
      paths: {
        '/stub/things': {
          get: { summary: 'List stub things', description: 'Things, *in order*, with `code`.', responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Thing' } } } } } } }, post: { summary: 'Make a stub thing', responses: { '201': { description: 'made' } } } },
        '/stub/things/{id}': { delete: { summary: 'Remove a stub thing', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: { '204': { description: 'gone' } } } },
      },
      components: { schemas: { Thing: { type: 'object', required: ['id'], properties: { id: { type: 'string', description: 'Its **name**' }, size: { type: 'integer', enum: [1, 2] } } } } },
    };
    await page.route(`${server.url}/openapi.json`, (route) => route.fulfill({ json: stub }));
    await page.route(`${server.url}/stub/things`, (route) => route.fulfill({ json: [{ id: 'one' }] }));
    await page.goto(`${server.url}/docs`);
    await seeSwaggerUi(stub);
    // Opening an operation renders its parameters, responses and highlighted examples: the parts that style inline.
    await page.locator('.opblock-summary-description', { hasText: 'Remove a stub thing' }).click();
    await page.locator('.opblock-delete .parameters .parameter__name', { hasText: 'id' }).waitFor();
    await page.locator('.opblock-summary-description', { hasText: 'List stub things' }).click();
    await page.locator('.opblock-get .responses-table .response-col_description', { hasText: 'ok' }).first().waitFor();
    await page.locator('.opblock-get').getByRole('button', { name: 'Try it out' }).click();
    await page.locator('.opblock-get').getByRole('button', { name: 'Execute' }).click();
    await page.locator('.opblock-get .live-responses-table .response-col_status', { hasText: '200' }).waitFor();
    const schemas = page.locator('section.models');
    await schemas.getByRole('button', { name: 'Thing' }).first().click();
    await schemas.getByText('size', { exact: true }).waitFor();
    await screenshot('docs-swagger-ui-stub.png');
    expect(consoleErrors, 'browser console').to.deep.equal([]);
  });

  it('a public API’s page shows its name, an endpoint, its guides (Markdown inert) and a deprecated release’s banner', async () => {
    await page.goto(`${server.url}/docs/${ada.accountId}/petstore`);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).to.equal('Swagger Petstore');
    const endpoint = page.getByRole('heading', { name: 'GET /pet/{petId}' });
    expect(await endpoint.isVisible()).to.equal(true);
    expect(await page.getByText('Find pet by ID').isVisible()).to.equal(true);
    expect(await page.locator('#model-pet').getByRole('heading', { name: 'Pet' }).isVisible()).to.equal(true);
    await screenshot('stored-api-latest.png');

    const sidebar = page.getByRole('navigation', { name: 'Documentation' });
    await sidebar.getByRole('link', { name: 'Getting started' }).click();
    await page.waitForURL(`${server.url}/docs/${ada.accountId}/petstore/guides/getting-started`);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).to.equal('Getting started');
    const guide = page.locator('article');
    expect(await guide.innerText()).to.include('Every request needs an API key in the api_key header.');
    expect(await guide.innerText(), 'the markup is shown as text').to.include('<script>alert("guide")</script> [click me](javascript:alert(1)) <img src=x onerror=alert(2)>');
    expect(await guide.getByRole('link').count(), 'no link made of javascript:').to.equal(0);
    expect(await guide.locator('img, script').count()).to.equal(0);
    expect(await sidebar.getByRole('link', { name: 'Errors' }).isVisible()).to.equal(true);
    await screenshot('stored-api-guide.png');

    await sidebar.getByRole('link', { name: '1.0.0', exact: true }).click();
    await page.waitForURL(`${server.url}/docs/${ada.accountId}/petstore/1.0.0`);
    const banner = page.getByRole('note', { name: 'Release status' });
    expect(await banner.innerText()).to.match(/^Version 1\.0\.0 is deprecated\.\s+It still works, but will reach its end of life: move to the latest version\.$/);
    expect(await page.getByRole('heading', { name: 'GET /pet/{petId}' }).isVisible()).to.equal(true);
    await screenshot('stored-api-deprecated-release.png');

    expect(dialogs, 'no script ran').to.deep.equal([]);
    expect(consoleErrors, 'browser console').to.deep.equal([]);
  });

  it('a private API’s page sends the visitor to sign in and, signed in, back to the page', async () => {
    const path = `/docs/${ada.accountId}/internal`;
    await page.goto(server.url + path);
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('continue')).to.equal(path);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).to.equal('Sign in');
    await page.getByLabel('E-mail', { exact: true }).fill(ada.email);
    await page.getByLabel('Password', { exact: true }).fill(ada.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(server.url + path);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).to.equal('Internal API');
    expect(await page.getByText('This API has no spec yet.').isVisible()).to.equal(true);
    await screenshot('private-api-after-sign-in.png');
    expect(consoleErrors, 'browser console').to.deep.equal([]);
  });
});
