import { Busboy, type BusboyFileStream } from '@fastify/busboy';
import type { Context } from 'koa';
import { throwProblem } from './middleware.js';
import { HttpProblem, problemOf, type Problem } from './problem.js';

export interface Part {
  /** `undefined` for a part whose Content-Disposition has no `name`. */
  readonly name: string | undefined;
  /** Present for file parts (`filename=` in Content-Disposition). */
  readonly filename: string | undefined;
  readonly mimeType: string;
  readonly data: Buffer;
}

/** At most this many parts: import needs two, so a flood of parts is refused early. */
const MAX_PARTS = 8;

export function tooLarge(maxBytes: number): Problem {
  return problemOf('payload_too_large', `The request body is larger than ${maxBytes} bytes (IMPORT_MAX_BYTES).`, { headers: { Connection: 'close' } });
}

const badMultipart = (detail: string): Problem => problemOf('invalid_multipart', detail);

/** 413 from Content-Length before reading anything; 415 for compressed bodies. */
function refuseUpfront(ctx: Context, maxBytes: number): void {
  const declared = Number(ctx.get('Content-Length'));
  if (Number.isFinite(declared) && declared > maxBytes) throwProblem(tooLarge(maxBytes));
  const encoding = ctx.get('Content-Encoding').toLowerCase();
  if (encoding !== '' && encoding !== 'identity') {
    throwProblem(problemOf('unsupported_media_type', `Content-Encoding ${encoding} is not accepted here.`));
  }
}

/** Stops reading a request we have answered already; Node closes the connection after the reply. */
function abandon(ctx: Context): void {
  ctx.req.unpipe();
  ctx.req.resume();
}

/**
 * Reads a multipart/form-data body into memory with @fastify/busboy: every part, field or file, as
 * bytes, the whole request held to `maxBytes` (413 beyond it, the rest unread), no temporary
 * files. Malformed multipart is a 400.
 */
export function readMultipart(ctx: Context, maxBytes: number): Promise<Part[]> {
  refuseUpfront(ctx, maxBytes);
  let parser: InstanceType<typeof Busboy>;
  try {
    parser = new Busboy({
      headers: ctx.req.headers as { 'content-type': string },
      limits: { parts: MAX_PARTS, fileSize: maxBytes, fieldSize: maxBytes, headerPairs: 20 },
      // Every part is read as a stream, so a `body` part with its own Content-Type and a plain
      // `body` field arrive alike.
      isPartAFile: () => true,
    });
  } catch {
    throwProblem(badMultipart('The multipart/form-data body has no boundary.'));
  }
  return new Promise<Part[]>((resolve, reject) => {
    const parts: Part[] = [];
    const reading: Promise<void>[] = [];
    let total = 0;
    let failed = false;
    const fail = (problem: Problem) => {
      if (failed) return;
      failed = true;
      abandon(ctx);
      reject(new HttpProblem(problem));
    };
    // busboy's types say string, but a part without `name=` arrives with none.
    parser.on('file', (name: string | undefined, stream: BusboyFileStream, filename: string | undefined, _encoding: string, mimeType: string) => {
      const chunks: Buffer[] = [];
      reading.push(
        new Promise<void>((done) => {
          stream.on('data', (chunk: Buffer) => {
            total += chunk.length;
            if (total > maxBytes) fail(tooLarge(maxBytes));
            else chunks.push(chunk);
          });
          stream.on('limit', () => fail(tooLarge(maxBytes)));
          stream.on('end', () => {
            parts.push({ name, filename: filename === '' ? undefined : filename, mimeType, data: Buffer.concat(chunks) });
            done();
          });
          stream.on('error', () => done());
        }),
      );
    });
    parser.on('partsLimit', () => fail(badMultipart(`At most ${MAX_PARTS} parts are accepted.`)));
    parser.on('error', (error: Error) => fail(badMultipart(`The multipart/form-data body is malformed: ${error.message}`)));
    parser.on('finish', () => {
      void Promise.all(reading).then(() => {
        if (!failed) resolve(parts);
      });
    });
    ctx.req.on('aborted', () => fail(badMultipart('The request was aborted.')));
    ctx.req.pipe(parser);
  });
}

/**
 * A raw (non-multipart) body, held to `maxBytes`. Events rather than `for await`: leaving an async
 * iterator early destroys the socket, and the client would see a reset instead of the 413.
 */
export function readRaw(ctx: Context, maxBytes: number): Promise<Buffer> {
  refuseUpfront(ctx, maxBytes);
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let failed = false;
    ctx.req.on('data', (chunk: Buffer) => {
      if (failed) return;
      total += chunk.length;
      if (total <= maxBytes) {
        chunks.push(chunk);
        return;
      }
      failed = true;
      abandon(ctx);
      reject(new HttpProblem(tooLarge(maxBytes)));
    });
    ctx.req.on('end', () => {
      if (!failed) resolve(Buffer.concat(chunks));
    });
    ctx.req.on('aborted', () => {
      if (!failed) reject(new HttpProblem(badMultipart('The request was aborted.')));
    });
  });
}
