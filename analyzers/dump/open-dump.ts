import type { Dirent } from 'node:fs';
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { readArchiveEntries } from '../../archive/read-archive.js';
import { UsageError } from '../../core/errors.js';

/** One file of a dump, to be read (or drained) before the next is asked for. */
export interface DumpEntry {
  /** As stored; may be hostile in a dump from elsewhere (see isSafeDumpPath). */
  path: string;
  size: number;
  body: Readable;
}

/**
 * Where a dump is read from: a `.tar.gz` made by `collect` (streamed, never
 * extracted) or a directory with the same layout. GCS comes behind this too.
 */
export interface DumpSource {
  readonly location: string;
  entries(): AsyncGenerator<DumpEntry>;
}

/** Where to reach GCS for a `gs://` dump (`--gcs-endpoint`; otherwise $STORAGE_EMULATOR_HOST, else Google). */
export interface OpenDumpOptions {
  gcsEndpoint?: string | undefined;
}

/**
 * Opens a dump: a local `.tar.gz` or directory, or `gs://BUCKET/PREFIX` (an
 * expanded dump) or `gs://BUCKET/PATH.tar.gz` (an archive object), read
 * straight from GCS. Anything else is a UsageError naming it.
 */
export async function openDump(location: string, options: OpenDumpOptions = {}): Promise<DumpSource> {
  if (location.startsWith('gs://')) {
    // Loaded only for GCS: the client takes a while to import.
    const [{ parseGcsUrl }, { readGcsDump }] = await Promise.all([import('../../gcs/gcs-url.js'), import('../../gcs/read-gcs.js')]);
    const parsed = parseGcsUrl(location);
    return { location, entries: () => readGcsDump(parsed, { endpoint: options.gcsEndpoint }) };
  }
  const stats = await stat(location).catch((error: unknown) => {
    throw new UsageError(`DUMP ${location} cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { cause: error });
  });
  if (stats.isDirectory()) return directoryDump(location);
  if (/\.(tar\.gz|tgz)$/.test(location) && stats.isFile()) return { location, entries: () => archiveEntries(location) };
  throw new UsageError(`DUMP ${location} is neither a .tar.gz made by logdump collect nor a directory`);
}

async function* archiveEntries(file: string): AsyncGenerator<DumpEntry> {
  for await (const entry of readArchiveEntries(file)) yield { path: entry.path, size: entry.size, body: entry.body };
}

function directoryDump(root: string): DumpSource {
  return {
    location: root,
    async *entries() {
      // Sorted, so the manifest and lists come in a stable order; links are not followed.
      const found: Dirent[] = await readdir(root, { recursive: true, withFileTypes: true });
      const files = found.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name)).sort();
      for (const file of files) {
        const path = relative(root, file).split(sep).join('/');
        yield { path, size: (await stat(file)).size, body: createReadStream(file) };
      }
    },
  };
}

/** A relative POSIX path without `..`, NUL or a leading `/`: anything else in a dump is ignored. */
export function isSafeDumpPath(path: string): boolean {
  if (path === '' || path.startsWith('/') || path.includes('\0') || path.includes('\\')) return false;
  return path.split('/').every((segment) => segment !== '..');
}
