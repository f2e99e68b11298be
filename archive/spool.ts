import { open, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';

/**
 * Bytes an entry keeps in memory before it gets a spool file, and the size of
 * each write to that file. An entry no larger than this never touches the disk,
 * so per-entry memory is bounded by about this much plus one source chunk.
 */
export const SPOOL_BUFFER_BYTES = 64 * 1024;

/**
 * Once an entry has a spool file, chunks are gathered to this size per write:
 * HTTP bodies arrive in pieces of a few KiB, and one thread-pool write per
 * piece cost more CPU than the rest of a collection together.
 */
export const SPOOL_WRITE_BYTES = 256 * 1024;

/** A fully received entry, waiting to be packed: in memory or in a spool file. */
export type SpooledEntry =
  | { readonly kind: 'memory'; readonly size: number; readonly data: Buffer }
  | { readonly kind: 'file'; readonly size: number; readonly file: string };

/**
 * Receives one entry's chunks while its final size is unknown. The first
 * SPOOL_BUFFER_BYTES stay in memory; beyond that the buffered chunks are
 * flushed to `file` (created 0600, O_EXCL) and later ones follow, one awaited
 * write at a time, which is what applies backpressure to the source.
 */
export class Spool {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private size = 0;
  private handle: FileHandle | undefined;

  constructor(private readonly file: string) {}

  async add(chunk: Buffer): Promise<void> {
    if (chunk.byteLength === 0) return;
    this.chunks.push(chunk);
    this.buffered += chunk.byteLength;
    this.size += chunk.byteLength;
    if (this.buffered >= (this.handle ? SPOOL_WRITE_BYTES : SPOOL_BUFFER_BYTES)) await this.flush();
  }

  /** The source has ended: the size is now known. */
  async finish(): Promise<SpooledEntry> {
    if (this.handle === undefined) {
      const data = Buffer.concat(this.chunks, this.buffered);
      this.chunks = [];
      return { kind: 'memory', size: this.size, data };
    }
    await this.flush();
    await this.closeHandle();
    return { kind: 'file', size: this.size, file: this.file };
  }

  /** Drops whatever was received; safe to call at any point, and more than once. */
  async discard(): Promise<void> {
    this.chunks = [];
    this.buffered = 0;
    await this.closeHandle();
    await rm(this.file, { force: true });
  }

  private async flush(): Promise<void> {
    this.handle ??= await open(this.file, 'wx', 0o600);
    const chunks = this.chunks;
    this.chunks = [];
    this.buffered = 0;
    await writeFully(this.handle, chunks);
  }

  private async closeHandle(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close();
  }
}

/** Removes a spool file once its bytes are in the archive (no-op for memory). */
export async function removeSpooled(entry: SpooledEntry): Promise<void> {
  if (entry.kind === 'file') await rm(entry.file, { force: true });
}

/**
 * writev(2) the chunks as they are: gathering them into one Buffer first would
 * copy every byte of the dump once more and feed the garbage collector. writev
 * may write less than asked (e.g. just before ENOSPC): loop until done.
 */
async function writeFully(handle: FileHandle, chunks: Buffer[]): Promise<void> {
  let rest = chunks;
  while (rest.length > 0) {
    const { bytesWritten } = await handle.writev(rest);
    if (bytesWritten === 0) throw new Error('the spool file accepted no bytes');
    rest = dropWritten(rest, bytesWritten);
  }
}

/** The part of `chunks` after the first `bytes` bytes. */
function dropWritten(chunks: Buffer[], bytes: number): Buffer[] {
  let skipped = 0;
  for (let index = 0; index < chunks.length; index++) {
    const chunk = chunks[index] as Buffer;
    if (skipped + chunk.byteLength > bytes) return [chunk.subarray(bytes - skipped), ...chunks.slice(index + 1)];
    skipped += chunk.byteLength;
  }
  return [];
}
