import type { Storage } from '@google-cloud/storage';
import type { Readable } from 'node:stream';
import { ArchiveReadError, readArchiveStream } from '../archive/read-archive.js';
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

/** A single `.tar.gz` object, streamed through gunzip and tar like a local archive. */
function readGcsArchive(storage: Storage, location: GcsLocation): AsyncGenerator<GcsDumpEntry> {
  const input = storage.bucket(location.bucket).file(location.prefix).createReadStream();
  return readArchiveStream(input, `gs://${location.bucket}/${location.prefix}`);
}
