import { discardSource } from './entry-source.js';
import { EntryPathError, type EntrySource } from './sink.js';

/**
 * Checks that `path` is a relative POSIX path that stays inside the dump.
 * Besides `..` and a leading `/`, empty and `.` segments are refused too: they
 * would let `a//b` or `a/./b` alias `a/b` and slip past the duplicate check.
 * Backslashes and NUL are refused because layout.ts never produces them and an
 * extractor on Windows (or a C string) would read them as separators/ends.
 */
export function checkEntryPath(path: string): void {
  if (path === '') throw new EntryPathError(path, 'it is empty');
  if (path.startsWith('/')) throw new EntryPathError(path, 'it is absolute');
  if (/[\\\0]/.test(path)) throw new EntryPathError(path, 'it contains a backslash or NUL');
  for (const segment of path.split('/')) {
    if (segment === '..') throw new EntryPathError(path, 'it has a ".." segment');
    if (segment === '.' || segment === '') throw new EntryPathError(path, 'it has an empty or "." segment');
  }
}

/**
 * The paths a sink has accepted, so a second entry with the same path is refused
 * (a tar may hold duplicates, but extractors silently keep the last one).
 * A path whose entry failed is released, so a caller may retry it.
 */
export class EntryPathRegistry {
  private readonly claimed = new Set<string>();

  /** Validates `path` and reserves it; throws EntryPathError otherwise. */
  claim(path: string): void {
    checkEntryPath(path);
    if (this.claimed.has(path)) throw new EntryPathError(path, 'an entry with this path was already written');
    this.claimed.add(path);
  }

  release(path: string): void {
    this.claimed.delete(path);
  }
}

/**
 * The bookkeeping every sink shares around one entry's write: refuse a bad or
 * duplicate path (and a closed sink) before reading a byte, discarding the
 * refused source so its connection is freed; release the path when the write
 * fails, since nothing of it was kept and the caller may retry; and know what
 * is still in flight, so `close` can wait for it.
 */
export class EntryWrites {
  private readonly paths = new EntryPathRegistry();
  private readonly inFlight = new Set<Promise<number>>();

  /** `checkOpen` throws when the sink no longer takes entries; `write` stores the bytes and returns their count. */
  async run(path: string, source: EntrySource, checkOpen: () => void, write: () => Promise<number>): Promise<number> {
    try {
      checkOpen();
      this.paths.claim(path);
    } catch (error: unknown) {
      discardSource(source);
      throw error;
    }
    const writing = write();
    this.inFlight.add(writing);
    try {
      return await writing;
    } catch (error: unknown) {
      this.paths.release(path);
      throw error;
    } finally {
      this.inFlight.delete(writing);
    }
  }

  /** Settles once every write already started has, whatever its outcome (each goes to its own caller). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }
}
