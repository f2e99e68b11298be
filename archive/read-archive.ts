import { createReadStream } from 'node:fs';
import { PassThrough } from 'node:stream';
import type { Readable } from 'node:stream';
import { drainedOrClosed } from '../core/streams.js';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { extract as createExtract } from 'tar-stream';

/** One file of a dump read back from a .tar.gz. */
export interface ArchiveEntry {
  /** The entry's path inside the dump, as layout.ts built it. */
  readonly path: string;
  /** Its size in bytes, from the tar header. */
  readonly size: number;
  /** Its bytes; valid only until the next entry is requested (see readArchiveEntries). */
  readonly body: Readable;
}

/** A dump could not be read back: missing file, bad gzip, truncated tar, entry over a limit. */
export class ArchiveReadError extends Error {
  override readonly name = 'ArchiveReadError';
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
  }
}

/** Default limit of readArchiveToMap: ample for test fixtures, small enough to fail fast. */
/**
 * zlib hands out 16 KiB by default; 64 KiB pieces mean fewer callbacks and
 * fewer, larger scans downstream (bench/analyze: 14.5 s against 17.0 s; 256 KiB
 * was slower again).
 */
const GUNZIP_CHUNK_BYTES = 64 * 1024;

export const DEFAULT_MAX_BYTES_PER_ENTRY = 16 * 1024 * 1024;

/**
 * Streams the file entries of a `.tar.gz` (gunzip → tar-stream extract), never
 * extracting to disk and holding at most a few chunks in memory.
 *
 * A tar is sequential, so read (or pipe) each `body` before asking for the next
 * entry: when the next one is requested, whatever is left of the previous body
 * is drained and discarded, and the body is destroyed. Breaking out of the loop
 * closes the file. Directory and other non-file entries are skipped.
 * Throws ArchiveReadError; a body that cannot be read (truncated or corrupt
 * archive) fails with an ArchiveReadError too.
 */
export function readArchiveEntries(file: string): AsyncGenerator<ArchiveEntry> {
  return readArchiveStream(createReadStream(file), file);
}

/** The same from any byte stream of a `.tar.gz` (a GCS object, say); `label` names it in errors. */
export async function* readArchiveStream(input: Readable, label: string): AsyncGenerator<ArchiveEntry> {
  const extract = createExtract();
  const abort = new AbortController();
  // Observed right away, so a failure while the consumer holds a body is not an unhandled rejection.
  const inputFailure = pipeline(input, createGunzip({ chunkSize: GUNZIP_CHUNK_BYTES }), extract, { signal: abort.signal }).then(
    () => undefined,
    (error: unknown) => error ?? new Error('the input pipeline failed'),
  );
  let completed = false;
  try {
    for await (const entry of extract) {
      const bridge = bridgeBody(entry, `reading entry "${entry.header.name}" of ${label}`);
      if (isFileEntry(entry.header.type)) {
        yield { path: entry.header.name, size: entry.header.size ?? 0, body: bridge.body };
      }
      await bridge.finish();
    }
    const failure = await inputFailure;
    if (failure !== undefined) throw failure;
    completed = true;
  } catch (error: unknown) {
    throw new ArchiveReadError(`reading archive ${label}`, { cause: error });
  } finally {
    if (!completed) await stopInput(abort, inputFailure);
  }
}

/**
 * Reads a whole (small) dump into memory, entry path → UTF-8 text; for tests and
 * fixtures. An entry larger than `maxBytesPerEntry` throws ArchiveReadError.
 */
export async function readArchiveToMap(
  file: string,
  options: { readonly maxBytesPerEntry?: number } = {},
): Promise<Map<string, string>> {
  const maxBytes = options.maxBytesPerEntry ?? DEFAULT_MAX_BYTES_PER_ENTRY;
  const contents = new Map<string, string>();
  for await (const entry of readArchiveEntries(file)) {
    if (entry.size > maxBytes) {
      throw new ArchiveReadError(`entry "${entry.path}" of ${file} has ${entry.size} bytes, over the limit of ${maxBytes}`);
    }
    const chunks: Buffer[] = [];
    for await (const chunk of entry.body) chunks.push(chunk as Buffer);
    contents.set(entry.path, Buffer.concat(chunks).toString('utf8'));
  }
  return contents;
}

function isFileEntry(type: string | null | undefined): boolean {
  return type === 'file' || type === 'contiguous-file' || type === undefined || type === null;
}

/** The consumer left early: stop reading the file and wait for the streams to close. */
async function stopInput(abort: AbortController, inputFailure: Promise<unknown>): Promise<void> {
  abort.abort();
  // The pipeline now settles with the AbortError we just caused (or with the
  // error already thrown to the consumer), so its value carries no news.
  await inputFailure;
}

/** A node PassThrough fed from tar-stream's entry, plus the means to abandon it. */
interface BodyBridge {
  readonly body: PassThrough;
  /** Discards what the consumer did not read and waits until the entry is fully drained. */
  finish(): Promise<void>;
}

/**
 * tar-stream's entries are streamx streams, and destroying one destroys the
 * whole extract. Handing the consumer a node PassThrough instead means it may
 * stop reading (or destroy the body) at any point: the pump then keeps
 * draining the entry into the void, so the next entry can be parsed.
 */
function bridgeBody(entry: AsyncIterable<unknown>, doing: string): BodyBridge {
  const body = new PassThrough();
  // An error on the body is either the pump's, which finish() rethrows through
  // the generator, or the consumer's own (it destroyed the body with it and
  // already knows). Without a listener, a consumer that has not attached one yet
  // would see the process crash on 'error' instead.
  body.on('error', reportedThroughFinish);
  const pumpFailure = pumpInto(entry, body, doing).then(
    () => undefined,
    (error: unknown) => error ?? new Error('reading a tar entry failed'),
  );
  return {
    body,
    async finish(): Promise<void> {
      if (!body.readableEnded) body.destroy();
      const failure = await pumpFailure;
      if (failure !== undefined) throw failure;
    },
  };
}

function reportedThroughFinish(): void {
  // See bridgeBody: the error reaches the caller through finish().
}

/** A failure while reading the entry reaches the body's reader as an ArchiveReadError saying `doing`. */
async function pumpInto(entry: AsyncIterable<unknown>, body: PassThrough, doing: string): Promise<void> {
  try {
    for await (const chunk of entry) {
      // Once the consumer is done with the body, the rest of the entry is discarded.
      if (body.destroyed) continue;
      // tar-stream's entries yield Buffers.
      if (!body.write(chunk as Buffer)) await drainedOrClosed(body);
    }
  } catch (error: unknown) {
    if (!body.destroyed) body.destroy(new ArchiveReadError(doing, { cause: error }));
    throw error;
  }
  if (!body.destroyed) body.end();
}

