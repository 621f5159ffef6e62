import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import type { DatabaseTarget } from './databases.js';

/** Debian's Chromium (scripts/install-chromium.sh), driven by playwright-core: Playwright's own download does not work here. */
export const CHROMIUM = '/usr/bin/chromium';
const requireBrowser = process.env['SPECBASE_REQUIRE_BROWSER'] === 'true';

/** Where browser suites put their screenshots (git-ignored). */
export const ARTIFACTS_ROOT = join(resolve(dirname(fileURLToPath(import.meta.url)), '../..'), 'test-artifacts');

/** SQLite only: the pages do not depend on the database, and the HTTP suites cover both. */
export const sqliteForBrowser: DatabaseTarget = {
  name: 'sqlite',
  async create() {
    const dir = mkdtempSync(join(tmpdir(), 'specbase-e2e-'));
    return { config: { kind: 'sqlite', path: join(dir, 'test.sqlite') }, dispose: async () => rmSync(dir, { recursive: true, force: true }) };
  },
};

/** Registers the suite when Chromium is there; otherwise pending, or failing under SPECBASE_REQUIRE_BROWSER=true (CI). */
export function describeWithBrowser(title: string, body: (this: Mocha.Suite) => void): void {
  if (existsSync(CHROMIUM)) {
    describe(title, body);
  } else if (requireBrowser) {
    describe(title, () => {
      it(`needs Chromium at ${CHROMIUM}: run scripts/install-chromium.sh (SPECBASE_REQUIRE_BROWSER=true)`, () => {
        throw new Error(`${CHROMIUM} is missing`);
      });
    });
  } else {
    console.log(`\n  Browser suite skipped: ${CHROMIUM} is missing; run scripts/install-chromium.sh to run it.\n`);
    describe.skip(`${title} (skipped: ${CHROMIUM} missing; run scripts/install-chromium.sh)`, () => {
      it('drives the pages in Chromium');
    });
  }
}

export function launchChromium(): Promise<Browser> {
  // Playwright picks the user-data-dir (a fresh temporary one) itself.
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
