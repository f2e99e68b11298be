import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { ArchiveReadError, readArchiveEntries, readArchiveToMap } from '../../archive/read-archive.js';
import { TarGzSink } from '../../archive/tar-gz-sink.js';
import { makeTempDir, patternBytes, runProgram, text } from './fixtures.js';

/** A .tar.gz made by the system tar, an independent writer (with directory entries, which are skipped). */
async function systemTarArchive(base: string, files: Record<string, string | Buffer>): Promise<string> {
  const tree = join(base, 'tree');
  for (const [path, data] of Object.entries(files)) {
    await mkdir(join(tree, path, '..'), { recursive: true });
    await writeFile(join(tree, path), data);
  }
  const file = join(base, 'system.tar.gz');
  const result = await runProgram('tar', ['-czf', file, '-C', tree, '.']);
  assert.equal(result.code, 0, result.stderr);
  return file;
}

test('reads a system-tar archive, skipping directory entries', async (t) => {
  const base = await makeTempDir(t);
  const file = await systemTarArchive(base, { 'a/b.log': 'hello', 'c.json': '{}', 'empty.log': '' });
  const contents = await readArchiveToMap(file);
  assert.deepEqual(
    new Map([...contents].map(([path, body]) => [path.replace(/^\.\//, ''), body])),
    new Map([['a/b.log', 'hello'], ['c.json', '{}'], ['empty.log', '']]),
  );
});

test('bodies left unread or half-read are drained, and the next entry still comes', async (t) => {
  const base = await makeTempDir(t);
  const file = join(base, 'dump.tar.gz');
  const sink = await TarGzSink.create({ file, tempParent: base });
  for (const [index, path] of ['1.log', '2.log', '3.log', '4.log'].entries()) {
    await sink.writeEntry(path, (async function* () { yield patternBytes(300_000, index); })());
  }
  await sink.close();
  const seen: string[] = [];
  for await (const entry of readArchiveEntries(file)) {
    seen.push(entry.path);
    if (entry.path === '2.log') {
      for await (const chunk of entry.body) {
        assert.ok((chunk as Buffer).byteLength > 0);
        break; // reads one chunk, then destroys the body
      }
    }
    if (entry.path === '4.log') {
      const chunks: Buffer[] = [];
      for await (const chunk of entry.body) chunks.push(chunk as Buffer);
      assert.ok(Buffer.concat(chunks).equals(patternBytes(300_000, 3)));
    }
  }
  assert.deepEqual(seen, ['1.log', '2.log', '3.log', '4.log']);
});

test('leaving the loop early stops reading without error', async (t) => {
  const base = await makeTempDir(t);
  const file = await systemTarArchive(base, { 'a.log': 'a', 'b.log': 'b' });
  for await (const entry of readArchiveEntries(file)) {
    assert.ok(entry.path.endsWith('.log'));
    break;
  }
});

test('missing, corrupt and truncated archives are ArchiveReadErrors', async (t) => {
  const base = await makeTempDir(t);
  const good = join(base, 'good.tar.gz');
  const sink = await TarGzSink.create({ file: good, tempParent: base });
  await sink.writeEntry('big.bin', (async function* () { yield patternBytes(200_000, 9); })());
  await sink.close();
  const { readFile } = await import('node:fs/promises');
  const bytes = await readFile(good);
  await writeFile(join(base, 'truncated.tar.gz'), bytes.subarray(0, Math.floor(bytes.byteLength / 2)));
  await writeFile(join(base, 'garbage.tar.gz'), 'not gzip at all');
  for (const name of ['missing.tar.gz', 'truncated.tar.gz', 'garbage.tar.gz']) {
    await assert.rejects(readArchiveToMap(join(base, name)), (error: unknown) => {
      assert.ok(error instanceof ArchiveReadError, `${name}: ${String(error)}`);
      assert.ok(error.message.includes(name));
      assert.ok(error.cause !== undefined);
      return true;
    });
  }
});

test('readArchiveToMap refuses an entry over maxBytesPerEntry', async (t) => {
  const base = await makeTempDir(t);
  const file = join(base, 'dump.tar.gz');
  const sink = await TarGzSink.create({ file, tempParent: base });
  await sink.writeEntry('big.log', text('x'.repeat(1000)));
  await sink.close();
  await assert.rejects(readArchiveToMap(file, { maxBytesPerEntry: 999 }), /"big\.log" .* 1000 bytes, over the limit of 999/);
  assert.equal((await readArchiveToMap(file, { maxBytesPerEntry: 1000 })).get('big.log')?.length, 1000);
});
