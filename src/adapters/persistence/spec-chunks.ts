import { createHash } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * Content-defined chunking of spec texts, so that the spec history stores what changed between
 * revisions rather than every revision whole (ADR 0023). A gear hash rolls over the text; a chunk
 * ends where its low 13 bits are zero (they depend on the last 13 characters: about every 8 K
 * characters of varied text, every 27 K of GHES's JSON), never before 2 K nor after 64 K characters. Boundaries depend on the content around them, not on offsets: an insertion
 * changes the chunk it falls in (and maybe the next), and every other chunk keeps its hash.
 * Chunks never split a surrogate pair, so each is valid UTF-8 on its own. Each is stored deflated
 * (level 1: about a sixth of a JSON chunk's size, at some 5 ms a megabyte).
 */
const MIN_CHUNK = 2 * 1024;
const MAX_CHUNK = 64 * 1024;
const MASK = (1 << 13) - 1;

/** 256 fixed pseudo-random 32-bit numbers (xorshift32 from a fixed seed): the same chunks on every machine, forever. */
const GEAR = (() => {
  const table = new Uint32Array(256);
  let x = 0x9e3779b9;
  for (let i = 0; i < 256; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    table[i] = x;
  }
  return table;
})();

export function chunkText(text: string): string[] {
  const chunks: string[] = [];
  let start = 0;
  let hash = 0;
  for (let i = 0; i < text.length; i++) {
    hash = ((hash << 1) + GEAR[text.charCodeAt(i) & 0xff]!) >>> 0;
    const length = i + 1 - start;
    if ((length >= MIN_CHUNK && (hash & MASK) === 0) || length >= MAX_CHUNK) {
      let end = i + 1;
      // A high surrogate stays with its low one.
      const last = text.charCodeAt(i);
      if (last >= 0xd800 && last <= 0xdbff && end < text.length) end += 1;
      chunks.push(text.slice(start, end));
      start = end;
      i = end - 1;
      hash = 0;
    }
  }
  if (start < text.length || chunks.length === 0) chunks.push(text.slice(start));
  return chunks;
}

/** The key of a chunk's text: SHA-256, base64url (43 characters). */
export function chunkKey(chunk: string): string {
  return createHash('sha256').update(chunk, 'utf8').digest('base64url');
}

/** A text as the keys of its chunks, and the chunks by key. */
export function chunked(text: string): { readonly keys: string[]; readonly chunks: Map<string, string> } {
  const chunks = new Map<string, string>();
  const keys = chunkText(text).map((chunk) => {
    const key = chunkKey(chunk);
    chunks.set(key, chunk);
    return key;
  });
  return { keys, chunks };
}

/** A chunk as stored: its UTF-8 bytes, deflated. */
export function packChunk(chunk: string): Buffer {
  return deflateRawSync(Buffer.from(chunk, 'utf8'), { level: 1 });
}

export function unpackChunk(stored: Uint8Array): string {
  return inflateRawSync(stored).toString('utf8');
}
