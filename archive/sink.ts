import type { Readable } from 'node:stream';

/** What a sink accepts as an entry's bytes: a stream or any async source of chunks. */
export type EntrySource = Readable | AsyncIterable<Uint8Array | string>;

/**
 * Where a dump's bytes go: a tar.gz file, a directory, later a GCS prefix.
 * Collectors only ever see this interface. Entries may be written concurrently;
 * each `writeEntry` consumes its source to the end and resolves with the number
 * of bytes stored. A source that throws fails that entry only: the sink stays
 * usable and nothing of the entry is stored.
 */
export interface ArchiveSink {
  /** A human-readable place, for messages ("dump.tar.gz", "out/"). */
  readonly location: string;
  writeEntry(path: string, source: EntrySource): Promise<number>;
  /** Flushes everything and makes the output valid; no entry may follow. */
  close(): Promise<void>;
}

/**
 * The source of one entry threw (an HTTP log stream broke, a caller aborted it).
 * Only that entry failed: nothing of it is stored, its path may be written again,
 * and the sink stays usable. `cause` is the source's own error. Deliberately not
 * a SinkError: the output is fine, so a collector records this as a missing item.
 */
export class EntrySourceError extends Error {
  override readonly name = 'EntrySourceError';
  constructor(
    readonly entryPath: string,
    options: ErrorOptions,
  ) {
    super(`reading the source of entry "${entryPath}"`, options);
  }
}

/**
 * An entry was refused before any of its bytes were read: its path is not a
 * relative POSIX path inside the dump, or it was already written. This is a bug
 * in the caller (paths come from layout.ts); the sink stays usable.
 */
export class EntryPathError extends Error {
  override readonly name = 'EntryPathError';
  constructor(
    readonly entryPath: string,
    reason: string,
  ) {
    super(`refusing entry path ${JSON.stringify(entryPath)}: ${reason}`);
  }
}
