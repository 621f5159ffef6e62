import { runEnded, testEnded, testStarted } from './processes.js';

/**
 * Mocha root hooks (.mocharc.cjs `require`): a root beforeEach runs before every suite's own
 * beforeEach and a root afterEach after every suite's own afterEach, so what a test started and
 * its suite did not stop is stopped here, passed, failed or timed out alike.
 */
export const mochaHooks = {
  beforeEach(): void {
    testStarted();
  },
  async afterEach(): Promise<void> {
    await testEnded();
  },
  async afterAll(): Promise<void> {
    await runEnded();
  },
};
