/**
 * `logdump ci`: the dump half of `run`, told the test's result by
 * --test-exit-code or $LOGDUMP_TEST_EXIT_CODE; and `collect --upload`, which
 * shares the upload with the hooks.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { archiveContents, gcsServer } from '../gcs/fixtures.js';
import { archivesIn, completeDump, described, logdump, scratch, stackLines } from './support.js';

describe('logdump ci', () => {
  it('a passed test (--test-exit-code 0): exit 0, no dump', async (t) => {
    const dir = await scratch(t);
    const result = await logdump(['ci', '--sim', 'healthy', '--test-exit-code', '0'], { cwd: dir });
    assert.equal(result.code, 0, described(result));
    assert.deepEqual(await archivesIn(dir), []);
    assert.doesNotMatch(result.stderr, /collecting|written to/);
    assert.match(result.stderr, /^logdump: the test passed; nothing to collect/m);
  });

  it("a failed test (--test-exit-code 2): a dump, and the test's code", async (t) => {
    const dir = await scratch(t);
    const out = join(dir, 'D.tar.gz');
    const result = await logdump(['ci', '--sim', 'statefulset-quorum-deadlock', '--test-exit-code', '2', '--out', out], { cwd: dir });
    assert.equal(result.code, 2, described(result));
    const files = await completeDump(out);
    assert.match(files.get('analysis/summary.md') ?? '', /cockroachdb is stuck/);
    assert.deepEqual(stackLines(result.stderr), []);
  });

  it('reads the code from $LOGDUMP_TEST_EXIT_CODE', async (t) => {
    const dir = await scratch(t);
    const out = join(dir, 'D.tar.gz');
    const result = await logdump(['ci', '--sim', 'healthy', '--out', out], { cwd: dir, env: { LOGDUMP_TEST_EXIT_CODE: '3' } });
    assert.equal(result.code, 3, described(result));
    await completeDump(out);
  });

  it("--always without a test result: a dump, and the dump's own exit code", async (t) => {
    const dir = await scratch(t);
    const out = join(dir, 'D.tar.gz');
    const result = await logdump(['ci', '--sim', 'healthy', '--always', '--out', out], { cwd: dir });
    assert.equal(result.code, 0, described(result));
    await completeDump(out);
  });

  const usageCases: Array<{ name: string; args: string[]; env?: NodeJS.ProcessEnv; says: RegExp }> = [
    { name: 'no test result and no --always', args: [], says: /--test-exit-code/ },
    { name: '--test-exit-code abc', args: ['--test-exit-code', 'abc'], says: /--test-exit-code/ },
    { name: '--test-exit-code 256', args: ['--test-exit-code', '256'], says: /--test-exit-code 256/ },
    { name: '--test-exit-code -1', args: ['--test-exit-code=-1'], says: /--test-exit-code/ },
    { name: '$LOGDUMP_TEST_EXIT_CODE=abc', args: [], env: { LOGDUMP_TEST_EXIT_CODE: 'abc' }, says: /LOGDUMP_TEST_EXIT_CODE="abc"/ },
  ];
  for (const { name, args, env, says } of usageCases) {
    it(`${name}: exit 2 with one line`, async (t) => {
      const dir = await scratch(t);
      const result = await logdump(['ci', ...args], { cwd: dir, env });
      assert.equal(result.code, 2, described(result));
      const lines = result.stderr.trim().split('\n');
      assert.equal(lines.length, 1, result.stderr);
      assert.match(lines[0] ?? '', /^logdump: /);
      assert.match(lines[0] ?? '', says);
      assert.deepEqual(await archivesIn(dir), []);
    });
  }
});

describe('logdump collect --upload', () => {
  it('uploads every file of the dump under the prefix', async (t) => {
    const dir = await scratch(t);
    const server = await gcsServer(t);
    const out = join(dir, 'D.tar.gz');
    const result = await logdump(['collect', '--sim', 'healthy', '--upload', 'gs://logdump-test/run1', '--gcs-endpoint', server.endpoint, '-o', out], { cwd: dir });
    assert.equal(result.code, 0, described(result));
    const local = await archiveContents(out);
    assert.ok(local.has('manifest.json'));
    const names = server.objects('logdump-test').map((object) => object.name);
    assert.deepEqual(names.filter((name) => !name.startsWith('run1/')), []);
    assert.equal(names.length, local.size, 'one object per file of the dump');
    assert.deepEqual(names.map((name) => name.slice('run1/'.length)).sort(), [...local.keys()].sort());
    for (const object of server.objects('logdump-test')) {
      assert.ok(object.bytes.equals(local.get(object.name.slice('run1/'.length)) ?? Buffer.alloc(0)), `${object.name} has the dump's bytes`);
    }
    assert.match(result.stderr, new RegExp(`^logdump: uploaded ${local.size} objects, \\d+ bytes: https://gcsweb\\.k8s\\.io/gcs/logdump-test/run1/$`, 'm'), described(result));
  });
});
