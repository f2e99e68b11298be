import { Readable } from 'node:stream';
import type { EntrySource } from './sink.js';
import { EntrySourceError } from './sink.js';

/**
 * The chunks of `source` as Buffers. Any error raised while pulling from the
 * source (or a chunk that is neither bytes nor a string) becomes an
 * EntrySourceError, so a sink can tell a broken source from its own failures.
 * If the consumer stops early, `for await` calls the source iterator's
 * `return()`, which destroys a Readable source and frees its connection.
 */
export async function* readSourceChunks(path: string, source: EntrySource): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of source as AsyncIterable<unknown>) {
      yield toBuffer(chunk);
    }
  } catch (error: unknown) {
    throw new EntrySourceError(path, { cause: error });
  }
}

function toBuffer(chunk: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  if (typeof chunk === 'string') return Buffer.from(chunk, 'utf8');
  throw new TypeError(`an entry source yielded a ${typeof chunk}, expected Uint8Array or string`);
}

/**
 * A refused entry's source is never read; destroying a Readable makes sure the
 * HTTP stream behind it does not keep a socket open. A plain async iterable has
 * not been started, so there is nothing to release.
 */
export function discardSource(source: EntrySource): void {
  if (source instanceof Readable) source.destroy();
}

/**
 * Gathers small chunks into pieces of at least `bytes` (the last may be
 * smaller), so a file gets few large writes instead of one per network read.
 */
export async function* coalesceChunks(chunks: AsyncIterable<Buffer>, bytes: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    pending.push(chunk);
    size += chunk.byteLength;
    if (size >= bytes) {
      yield pending.length === 1 ? chunk : Buffer.concat(pending, size);
      pending = [];
      size = 0;
    }
  }
  if (size > 0) yield Buffer.concat(pending, size);
}
