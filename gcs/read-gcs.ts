import type { Storage } from '@google-cloud/storage';
import { PassThrough } from 'node:stream';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { extract as createExtract } from 'tar-stream';
import { ArchiveReadError } from '../archive/read-archive.js';
import { createStorage } from './gcs-client.js';
import type { GcsClientOptions } from './gcs-client.js';
import { formatGcsUrl } from './gcs-url.js';
import type { GcsLocation } from './gcs-url.js';

/** One file of a dump read from GCS; read `body` before asking for the next one. */
export interface GcsDumpEntry {
  readonly path: string;
  readonly size: number;
  readonly body: Readable;
}

/** `objects.list` pages of this size keep a dump of thousands of logs to a few requests. */
const LIST_PAGE_SIZE = 1000;

/**
 * The files of a dump in GCS: a location whose prefix ends in `.tar.gz` is one
 * archive object, streamed through gunzip and tar (never to disk); any other
 * prefix is an expanded dump, one object per file, paths relative to the prefix.
 */
export function readGcsDump(location: GcsLocation, options: GcsClientOptions & { readonly storage?: Storage } = {}): AsyncGenerator<GcsDumpEntry> {
  const storage = options.storage ?? createStorage(options);
  if (location.prefix.endsWith('.tar.gz')) return readGcsArchive(storage, location);
  return readGcsObjects(storage, location);
}

async function* readGcsObjects(storage: Storage, location: GcsLocation): AsyncGenerator<GcsDumpEntry> {
  const bucket = storage.bucket(location.bucket);
  const prefix = location.prefix === '' ? '' : `${location.prefix}/`;
  let pageToken: string | undefined;
  do {
    const [files, nextQuery] = await bucket
      .getFiles({ prefix, maxResults: LIST_PAGE_SIZE, autoPaginate: false, ...(pageToken ? { pageToken } : {}) })
      .catch((error: unknown) => {
        throw new ArchiveReadError(`listing ${formatGcsUrl(location)}`, { cause: error });
      });
    for (const file of files) {
      yield { path: file.name.slice(prefix.length), size: Number(file.metadata.size ?? 0), body: file.createReadStream() };
    }
    pageToken = (nextQuery as { pageToken?: string } | null)?.pageToken;
  } while (pageToken);
}

/**
 * The same streaming as archive/read-archive.ts readArchiveEntries, from an
 * object instead of a file (that function only takes a path; it should take a
 * stream so both share this code).
 */
async function* readGcsArchive(storage: Storage, location: GcsLocation): AsyncGenerator<GcsDumpEntry> {
  const url = `gs://${location.bucket}/${location.prefix}`;
  const extract = createExtract();
  const input = storage.bucket(location.bucket).file(location.prefix).createReadStream();
  const inputFailure = pipeline(input, createGunzip(), extract).then(
    () => undefined,
    (error: unknown) => error ?? new Error('the input pipeline failed'),
  );
  let completed = false;
  try {
    for await (const entry of extract) {
      const body = new PassThrough();
      const pump = pumpEntry(entry, body, `reading entry "${entry.header.name}" of ${url}`);
      if (entry.header.type === 'file' || entry.header.type === 'contiguous-file') {
        yield { path: entry.header.name, size: entry.header.size ?? 0, body };
      }
      if (!body.readableEnded) body.destroy();
      await pump;
    }
    const failure = await inputFailure;
    if (failure !== undefined) throw failure;
    completed = true;
  } catch (error: unknown) {
    throw new ArchiveReadError(`reading archive ${url}`, { cause: error });
  } finally {
    if (!completed) {
      input.destroy();
      // Settles with the error already thrown, or with the one destroy() just caused.
      await inputFailure;
    }
  }
}

/**
 * tar-stream's entries are streamx streams, and destroying one destroys the
 * whole extract; so the consumer gets a node PassThrough, and whatever it does
 * not read is drained here, letting the next entry be parsed.
 */
async function pumpEntry(entry: AsyncIterable<unknown>, body: PassThrough, doing: string): Promise<void> {
  // An error on the body is the consumer's own (it destroyed it) or the one set below, which the generator rethrows.
  body.on('error', () => undefined);
  try {
    for await (const chunk of entry) {
      if (body.destroyed) continue;
      if (!body.write(chunk as Buffer)) await new Promise<void>((resolve) => {
        const done = (): void => {
          body.off('drain', done);
          body.off('close', done);
          resolve();
        };
        body.on('drain', done);
        body.on('close', done);
      });
    }
  } catch (error: unknown) {
    if (!body.destroyed) body.destroy(new ArchiveReadError(doing, { cause: error }));
    throw error;
  }
  if (!body.destroyed) body.end();
}
