import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../core/errors.js';
import { DirectorySink } from './directory-sink.js';
import type { ArchiveSink } from './sink.js';
import { TarGzSink } from './tar-gz-sink.js';

/** Where the user asked the dump to go: `--out FILE.tar.gz` or `--out-dir DIR`. */
export type SinkTarget =
  | { readonly kind: 'tar.gz'; readonly file: string; readonly gzipLevel?: number }
  | { readonly kind: 'directory'; readonly dir: string };

const ARCHIVE_FLAG = '--out';
const DIRECTORY_FLAG = '--out-dir';

/**
 * Checks up front that the output can be created, so a typo fails in a second
 * with a UsageError naming the flag, not after minutes of collecting; then
 * opens the sink (whose own failures are SinkErrors).
 */
export async function openSink(target: SinkTarget): Promise<ArchiveSink> {
  await checkSinkTarget(target);
  switch (target.kind) {
    case 'tar.gz':
      return TarGzSink.create({ file: target.file, gzipLevel: target.gzipLevel });
    case 'directory':
      return DirectorySink.create({ dir: target.dir });
  }
}

/** The checks of {@link openSink} alone, for commands that must fail before doing anything else. */
export async function checkSinkTarget(target: SinkTarget): Promise<void> {
  if (target.kind === 'tar.gz') await checkArchiveTarget(target.file);
  else await checkDirectoryTarget(target.dir);
}

async function checkArchiveTarget(file: string): Promise<void> {
  if (!/\.(tar\.gz|tgz)$/.test(file)) {
    throw usage(ARCHIVE_FLAG, file, 'the archive name must end in .tar.gz or .tgz');
  }
  await checkWritableDir(ARCHIVE_FLAG, file, dirname(resolve(file)));
  const existing = await statIfExists(ARCHIVE_FLAG, file, file);
  if (existing?.isDirectory()) throw usage(ARCHIVE_FLAG, file, 'it is a directory (use --out-dir for a directory dump)');
  if (existing && !(await isAccessible(file, constants.W_OK))) {
    throw usage(ARCHIVE_FLAG, file, 'it exists and is not writable');
  }
}

/** The directory may exist (then it must be a writable directory) or be created in an existing parent. */
async function checkDirectoryTarget(dir: string): Promise<void> {
  if (dir === '') throw usage(DIRECTORY_FLAG, dir, 'it is empty');
  const existing = await statIfExists(DIRECTORY_FLAG, dir, dir);
  if (existing === undefined) {
    await checkWritableDir(DIRECTORY_FLAG, dir, dirname(resolve(dir)));
    return;
  }
  await checkWritableDir(DIRECTORY_FLAG, dir, resolve(dir));
}

async function checkWritableDir(flag: string, value: string, dir: string): Promise<void> {
  const stats = await statIfExists(flag, value, dir);
  if (stats === undefined) throw usage(flag, value, `directory ${dir} does not exist`);
  if (!stats.isDirectory()) throw usage(flag, value, `${dir} is not a directory`);
  // W_OK to create entries, X_OK to reach them.
  if (!(await isAccessible(dir, constants.W_OK | constants.X_OK))) {
    throw usage(flag, value, `directory ${dir} is not writable`);
  }
}

/** undefined if `path` does not exist; any other stat failure is a usage error with its cause. */
async function statIfExists(flag: string, value: string, path: string): Promise<Stats | undefined> {
  try {
    return await stat(path);
  } catch (error: unknown) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw usage(flag, value, `cannot check ${path}`, error);
  }
}

/** access() reports "no" by rejecting; that answer is the result here, not a failure. */
async function isAccessible(path: string, mode: number): Promise<boolean> {
  return access(path, mode).then(
    () => true,
    () => false,
  );
}

function usage(flag: string, value: string, problem: string, cause?: unknown): UsageError {
  const message = `${flag} ${JSON.stringify(value)}: ${problem}`;
  return cause === undefined ? new UsageError(message) : new UsageError(message, { cause });
}
