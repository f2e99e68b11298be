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
