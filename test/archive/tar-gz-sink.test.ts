import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { SinkError } from '../../core/errors.js';
import { readArchiveEntries, readArchiveToMap } from '../../archive/read-archive.js';
import { EntryPathError, EntrySourceError } from '../../archive/sink.js';
import { TarGzSink } from '../../archive/tar-gz-sink.js';
import { failingSource, makeTempDir, patternBytes, runProgram, slowChunks, text } from './fixtures.js';

/** Sizes around the spool threshold (64 KiB) and tar's 512-byte blocks. */
const SIZES = [0, 1, 511, 512, 513, 65_535, 65_536, 65_537, 300_000] as const;
const SLOW_ENTRY_BYTES = 5 * 1024 * 1024;

async function openTestSink(dir: string): Promise<{ sink: TarGzSink; file: string; spoolParent: string }> {
  const file = join(dir, 'dump.tar.gz');
  const spoolParent = join(dir, 'spool');
  await mkdir(spoolParent);
  return { sink: await TarGzSink.create({ file, tempParent: spoolParent }), file, spoolParent };
}

async function systemTarList(file: string): Promise<string[]> {
  const result = await runProgram('tar', ['-tzf', file]);
  assert.equal(result.code, 0, result.stderr);
  return result.stdout.split('\n').filter((line) => line !== '').sort();
}

test('concurrent entries of many sizes round-trip through system tar and readArchiveEntries', async (t) => {
  const dir = await makeTempDir(t);
  const { sink, file } = await openTestSink(dir);
  const expected = new Map<string, Buffer>();
  const writes: Promise<number>[] = [];
  SIZES.forEach((size, index) => {
    const data = patternBytes(size, index + 1);
    const path = `namespaces/ns/pods/p${index}/c.log`;
    expected.set(path, data);
    writes.push(sink.writeEntry(path, slowChunks(data, 7_000)));
  });
  const slow = patternBytes(SLOW_ENTRY_BYTES, 42);
  expected.set('nodes/n1/kubelet.log', slow);
  writes.push(sink.writeEntry('nodes/n1/kubelet.log', slowChunks(slow, 16 * 1024)));
  expected.set('cluster/version.json', Buffer.from('{"gitVersion":"v1.31.0"}'));
  // A Readable of strings, as a JSON list collector produces.
  writes.push(sink.writeEntry('cluster/version.json', Readable.from(['{"gitVersion":', '"v1.31.0"}'])));

  const sizes = await Promise.all(writes);
  assert.deepEqual(sizes, [...expected.values()].map((data) => data.byteLength));
  await sink.close();

  assert.deepEqual(await systemTarList(file), [...expected.keys()].sort());

  const extracted = join(dir, 'extracted');
  await mkdir(extracted);
  const untar = await runProgram('tar', ['-xzf', file, '-C', extracted]);
  assert.equal(untar.code, 0, untar.stderr);
  for (const [path, data] of expected) {
    assert.ok((await readFile(join(extracted, path))).equals(data), `system tar: ${path} differs`);
  }

  const seen = new Set<string>();
  for await (const entry of readArchiveEntries(file)) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry.body) chunks.push(chunk as Buffer);
    const data = expected.get(entry.path);
    assert.ok(data, `unexpected entry ${entry.path}`);
    assert.equal(entry.size, data.byteLength);
    assert.ok(Buffer.concat(chunks).equals(data), `readArchiveEntries: ${entry.path} differs`);
    seen.add(entry.path);
  }
  assert.equal(seen.size, expected.size);
});

test('a failing source leaves a valid archive without that entry, and the sink usable', async (t) => {
  const dir = await makeTempDir(t);
  const { sink, file } = await openTestSink(dir);
  const cause = new Error('connection reset by peer');
  const before = sink.writeEntry('a.log', text('first'));
  // 200 KB is past the in-memory threshold, so that entry already has a spool file.
  const failures = [
    sink.writeEntry('broken.log', failingSource(200_000, cause)),
    sink.writeEntry('broken-small.log', failingSource(10, cause)),
  ].map((write) =>
    assert.rejects(write, (error: unknown) => {
      assert.ok(error instanceof EntrySourceError);
      assert.match(error.entryPath, /^broken/);
      assert.equal(error.cause, cause);
      return true;
    }),
  );
  await Promise.all(failures);
  assert.equal(await before, 5);
  assert.equal(await sink.writeEntry('b.log', text('second')), 6);
  await sink.close();

  assert.deepEqual(await systemTarList(file), ['a.log', 'b.log']);
  assert.deepEqual(await readArchiveToMap(file), new Map([['a.log', 'first'], ['b.log', 'second']]));
});

test('a path whose entry failed may be written again', async (t) => {
  const dir = await makeTempDir(t);
  const { sink, file } = await openTestSink(dir);
  await assert.rejects(sink.writeEntry('retry.log', failingSource(100_000, new Error('cut'))), EntrySourceError);
  assert.equal(await sink.writeEntry('retry.log', text('second try')), 10);
  await sink.close();
  assert.deepEqual(await readArchiveToMap(file), new Map([['retry.log', 'second try']]));
});

test('duplicate and escaping paths are refused without reading the source', async (t) => {
  const dir = await makeTempDir(t);
  const { sink, file } = await openTestSink(dir);
  assert.equal(await sink.writeEntry('x/a.log', text('one')), 3);
  const duplicate = Readable.from(['two']);
  await assert.rejects(sink.writeEntry('x/a.log', duplicate), (error: unknown) => {
    assert.ok(error instanceof EntryPathError);
    assert.match(error.message, /"x\/a\.log".*already written/);
    return true;
  });
  assert.equal(duplicate.destroyed, true, 'a refused Readable is destroyed so its socket is freed');
  for (const bad of ['../x', 'a/../../x', '/etc/passwd', 'a//b', './a', '', 'a\\b']) {
    await assert.rejects(sink.writeEntry(bad, text('nope')), EntryPathError, bad);
  }
  await sink.close();
  assert.deepEqual(await systemTarList(file), ['x/a.log']);
});

test('the archive and its entries are owner-only (0600), even over an existing file', async (t) => {
  const dir = await makeTempDir(t);
  const file = join(dir, 'dump.tar.gz');
  await writeFile(file, 'old contents', { mode: 0o644 });
  const sink = await TarGzSink.create({ file, tempParent: dir });
  await sink.writeEntry('a.log', text('x'));
  await sink.close();
  assert.equal((await stat(file)).mode & 0o777, 0o600);
  const listing = await runProgram('tar', ['-tvzf', file]);
  assert.match(listing.stdout, /^-rw------- .* a\.log$/m);
});

test('the spool directory is private while writing and removed by close', async (t) => {
  const dir = await makeTempDir(t);
  const { sink, spoolParent } = await openTestSink(dir);
  const spoolDirs = await readdir(spoolParent);
  assert.equal(spoolDirs.length, 1);
  assert.equal((await stat(join(spoolParent, spoolDirs[0] ?? ''))).mode & 0o777, 0o700);
  await sink.writeEntry('big.log', slowChunks(patternBytes(1_000_000, 3), 64 * 1024));
  assert.deepEqual(await readdir(join(spoolParent, spoolDirs[0] ?? '')), [], 'a packed entry leaves no spool file');
  await sink.close();
  assert.deepEqual(await readdir(spoolParent), []);
});

test('close waits for entries still spooling, and later writes are refused', async (t) => {
  const dir = await makeTempDir(t);
  const { sink, file } = await openTestSink(dir);
  const pending = [
    sink.writeEntry('late-1.log', slowChunks(patternBytes(500_000, 5), 4_096)),
    sink.writeEntry('late-2.log', slowChunks(patternBytes(10, 6), 1)),
  ];
  const closed = sink.close();
  await assert.rejects(sink.writeEntry('after.log', text('x')), (error: unknown) => {
    assert.ok(error instanceof SinkError);
    assert.match(error.message, /after\.log.*closed/);
    return true;
  });
  assert.equal(sink.close(), closed, 'close is idempotent');
  await closed;
  assert.deepEqual(await Promise.all(pending), [500_000, 10]);
  assert.deepEqual(await systemTarList(file), ['late-1.log', 'late-2.log']);
});

test('an output file that cannot be created is a SinkError naming it', async (t) => {
  const dir = await makeTempDir(t);
  const file = join(dir, 'no-such-dir', 'dump.tar.gz');
  await assert.rejects(TarGzSink.create({ file, tempParent: dir }), (error: unknown) => {
    assert.ok(error instanceof SinkError);
    assert.ok(error.message.includes(file));
    return true;
  });
  assert.deepEqual(await readdir(dir), [], 'the spool directory is removed again');
});

test('an output that fails mid-write (EFBIG) fails writeEntry and close with a SinkError naming the file', async (t) => {
  const dir = await makeTempDir(t);
  const file = join(dir, 'dump.tar.gz');
  const outcome = await runWithFileSizeLimit(`
    const sink = await TarGzSink.create({ file: ${JSON.stringify(file)}, tempParent: ${JSON.stringify(dir)} });
    const outcome = {};
    // Entries under 64 KiB stay in memory, so only the output file hits the limit. gzip
    // works in 1 MiB blocks on the thread pool, so the failure surfaces some entries later.
    for (let i = 0; i < 400 && outcome.write === undefined; i++) {
      await sink.writeEntry('e' + i + '.bin', source(randomBytes(60_000))).catch((error) => {
        outcome.write = error.name + ': ' + error.message + ' / ' + error.cause?.code;
      });
    }
    await sink.writeEntry('next.bin', source('x')).catch((error) => { outcome.next = error.name; });
    await sink.close().then(() => { outcome.close = 'ok'; }, (error) => { outcome.close = error.name + ': ' + error.message; });
    console.log(JSON.stringify(outcome));
  `);
  assert.deepEqual(outcome, {
    write: `SinkError: writing ${file} / EFBIG`,
    next: 'SinkError',
    close: `SinkError: writing ${file}`,
  });
  assert.deepEqual(await readdir(dir), ['dump.tar.gz'], 'the spool directory is removed even after a failure');
});

test('a spool file that cannot be written fails only that entry', async (t) => {
  const dir = await makeTempDir(t);
  const file = join(dir, 'dump.tar.gz');
  const outcome = await runWithFileSizeLimit(`
    const sink = await TarGzSink.create({ file: ${JSON.stringify(file)}, tempParent: ${JSON.stringify(dir)} });
    const outcome = {};
    await sink.writeEntry('big.bin', source(randomBytes(1024 * 1024))).catch((error) => {
      outcome.big = error.name + ': ' + error.message.split(' in /')[0] + ' / ' + error.cause?.code;
    });
    outcome.small = await sink.writeEntry('small.txt', source('still usable'));
    await sink.close();
    console.log(JSON.stringify(outcome));
  `);
  assert.deepEqual(outcome, { big: 'SinkError: spooling entry "big.bin" / EFBIG', small: 12 });
  assert.deepEqual(await readArchiveToMap(file), new Map([['small.txt', 'still usable']]));
});

/**
 * Runs `body` in a child node whose files may not exceed 64 KiB (`ulimit -f`
 * makes write(2) fail with EFBIG; node ignores SIGXFSZ), with TarGzSink,
 * randomBytes and an async-iterable `source(chunk)` in scope; returns the JSON
 * the body prints.
 */
async function runWithFileSizeLimit(body: string): Promise<Record<string, unknown>> {
  const sinkUrl = new URL('../../archive/tar-gz-sink.js', import.meta.url).href;
  const script = `
    import { randomBytes } from 'node:crypto';
    import { TarGzSink } from ${JSON.stringify(sinkUrl)};
    async function* source(chunk) { yield chunk; }
    ${body}
  `;
  const result = await runProgram('bash', ['-c', 'ulimit -f 64 && exec "$0" --input-type=module -e "$1"', process.execPath, script]);
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}
