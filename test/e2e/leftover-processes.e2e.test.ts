import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../support/built-cli.js';
import { pidRunning } from '../support/processes.js';

describe('e2e: a failing or timed-out test stops the processes it started', function () {
  this.timeout(60_000);

  it('a mocha run of tests that fail, time out and forget their servers leaves none running', () => {
    const dir = mkdtempSync(join(tmpdir(), 'specbase-leftovers-'));
    try {
      const pidsFile = join(dir, 'pids');
      const run = spawnSync(process.execPath, [join(ROOT, 'node_modules/mocha/bin/mocha.js'), 'test/fixtures/processes/leaves-processes.fixture.ts', '--reporter', 'dot'], {
        cwd: ROOT,
        env: { ...process.env, PIDS_FILE: pidsFile },
        encoding: 'utf8',
        timeout: 50_000,
      });
      expect(run.status, `${run.stdout}\n${run.stderr}`).to.equal(2); // two failures: the failing test and the timed-out one
      expect(run.stdout).to.match(/fails on purpose/).and.match(/Timeout of 1000ms exceeded/);

      const lines = readFileSync(pidsFile, 'utf8').trim().split('\n');
      const pids = new Map(lines.filter((l) => /^\S+ \d+$/.test(l)).map((l) => [l.split(' ')[0]!, Number(l.split(' ')[1])]));
      expect([...pids.keys()]).to.deep.equal(['suite', 'failed', 'timed-out', 'passed']);
      expect(lines.at(-1), 'during the run: each test’s server stopped after it, the suite’s kept').to.equal('seen-alive 0 suite-alive true');
      for (const [what, pid] of pids) expect(pidRunning(pid), `${what} (pid ${pid}) after the run`).to.equal(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
