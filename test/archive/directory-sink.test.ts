import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { SinkError } from '../../core/errors.js';
import { DirectorySink } from '../../archive/directory-sink.js';
import { EntryPathError, EntrySourceError } from '../../archive/sink.js';
import { failingSource, makeTempDir, patternBytes, slowChunks, text } from './fixtures.js';

test('concurrent entries land byte-identical as 0600 files in 0700 folders', async (t) => {
  const base = await makeTempDir(t);
  const root = join(base, 'dump');
  const sink = await DirectorySink.create({ dir: root });
  const expected = new Map<string, Buffer>([
    ['cluster/version.json', Buffer.from('{}')],
    ['namespaces/a/pods/p/c.log', patternBytes(3 * 1024 * 1024, 1)],
    ['namespaces/a/pods/p/empty.log', Buffer.alloc(0)],
    ['nodes/n1/kubelet.log', patternBytes(70_000, 2)],
  ]);
  const sizes = await Promise.all([...expected].map(([path, data]) => sink.writeEntry(path, slowChunks(data, 9_000))));
  assert.deepEqual(sizes, [...expected.values()].map((data) => data.byteLength));
  await sink.close();

  assert.equal((await stat(root)).mode & 0o777, 0o700);
  assert.equal((await stat(join(root, 'namespaces/a/pods'))).mode & 0o777, 0o700);
  for (const [path, data] of expected) {
    const file = join(root, path);
    assert.ok((await readFile(file)).equals(data), `${path} differs`);
    assert.equal((await stat(file)).mode & 0o777, 0o600, `${path} mode`);
  }
});

test('paths that climb out, are absolute or repeat are refused', async (t) => {
  const base = await makeTempDir(t);
  const sink = await DirectorySink.create({ dir: join(base, 'dump') });
  await sink.writeEntry('a.log', text('one'));
  const duplicate = Readable.from(['two']);
  await assert.rejects(sink.writeEntry('a.log', duplicate), EntryPathError);
  assert.equal(duplicate.destroyed, true);
  for (const bad of ['../escape.log', 'x/../../escape.log', `/${base}/abs.log`, 'a/./b.log']) {
    await assert.rejects(sink.writeEntry(bad, text('nope')), EntryPathError, bad);
  }
  await sink.close();
  assert.deepEqual((await readdir(base)).sort(), ['dump']);
  assert.equal(await readFile(join(base, 'dump', 'a.log'), 'utf8'), 'one');
});

test('a symlinked folder cannot lead an entry, or a folder it creates, out of the root', async (t) => {
  const base = await makeTempDir(t);
  const root = join(base, 'dump');
  const outside = join(base, 'outside');
  await mkdir(outside);
  await mkdir(root);
  await symlink(outside, join(root, 'evil'));
  const sink = await DirectorySink.create({ dir: root });
  for (const path of ['evil/x.log', 'evil/sub/deeper/x.log']) {
    await assert.rejects(sink.writeEntry(path, text('nope')), (error: unknown) => {
      assert.ok(error instanceof EntryPathError);
      assert.match(error.message, /symbolic link/);
      return true;
    });
  }
  assert.deepEqual(await readdir(outside), [], 'nothing was created outside the root');
  await sink.close();
});

test('a symlink at the file name is not written through', async (t) => {
  const base = await makeTempDir(t);
  const root = join(base, 'dump');
  const target = join(base, 'precious.txt');
  await writeFile(target, 'keep me');
  await mkdir(root);
  await symlink(target, join(root, 'link.log'));
  const sink = await DirectorySink.create({ dir: root });
  await assert.rejects(sink.writeEntry('link.log', text('overwrite')), SinkError);
  assert.equal(await readFile(target, 'utf8'), 'keep me');
  await sink.close();
});

test('a failing source removes its partial file; the sink stays usable and the path free', async (t) => {
  const base = await makeTempDir(t);
  const root = join(base, 'dump');
  const sink = await DirectorySink.create({ dir: root });
  const cause = new Error('stream reset');
  await assert.rejects(sink.writeEntry('p/c.log', failingSource(150_000, cause)), (error: unknown) => {
    assert.ok(error instanceof EntrySourceError);
    assert.equal(error.cause, cause);
    return true;
  });
  assert.deepEqual(await readdir(join(root, 'p')), []);
  assert.equal(await sink.writeEntry('p/c.log', text('retried')), 7);
  assert.equal(await sink.writeEntry('p/other.log', text('fine')), 4);
  await sink.close();
  assert.equal(await readFile(join(root, 'p/c.log'), 'utf8'), 'retried');
});

test('close waits for writes in progress, and later writes are refused', async (t) => {
  const base = await makeTempDir(t);
  const root = join(base, 'dump');
  const sink = await DirectorySink.create({ dir: root });
  const pending = sink.writeEntry('slow.log', slowChunks(patternBytes(200_000, 4), 1_000));
  const closed = sink.close();
  await assert.rejects(sink.writeEntry('after.log', text('x')), /after\.log.*closed/);
  await closed;
  assert.equal(await pending, 200_000);
  assert.equal((await stat(join(root, 'slow.log'))).size, 200_000);
});
