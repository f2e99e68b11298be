import assert from 'node:assert/strict';
import { chmod, mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { UsageError } from '../../core/errors.js';
import { DirectorySink } from '../../archive/directory-sink.js';
import { openSink } from '../../archive/open-sink.js';
import type { SinkTarget } from '../../archive/open-sink.js';
import { TarGzSink } from '../../archive/tar-gz-sink.js';
import { makeTempDir, text } from './fixtures.js';

/** Root ignores permission bits, so the "not writable" cases only mean something for other users. */
const RUNNING_AS_ROOT = process.getuid?.() === 0;

test('bad targets are UsageErrors naming the flag, before anything is created', async (t) => {
  const base = await makeTempDir(t);
  await writeFile(join(base, 'a-file'), '');
  await mkdir(join(base, 'a-dir.tar.gz'));
  const cases: ReadonlyArray<readonly [SinkTarget, RegExp]> = [
    [{ kind: 'tar.gz', file: join(base, 'dump.zip') }, /^--out ".*dump\.zip": the archive name must end in \.tar\.gz or \.tgz$/],
    [{ kind: 'tar.gz', file: join(base, 'missing', 'dump.tar.gz') }, /^--out ".*": directory .*missing does not exist$/],
    [{ kind: 'tar.gz', file: join(base, 'a-file', 'dump.tar.gz') }, /^--out ".*": .*a-file is not a directory$/],
    [{ kind: 'tar.gz', file: join(base, 'a-dir.tar.gz') }, /^--out ".*": it is a directory/],
    [{ kind: 'directory', dir: join(base, 'a-file') }, /^--out-dir ".*a-file": .*a-file is not a directory$/],
    [{ kind: 'directory', dir: join(base, 'missing', 'dump') }, /^--out-dir ".*": directory .*missing does not exist$/],
    [{ kind: 'directory', dir: '' }, /^--out-dir "": it is empty$/],
  ];
  for (const [target, message] of cases) {
    await assert.rejects(
      openSink(target),
      (error: unknown) => error instanceof UsageError && message.test(error.message),
      JSON.stringify(target),
    );
  }
  await assert.rejects(stat(join(base, 'missing')), { code: 'ENOENT' });
});

test('an unwritable parent is a UsageError', { skip: RUNNING_AS_ROOT && 'root can write anywhere' }, async (t) => {
  const base = await makeTempDir(t);
  const locked = join(base, 'locked');
  await mkdir(locked, { mode: 0o500 });
  t.after(() => chmod(locked, 0o700));
  await assert.rejects(openSink({ kind: 'tar.gz', file: join(locked, 'dump.tar.gz') }), /^UsageError: --out .* is not writable$/);
  await assert.rejects(openSink({ kind: 'directory', dir: join(locked, 'dump') }), /--out-dir .* is not writable$/);
});

test('good targets open the matching sink', async (t) => {
  const base = await makeTempDir(t);
  for (const file of [join(base, 'dump.tar.gz'), join(base, 'dump.tgz')]) {
    const sink = await openSink({ kind: 'tar.gz', file });
    assert.ok(sink instanceof TarGzSink);
    assert.equal(sink.location, file);
    await sink.writeEntry('a.log', text('a'));
    await sink.close();
  }
  const existing = join(base, 'existing');
  await mkdir(existing);
  for (const dir of [join(base, 'new-dir'), existing]) {
    const sink = await openSink({ kind: 'directory', dir });
    assert.ok(sink instanceof DirectorySink);
    await sink.writeEntry('a.log', text('a'));
    await sink.close();
    assert.equal((await stat(join(dir, 'a.log'))).size, 1);
  }
});
