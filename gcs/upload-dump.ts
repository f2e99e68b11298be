import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import pLimit from 'p-limit';
import { readArchiveEntries } from '../archive/read-archive.js';
import { describeError, UnreachableError, UsageError } from '../core/errors.js';
import { createStorage } from './gcs-client.js';
import type { RetryTuning } from './gcs-client.js';
import { GcsSink, UploadError } from './gcs-sink.js';
import { formatGcsUrl, objectNameOf } from './gcs-url.js';
import type { GcsLocation } from './gcs-url.js';

/** `expanded`: one object per dump file; `archive`: the `.tar.gz` as one object. */
export type UploadMode = 'expanded' | 'archive';

/** Options of {@link uploadDump}. */
export interface UploadDumpOptions {
  readonly mode: UploadMode;
  /** A test server; else STORAGE_EMULATOR_HOST; else real GCS. */
  readonly endpoint?: string | undefined;
  /** Overall deadline; what is not uploaded by then is reported as failed. */
  readonly timeoutMs?: number | undefined;
  readonly signal?: AbortSignal | undefined;
  readonly retry?: Partial<RetryTuning> | undefined;
  /** Bytes per resumable request (a multiple of 256 KiB). */
  readonly chunkSizeBytes?: number | undefined;
  /** Uploads in flight at once. */
  readonly concurrency?: number | undefined;
}

/** What an upload did. `failed` is empty when everything arrived. */
export interface UploadResult {
  readonly local: string;
  readonly location: GcsLocation;
  readonly uploaded: readonly { readonly name: string; readonly bytes: number }[];
  readonly failed: readonly UploadError[];
  readonly bytes: number;
}

/** Nothing at all could be uploaded (no credentials, no such bucket, no answer). Exit code 3. */
export class BucketUnreachableError extends UnreachableError {
  override readonly name = 'BucketUnreachableError';
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
  }
}

/** Six parallel uploads keep a CI uplink busy without holding many resumable chunks in memory. */
export const DEFAULT_UPLOAD_CONCURRENCY = 6;

/**
 * Uploads a local dump (a `.tar.gz` or a directory) to `target`. The local copy
 * is only read, never moved or deleted. Resolves with what was and was not
 * uploaded; throws UsageError (bad local dump or mode) or BucketUnreachableError
 * (not a single object could be written), whose message says the local copy is
 * intact.
 */
export async function uploadDump(local: string, target: GcsLocation, options: UploadDumpOptions): Promise<UploadResult> {
  const kind = await localKind(local, options.mode);
  const deadline = options.timeoutMs === undefined ? undefined : Date.now() + options.timeoutMs;
  const abort = linkedAbort(options.signal, options.timeoutMs);
  const storage = createStorage({ endpoint: options.endpoint, retry: options.retry, deadline });
  const recorder = new UploadRecorder();
  const sinkFor = (location: GcsLocation): GcsSink =>
    new GcsSink({ storage, location, signal: abort.signal, ...(options.chunkSizeBytes ? { chunkSizeBytes: options.chunkSizeBytes } : {}) });
  const limit = pLimit(options.concurrency ?? DEFAULT_UPLOAD_CONCURRENCY);
  const work =
    options.mode === 'archive'
      ? uploadArchive(local, target, sinkFor, recorder)
      : kind === 'directory'
        ? uploadDirectory(local, sinkFor(target), recorder, limit)
        : uploadArchiveEntries(local, sinkFor(target), recorder, limit);
  try {
    await untilAborted(work, abort.signal);
  } finally {
    abort.dispose();
  }
  const result: UploadResult = { local, location: target, ...recorder.summary() };
  if (result.uploaded.length === 0 && result.failed.length > 0) {
    const first = result.failed[0];
    throw new BucketUnreachableError(`uploading ${local} to ${formatGcsUrl(target)}: nothing could be uploaded (the local dump ${local} is intact)`, { cause: first });
  }
  return result;
}

type LocalKind = 'archive' | 'directory';

async function localKind(local: string, mode: UploadMode): Promise<LocalKind> {
  let info: Stats;
  try {
    info = await stat(local);
  } catch (error: unknown) {
    throw new UsageError(`the dump ${local} cannot be read: ${describeError(error)}`, { cause: error });
  }
  if (info.isDirectory()) {
    if (mode === 'archive') throw new UsageError(`--mode archive uploads a .tar.gz, but ${local} is a directory`);
    return 'directory';
  }
  if (!info.isFile() || !local.endsWith('.tar.gz')) throw new UsageError(`the dump ${local} is neither a .tar.gz nor a directory`);
  return 'archive';
}

/** Collects outcomes from concurrent uploads. */
class UploadRecorder {
  private readonly uploaded: { name: string; bytes: number }[] = [];
  private readonly failed: UploadError[] = [];
  private readonly pending = new Set<string>();

  /** Records one upload's outcome; never rejects, so a failure does not stop the others. */
  async track(name: string, upload: Promise<number>): Promise<void> {
    this.pending.add(name);
    try {
      this.uploaded.push({ name, bytes: await upload });
    } catch (error: unknown) {
      this.failed.push(error instanceof UploadError ? error : new UploadError(name, `uploading ${name}`, { cause: error }));
    } finally {
      this.pending.delete(name);
    }
  }

  /** A failure that is not one object's, such as a damaged local archive. */
  fail(error: UploadError): void {
    this.failed.push(error);
  }

  /** Uploads still pending (cut off by the deadline) count as failed. */
  summary(): Pick<UploadResult, 'uploaded' | 'failed' | 'bytes'> {
    const timedOut = [...this.pending].map((name) => new UploadError(name, `uploading ${name}: the deadline passed first`));
    const uploaded = [...this.uploaded].sort((a, b) => a.name.localeCompare(b.name));
    return { uploaded, failed: [...this.failed, ...timedOut], bytes: uploaded.reduce((total, object) => total + object.bytes, 0) };
  }
}

/**
 * Archive mode: the `.tar.gz` becomes one object, resumable. A target ending in
 * `.tar.gz` names the object itself; otherwise the file keeps its name under
 * the prefix.
 */
async function uploadArchive(local: string, target: GcsLocation, sinkFor: (location: GcsLocation) => GcsSink, recorder: UploadRecorder): Promise<void> {
  const name = target.prefix.endsWith('.tar.gz') ? target.prefix : objectNameOf(target, basename(local));
  const slash = name.lastIndexOf('/');
  const sink = sinkFor({ bucket: target.bucket, prefix: slash < 0 ? '' : name.slice(0, slash) });
  await recorder.track(name, sink.writeEntry(name.slice(slash + 1), createReadStream(local)));
}

/** A directory dump: its files, each its own object, several at once. */
async function uploadDirectory(dir: string, sink: GcsSink, recorder: UploadRecorder, limit: ReturnType<typeof pLimit>): Promise<void> {
  const files = await listFiles(dir);
  await Promise.all(
    files.map((path) => limit(() => recorder.track(objectNameOf(sink.target, path), sink.writeEntry(path, createReadStream(join(dir, ...path.split('/'))))))),
  );
  await sink.close();
}

/**
 * Expanded mode from a `.tar.gz`: the entries stream out of the archive
 * straight into their uploads, never extracted. A tar is sequential, so the
 * next entry is only read once the current body has been consumed; a small
 * entry is consumed as soon as its upload buffered it, so small uploads still
 * overlap with reading on.
 */
async function uploadArchiveEntries(file: string, sink: GcsSink, recorder: UploadRecorder, limit: ReturnType<typeof pLimit>): Promise<void> {
  const uploads: Promise<void>[] = [];
  try {
    for await (const entry of readArchiveEntries(file)) {
      const name = objectNameOf(sink.target, entry.path);
      uploads.push(limit(() => recorder.track(name, sink.writeEntry(entry.path, entry.body))));
      await consumed(entry.body);
    }
  } catch (error: unknown) {
    if (uploads.length === 0) throw new UsageError(`the dump ${file} is not a readable .tar.gz: ${describeError(error)}`, { cause: error });
    // A truncated archive: what came before the damage is still worth uploading.
    recorder.fail(new UploadError(file, `reading ${file} stopped after ${uploads.length} entries, the rest was not uploaded`, { cause: error }));
  }
  await Promise.all(uploads);
  await sink.close();
}

/** Resolves once a body has been read to its end or given up. */
function consumed(body: Readable): Promise<void> {
  if (body.readableEnded || body.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    body.once('end', resolve);
    body.once('close', resolve);
  });
}

/** Every regular file under `dir`, as a POSIX path relative to it, sorted. */
async function listFiles(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { recursive: true, withFileTypes: true });
  } catch (error: unknown) {
    throw new UsageError(`listing the dump directory ${dir}: ${describeError(error)}`, { cause: error });
  }
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

interface LinkedAbort {
  readonly signal: AbortSignal;
  dispose(): void;
}

/** One signal for the caller's and the deadline's aborts. */
function linkedAbort(outer: AbortSignal | undefined, timeoutMs: number | undefined): LinkedAbort {
  const controller = new AbortController();
  const onOuter = (): void => controller.abort(outer?.reason);
  outer?.addEventListener('abort', onOuter, { once: true });
  if (outer?.aborted) onOuter();
  const timer = timeoutMs === undefined ? undefined : setTimeout(() => controller.abort(new Error(`the deadline of ${timeoutMs} ms passed`)), timeoutMs);
  return {
    signal: controller.signal,
    dispose: () => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuter);
    },
  };
}

/**
 * Waits for `work` or the abort, whichever comes first. Uploads cut off by the
 * abort are reported as pending by the recorder; the client's own requests end
 * by their per-request timeout (bounded by the deadline, see createStorage).
 */
async function untilAborted(work: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return;
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<undefined>((resolve) => {
    // The listener is called with the abort Event, which must not pass for a failure.
    onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  // A failure reading the local dump after the deadline has nobody to tell but the recorder; observed here.
  const settled = work.then(
    () => undefined,
    (error: unknown) => error,
  );
  const failure = await Promise.race([settled, aborted]);
  signal.removeEventListener('abort', onAbort);
  if (failure !== undefined) throw failure;
}
