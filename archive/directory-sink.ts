import { constants } from 'node:fs';
import { mkdir, open, realpath, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { describeError, SinkError } from '../core/errors.js';
import { EntryWrites } from './entry-path.js';
import { coalesceChunks, discardSource, readSourceChunks } from './entry-source.js';
import { SPOOL_WRITE_BYTES } from './spool.js';
import type { ArchiveSink, EntrySource } from './sink.js';
import { EntryPathError, EntrySourceError } from './sink.js';

/** Options of {@link DirectorySink.create}. */
export interface DirectorySinkOptions {
  /** The dump's root; created with mode 0700 if missing. */
  readonly dir: string;
}

/**
 * O_NOFOLLOW: a symlink planted at an entry's file name makes open() fail with
 * ELOOP instead of writing through it. O_TRUNC: a second dump into the same
 * directory replaces files, as `kubectl cluster-info dump` does.
 */
const ENTRY_OPEN_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW;

/**
 * Writes a dump as a directory tree: each entry is a file (0600) under the root,
 * its parent folders created (0700) as needed. No spooling is needed because a
 * file, unlike a tar header, does not need its size up front.
 */
export class DirectorySink implements ArchiveSink {
  readonly location: string;
  private readonly writes = new EntryWrites();
  /** Relative folder → its checked real path (see makeParentDirs). */
  private readonly checkedDirs = new Map<string, Promise<string>>();
  private closing: Promise<void> | undefined;

  private constructor(
    dir: string,
    /** The root's real path, against which every entry's real parent is checked. */
    private readonly root: string,
  ) {
    this.location = dir.endsWith(sep) ? dir : `${dir}${sep}`;
  }

  /** Creates the root if missing; throws SinkError if that fails. */
  static async create(options: DirectorySinkOptions): Promise<DirectorySink> {
    try {
      await mkdir(options.dir, { recursive: true, mode: 0o700 });
      return new DirectorySink(options.dir, await realpath(options.dir));
    } catch (error: unknown) {
      throw new SinkError(`creating directory ${options.dir}`, { cause: error });
    }
  }

  /**
   * Streams `source` into the entry's file and resolves with its size. Rejects
   * with EntryPathError (bad or duplicate path, or one that a symlink would lead
   * out of the root), EntrySourceError (the source threw; the partial file is
   * removed) or SinkError (the file system failed, or the sink is closed).
   */
  async writeEntry(path: string, source: EntrySource): Promise<number> {
    const checkOpen = (): void => {
      if (this.closing) throw new SinkError(`writing entry "${path}" to ${this.location}: the sink is already closed`);
    };
    return this.writes.run(path, source, checkOpen, () => this.writeFile(path, source));
  }

  /** Waits for the entries already being written; any later writeEntry rejects. */
  close(): Promise<void> {
    this.closing ??= this.writes.settled();
    return this.closing;
  }

  private async writeFile(path: string, source: EntrySource): Promise<number> {
    let file: string;
    let handle: FileHandle;
    try {
      file = join(await this.makeParentDirs(path), basenameOf(path));
      handle = await openEntryFile(file);
    } catch (error: unknown) {
      discardSource(source);
      throw error;
    }
    let size = 0;
    try {
      await pipeline(
        coalesceChunks(readSourceChunks(path, source), SPOOL_WRITE_BYTES),
        async function* count(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
          for await (const chunk of chunks) {
            size += chunk.byteLength;
            yield chunk;
          }
        },
        handle.createWriteStream(),
      );
      return size;
    } catch (error: unknown) {
      await removePartial(file, error);
      if (error instanceof EntrySourceError) throw error;
      throw new SinkError(`writing ${file}`, { cause: error });
    }
  }

  /**
   * Creates the entry's folders one level at a time, each inside a parent whose
   * real path was already checked, so a symlink placed in the tree can neither
   * make us create a folder outside the root nor write a file there.
   * Returns the real path of the entry's parent folder.
   */
  private async makeParentDirs(path: string): Promise<string> {
    const segments = path.split('/').slice(0, -1);
    let current = this.root;
    for (let depth = 1; depth <= segments.length; depth++) {
      const relativeDir = segments.slice(0, depth).join('/');
      const parent = current;
      // A folder checked once stays checked: the tree is ours (0700), and a dump
      // of thousands of logs would otherwise spend most of its system calls here.
      let checked = this.checkedDirs.get(relativeDir);
      if (!checked) {
        checked = this.checkDir(parent, segments[depth - 1] ?? '', path);
        this.checkedDirs.set(relativeDir, checked);
        checked.catch(() => this.checkedDirs.delete(relativeDir));
      }
      current = await checked;
    }
    return current;
  }

  /** Creates `segment` inside the already checked `parent` and returns its real path if it stays inside the root. */
  private async checkDir(parent: string, segment: string, path: string): Promise<string> {
    const next = join(parent, segment);
    await makeDir(next);
    const real = await realpath(next).catch((error: unknown) => {
      throw new SinkError(`resolving ${next}`, { cause: error });
    });
    if (!isInside(this.root, real)) {
      throw new EntryPathError(path, `a symbolic link leads it out of ${this.location} (to ${real})`);
    }
    return real;
  }
}

function basenameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** mkdir without `recursive`, so it never walks through an unchecked symlink; EEXIST is fine. */
async function makeDir(dir: string): Promise<void> {
  try {
    await mkdir(dir, { mode: 0o700 });
  } catch (error: unknown) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw new SinkError(`creating directory ${dir}`, { cause: error });
  }
}

/** The mode of open() only applies to a new file, so an existing one is chmod-ed too. */
async function openEntryFile(file: string): Promise<FileHandle> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(file, ENTRY_OPEN_FLAGS, 0o600);
    await handle.chmod(0o600);
    return handle;
  } catch (error: unknown) {
    await handle?.close();
    throw new SinkError(`creating ${file}`, { cause: error });
  }
}

/** Removes a failed entry's partial file; if even that fails, says so with the original error. */
async function removePartial(file: string, original: unknown): Promise<void> {
  try {
    await rm(file, { force: true });
  } catch (error: unknown) {
    throw new SinkError(`removing the partial file ${file} after: ${describeError(original)}`, { cause: error });
  }
}

function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}
