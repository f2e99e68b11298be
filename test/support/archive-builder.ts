import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { pack as createPack } from 'tar-stream';

/** One entry of a hand-made archive; `name` is written as given, hostile or not. */
export interface ArchiveFixtureEntry {
  name: string;
  body: Buffer | string;
}

/** Writes a .tar.gz the way another tool (or an attacker) might, for reader tests. */
export async function writeArchiveFixture(file: string, entries: ArchiveFixtureEntry[]): Promise<void> {
  const pack = createPack();
  const done = pipeline(pack, createGzip(), createWriteStream(file));
  for (const entry of entries) {
    const body = typeof entry.body === 'string' ? Buffer.from(entry.body) : entry.body;
    await new Promise<void>((resolve, reject) => {
      pack.entry({ name: entry.name, size: body.byteLength }, body, (error) => (error ? reject(error) : resolve()));
    });
  }
  pack.finalize();
  await done;
}
