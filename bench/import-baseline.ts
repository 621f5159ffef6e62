/**
 * Benchmark child for bench/import.ts: the baseline of the import benchmark, i.e. parsing and
 * validating a Swagger document alone, with exactly the library calls SwaggerSpecCodec makes
 * (src/adapters/swagger/swagger-spec-codec.ts), and none of its other work (UTF-8 strictness,
 * depth and bracket checks, the JSON.stringify + JSON.parse copies, the shape check):
 *
 *   text  = TextDecoder().decode(bytes)
 *   value = JSON.parse(text)                                  (JSON)
 *         | yaml.parse(text, <the codec's options>)           (YAML)
 *   await SwaggerParser.validate(value, <the codec's options>)
 *
 * `value` is parsed afresh on every run, so the validator (which dereferences in place) always
 * gets a fresh copy. Reports `{ type: 'ready' }` over IPC, then answers each
 * `{ type: 'measure', id, file, format }` with `{ type: 'measured', id, ms, paths }` (ms: the
 * time of the three steps above, file read excluded) or `{ type: 'failed', id, message }`.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import SwaggerParser from '@apidevtools/swagger-parser';
import { parse as parseYaml } from 'yaml';
import { DEFAULT_SPEC_LIMITS } from '../src/adapters/swagger/swagger-spec-codec.js';

export interface MeasureMessage {
  readonly type: 'measure';
  readonly id: number;
  readonly file: string;
  readonly format: 'json' | 'yaml';
}

export type MeasuredMessage =
  | { readonly type: 'measured'; readonly id: number; readonly ms: number; readonly paths: number }
  | { readonly type: 'failed'; readonly id: number; readonly message: string };

const send = process.send?.bind(process);
if (!send) throw new Error('import-baseline.ts must be started by bench/import.ts (it reports over IPC)');

const files = new Map<string, Buffer>();

async function parseAndValidate(bytes: Uint8Array, format: 'json' | 'yaml'): Promise<unknown> {
  const text = new TextDecoder().decode(bytes);
  const value: unknown =
    format === 'json'
      ? JSON.parse(text)
      : parseYaml(text, { prettyErrors: false, maxAliasCount: DEFAULT_SPEC_LIMITS.maxAliasCount, merge: true, uniqueKeys: true });
  return SwaggerParser.validate(value as never, {
    resolve: { external: false },
    dereference: { circular: 'ignore' },
    validate: { schema: true, spec: true },
  });
}

async function measure(message: MeasureMessage): Promise<MeasuredMessage> {
  try {
    let bytes = files.get(message.file);
    if (bytes === undefined) {
      bytes = readFileSync(message.file);
      files.set(message.file, bytes);
    }
    const start = performance.now();
    const api = (await parseAndValidate(bytes, message.format)) as { paths?: Record<string, unknown> };
    const ms = performance.now() - start;
    return { type: 'measured', id: message.id, ms, paths: Object.keys(api.paths ?? {}).length };
  } catch (error) {
    return { type: 'failed', id: message.id, message: error instanceof Error ? error.message : String(error) };
  }
}

function isMeasureMessage(message: unknown): message is MeasureMessage {
  const m = message as Partial<MeasureMessage> | null;
  return typeof m === 'object' && m !== null && m.type === 'measure' && typeof m.id === 'number' && typeof m.file === 'string';
}

process.on('message', (message: unknown) => {
  if (!isMeasureMessage(message)) return;
  void measure(message).then((reply) => send(reply));
});

process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
process.on('disconnect', () => process.exit(0));

send({ type: 'ready' });
