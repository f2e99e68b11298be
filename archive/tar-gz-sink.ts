import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createParallelGzip, DEFAULT_PARALLEL_GZIP } from './parallel-gzip.js';
import { pack as createPack } from 'tar-stream';
import type { Header, Pack } from 'tar-stream';
import { describeError, SinkError } from '../core/errors.js';
import { EntryWrites } from './entry-path.js';
import { readSourceChunks } from './entry-source.js';
import type { ArchiveSink, EntrySource } from './sink.js';
import { EntrySourceError } from './sink.js';
import { removeSpooled, Spool } from './spool.js';
import type { SpooledEntry } from './spool.js';

/** Options of {@link TarGzSink.create}. */
export interface TarGzSinkOptions {
  /** The archive to create (or truncate). It gets mode 0600: dumps hold logs. */
  readonly file: string;
  /** Where the private spool directory is made; defaults to `os.tmpdir()`. */
  readonly tempParent?: string;
  /** zlib level, 1 (fastest) to 9 (smallest); 6 by default, as gzip's. */
  readonly gzipLevel?: number;
}

/** The header fields we set; tar-stream fills in uid/gid 0 and the rest. */
type EntryHeader = Pick<Header, 'name' | 'size' | 'mode' | 'mtime' | 'type'>;

/** A fully spooled entry waiting for the single packer, with its caller's promise. */
interface PackJob {
  readonly path: string;
  readonly spooled: SpooledEntry;
  readonly mtime: Date;
  readonly resolve: (size: number) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Writes a dump as one `.tar.gz`.
 *
 * A tar header carries the entry's exact size before its bytes (tar-stream's
 * `pack.entry` fails with "Size mismatch" otherwise and destroys the whole
 * pack), but a log's size is only known once its stream ends, and dozens of
 * logs stream at once. So each entry is first spooled — in memory up to
 * SPOOL_BUFFER_BYTES, beyond that to its own file in a private 0700 temp dir —
 * and only when its source has ended is it queued for the single packer, which
 * appends entries to the tar one at a time. `writeEntry` resolves once the
 * entry's bytes are in the tar stream and its spool file is gone, so the
 * caller's concurrency bound also bounds the temp disk use
 * (concurrency × largest entry) and memory (concurrency × 64 KiB).
 * Backpressure holds end to end: file ← gzip ← pack ← spool file read.
 *
 * Entries appear in the archive in the order their sources end.
 */
export class TarGzSink implements ArchiveSink {
  readonly location: string;
  private readonly pack: Pack;
  /** Settles when the output pipeline ends; never rejects (see recordOutputFailure). */
  private readonly output: Promise<void>;
  private readonly writes = new EntryWrites();
  private readonly ready: PackJob[] = [];
  private packing = false;
  private spoolCount = 0;
  private failure: SinkError | undefined;
  private cleanupFailure: SinkError | undefined;
  private closing: Promise<void> | undefined;

  private constructor(
    private readonly file: string,
    private readonly tempDir: string,
    handle: FileHandle,
    gzipLevel: number,
  ) {
    this.location = file;
    this.pack = createPack();
    this.output = pipeline(this.pack, createParallelGzip({ ...DEFAULT_PARALLEL_GZIP, level: gzipLevel }), handle.createWriteStream()).then(
      () => undefined,
      (error: unknown) => this.recordOutputFailure(error),
    );
  }

  /** Creates the spool dir and the output file; throws SinkError if either fails. */
  static async create(options: TarGzSinkOptions): Promise<TarGzSink> {
    const tempParent = options.tempParent ?? tmpdir();
    const tempDir = await makeSpoolDir(tempParent);
    try {
      const handle = await openOutput(options.file);
      return new TarGzSink(options.file, tempDir, handle, options.gzipLevel ?? DEFAULT_PARALLEL_GZIP.level);
    } catch (error: unknown) {
      await rm(tempDir, { recursive: true, force: true });
      throw error;
    }
  }

  /**
   * Consumes `source` to its end and stores it as `path`; resolves with its size
   * once it is in the tar stream. Rejects with EntryPathError (bad or duplicate
   * path; a Readable source is destroyed unread), EntrySourceError (the source
   * threw; nothing stored, the sink stays usable) or SinkError (the output or
   * spool failed, or the sink is closed).
   */
  async writeEntry(path: string, source: EntrySource): Promise<number> {
    return this.writes.run(path, source, () => this.checkWritable(path), () => this.spoolThenPack(path, source));
  }

  /**
   * Waits for every entry already being written, then finalizes tar and gzip and
   * removes the spool dir. Callers abort their sources first on interrupt.
   * Idempotent; any later writeEntry rejects.
   */
  close(): Promise<void> {
    this.closing ??= this.finishArchive();
    return this.closing;
  }

  private checkWritable(path: string): void {
    if (this.failure) throw this.failure;
    if (this.closing) throw new SinkError(`writing entry "${path}" to ${this.file}: the archive is already closed`);
  }

  private async spoolThenPack(path: string, source: EntrySource): Promise<number> {
    const spooled = await this.spoolEntry(path, source);
    const mtime = new Date();
    return new Promise<number>((resolve, reject) => {
      this.ready.push({ path, spooled, mtime, resolve, reject });
      if (!this.packing) void this.packReady();
    });
  }

  private async spoolEntry(path: string, source: EntrySource): Promise<SpooledEntry> {
    const spool = new Spool(join(this.tempDir, `${++this.spoolCount}.spool`));
    try {
      for await (const chunk of readSourceChunks(path, source)) await spool.add(chunk);
      return await spool.finish();
    } catch (error: unknown) {
      await discardSpool(spool, path, error);
      if (error instanceof EntrySourceError) throw error;
      throw new SinkError(`spooling entry "${path}" in ${this.tempDir}`, { cause: error });
    }
  }

  /** The single packer: tar is sequential, so entries go in strictly one at a time. */
  private async packReady(): Promise<void> {
    this.packing = true;
    for (let job = this.ready.shift(); job !== undefined; job = this.ready.shift()) {
      await this.packJob(job);
    }
    this.packing = false;
  }

  /** Settles the job's promise; never throws, so the packer loop keeps going. */
  private async packJob(job: PackJob): Promise<void> {
    let failure: SinkError | undefined;
    try {
      await this.appendToTar(job);
    } catch (error: unknown) {
      failure = await this.failOutput(error);
    }
    try {
      await removeSpooled(job.spooled);
    } catch (error: unknown) {
      // The entry itself is fine; close() removes the spool dir and reports this.
      this.cleanupFailure ??= new SinkError(`removing a spool file in ${this.tempDir}`, { cause: error });
    }
    if (failure) job.reject(failure);
    else job.resolve(job.spooled.size);
  }

  private async appendToTar(job: PackJob): Promise<void> {
    if (this.failure) throw this.failure;
    const header: EntryHeader = { name: job.path, size: job.spooled.size, mode: 0o600, mtime: job.mtime, type: 'file' };
    if (job.spooled.kind === 'memory') {
      await packEntry(this.pack, header, job.spooled.data);
      return;
    }
    await packEntry(this.pack, header, createReadStream(job.spooled.file));
  }

  /**
   * A failed append leaves a half-written entry in the tar stream, so the whole
   * archive is lost: destroy the pack, let the output pipeline settle, and
   * report the first error (a disk-full on the output wins over its echo here).
   */
  private async failOutput(error: unknown): Promise<SinkError> {
    this.pack.destroy(error instanceof Error ? error : new Error(describeError(error)));
    await this.output;
    this.failure ??= new SinkError(`writing ${this.file}`, { cause: error });
    return this.failure;
  }

  /** Turns the output pipeline's rejection into state every later call reports. */
  private recordOutputFailure(error: unknown): void {
    this.failure ??= new SinkError(`writing ${this.file}`, { cause: error });
  }

  private async finishArchive(): Promise<void> {
    await this.writes.settled();
    if (!this.failure) this.pack.finalize();
    await this.output;
    const errors = [this.failure, this.cleanupFailure, await this.removeTempDir()].filter(isDefined);
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) {
      throw new SinkError(`writing ${this.file}: ${errors.map(describeError).join('; ')}`, {
        cause: new AggregateError(errors),
      });
    }
  }

  private async removeTempDir(): Promise<SinkError | undefined> {
    try {
      await rm(this.tempDir, { recursive: true, force: true });
      return undefined;
    } catch (error: unknown) {
      return new SinkError(`removing the spool directory ${this.tempDir}`, { cause: error });
    }
  }
}

/** mkdtemp creates the directory with mode 0700, so other users cannot read spooled logs. */
async function makeSpoolDir(parent: string): Promise<string> {
  try {
    return await mkdtemp(join(parent, 'logdump-spool-'));
  } catch (error: unknown) {
    throw new SinkError(`creating a spool directory in ${parent}`, { cause: error });
  }
}

/** The mode of open() only applies to a new file, so an existing one is chmod-ed too. */
async function openOutput(file: string): Promise<FileHandle> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(file, 'w', 0o600);
    await handle.chmod(0o600);
    return handle;
  } catch (error: unknown) {
    await handle?.close();
    throw new SinkError(`creating ${file}`, { cause: error });
  }
}

/**
 * Appends one entry and resolves when tar-stream has taken all its bytes. The
 * entry stream emits 'error' when the pack is destroyed, so it always gets a
 * listener (an unhandled one would crash the process) that rejects here.
 */
async function packEntry(pack: Pack, header: EntryHeader, body: Buffer | Readable): Promise<void> {
  let settle: (error?: Error | null) => void = () => undefined;
  const written = new Promise<void>((resolve, reject) => {
    settle = (error) => (error ? reject(error) : resolve());
  });
  if (Buffer.isBuffer(body)) {
    pack.entry(header, body, settle).once('error', settle);
    await written;
    return;
  }
  const entry = pack.entry(header, settle);
  entry.once('error', settle);
  // Promise.all observes both, so whichever rejects second is not left unhandled.
  await Promise.all([pipeline(body, entry), written]);
}

/** Removes a failed entry's spool file; if even that fails, says so with the original error. */
async function discardSpool(spool: Spool, path: string, original: unknown): Promise<void> {
  try {
    await spool.discard();
  } catch (error: unknown) {
    throw new SinkError(`removing the spool file of entry "${path}" after: ${describeError(original)}`, {
      cause: error,
    });
  }
}

function isDefined<T>(value: T | undefined): value is T {
  return value !== undefined;
}
