import type { Storage } from '@google-cloud/storage';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { EntryWrites } from '../archive/entry-path.js';
import { readSourceChunks } from '../archive/entry-source.js';
import type { ArchiveSink, EntrySource } from '../archive/sink.js';
import { EntrySourceError } from '../archive/sink.js';
import { formatGcsUrl, objectNameOf } from './gcs-url.js';
import type { GcsLocation } from './gcs-url.js';

/** An object could not be written after the client's retries; `objectName` says which. */
export class UploadError extends Error {
  override readonly name = 'UploadError';
  constructor(
    readonly objectName: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** Options of {@link GcsSink}. */
export interface GcsSinkOptions {
  readonly storage: Storage;
  readonly location: GcsLocation;
  /**
   * Entries up to this size go in one multipart request; larger ones (or ones
   * whose source has not ended by then) go resumable. 1 MiB by default.
   */
  readonly simpleUploadMaxBytes?: number;
  /** Bytes per resumable request; a multiple of 256 KiB (GCS's rule). 8 MiB by default. */
  readonly chunkSizeBytes?: number;
  /** Aborting destroys every upload in flight. */
  readonly signal?: AbortSignal | undefined;
}

export const SIMPLE_UPLOAD_MAX_BYTES = 1024 * 1024;
export const RESUMABLE_CHUNK_BYTES = 8 * 1024 * 1024;

/** Content types by file ending, so a browser (gcsweb, Spyglass) shows logs as text. */
const CONTENT_TYPES: ReadonlyArray<readonly [string, string]> = [
  ['.tar.gz', 'application/gzip'],
  ['.log', 'text/plain; charset=utf-8'],
  ['.json', 'application/json'],
  ['.md', 'text/markdown; charset=utf-8'],
];

/** The Content-Type an entry is stored with. */
export function contentTypeOf(path: string): string {
  return CONTENT_TYPES.find(([ending]) => path.endsWith(ending))?.[1] ?? 'application/octet-stream';
}

/**
 * Writes a dump expanded into GCS: each entry becomes the object
 * `PREFIX/PATH`, so a browser can open any log on its own.
 *
 * An entry is read until it ends or passes `simpleUploadMaxBytes`. A small
 * entry then goes in one multipart request from that buffer, which the client
 * can repeat on a 503 (it cannot repeat a request whose body was a stream:
 * File#save only retries Buffers and source functions). A larger one streams
 * through a resumable upload in `chunkSizeBytes` requests; the client keeps the
 * current chunk so it can resend it after a 503 or a cut connection, asking the
 * server how much it persisted (`Content-Range: bytes *` status queries). So
 * memory is bounded by one chunk per upload in flight, and nothing is spooled.
 */
export class GcsSink implements ArchiveSink {
  readonly location: string;
  /** Where the entries go. */
  readonly target: GcsLocation;
  private readonly writes = new EntryWrites();
  private readonly simpleMax: number;
  private readonly chunkSize: number;
  private closing: Promise<void> | undefined;

  constructor(private readonly options: GcsSinkOptions) {
    this.location = formatGcsUrl(options.location);
    this.target = options.location;
    this.simpleMax = options.simpleUploadMaxBytes ?? SIMPLE_UPLOAD_MAX_BYTES;
    this.chunkSize = options.chunkSizeBytes ?? RESUMABLE_CHUNK_BYTES;
  }

  /**
   * Uploads `source` as the entry's object and resolves with its size once GCS
   * has it. Rejects with EntryPathError, EntrySourceError (the source threw;
   * nothing is stored) or UploadError (GCS refused it after retries).
   */
  async writeEntry(path: string, source: EntrySource): Promise<number> {
    const checkOpen = (): void => {
      if (this.closing) throw new UploadError(objectNameOf(this.options.location, path), `uploading "${path}": the sink is already closed`);
    };
    return this.writes.run(path, source, checkOpen, () => this.upload(path, source));
  }

  /** Waits for the uploads in flight; any later writeEntry rejects. */
  close(): Promise<void> {
    this.closing ??= this.writes.settled();
    return this.closing;
  }

  private async upload(path: string, source: EntrySource): Promise<number> {
    const name = objectNameOf(this.options.location, path);
    const chunks = readSourceChunks(path, source);
    const head = await readHead(chunks, this.simpleMax);
    try {
      if (head.ended) return await this.uploadSmall(name, path, head.bytes);
      return await this.uploadResumable(name, path, head.bytes, chunks);
    } catch (error: unknown) {
      if (error instanceof EntrySourceError) throw error;
      throw new UploadError(name, `uploading ${this.gsUrl(name)}`, { cause: error });
    }
  }

  private async uploadSmall(name: string, path: string, bytes: Buffer): Promise<number> {
    this.options.signal?.throwIfAborted();
    await this.file(name).save(bytes, { resumable: false, contentType: contentTypeOf(path), metadata: this.metadata(path) });
    return bytes.byteLength;
  }

  private async uploadResumable(name: string, path: string, head: Buffer, rest: AsyncGenerator<Buffer>): Promise<number> {
    let size = 0;
    const counted = async function* (): AsyncGenerator<Buffer> {
      size += head.byteLength;
      yield head;
      for await (const chunk of rest) {
        size += chunk.byteLength;
        yield chunk;
      }
    };
    const target = this.file(name).createWriteStream({
      resumable: true,
      chunkSize: this.chunkSize,
      contentType: contentTypeOf(path),
      metadata: this.metadata(path),
    });
    await pipeline(Readable.from(counted()), target, ...(this.options.signal ? [{ signal: this.options.signal }] : []));
    return size;
  }

  private file(name: string): ReturnType<ReturnType<Storage['bucket']>['file']> {
    return this.options.storage.bucket(this.options.location.bucket).file(name);
  }

  /** `contentType` in the resource too: the resumable session takes it from there. */
  private metadata(path: string): { contentType: string; metadata: Record<string, string> } {
    return { contentType: contentTypeOf(path), metadata: { 'logdump-path': path } };
  }

  private gsUrl(name: string): string {
    return `gs://${this.options.location.bucket}/${name}`;
  }
}

/** The first bytes of a source: all of it (`ended`) if it ends within `limit` bytes. */
async function readHead(chunks: AsyncGenerator<Buffer>, limit: number): Promise<{ bytes: Buffer; ended: boolean }> {
  const pieces: Buffer[] = [];
  let size = 0;
  while (size <= limit) {
    const next = await chunks.next();
    if (next.done) return { bytes: Buffer.concat(pieces, size), ended: true };
    pieces.push(next.value);
    size += next.value.byteLength;
  }
  return { bytes: Buffer.concat(pieces, size), ended: false };
}

