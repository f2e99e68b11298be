/**
 * `logdump run -- CMD`: the test's exit code passes through, a failed test
 * gets a dump, a passed one does not (unless --always), and bad flags fail
 * before the test runs.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { archivesIn, completeDump, described, logdump, logdumpLines, scratch, stackLines } from './support.js';

describe('logdump run passes the test through', () => {
  it('a passing test: exit 0, no dump, nothing said', async (t) => {
    const dir = await scratch(t);
    const result = await logdump(['run', '--sim', 'healthy', '--', 'sh', '-c', 'echo passing; exit 0'], { cwd: dir });
    assert.equal(result.code, 0, described(result));
    assert.equal(result.signal, null);
    assert.match(result.stdout, /^passing$/m, 'the test writes to the same stdout');
    assert.deepEqual(await archivesIn(dir), [], 'no dump in the working directory');
    assert.doesNotMatch(result.stderr, /collecting/);
    assert.deepEqual(logdumpLines(result.stderr), [], 'logdump is silent when the test passed');
  });

  it('a failing test: its exit code, its output, and a complete dump with the analysis', async (t) => {
    const dir = await scratch(t);
    const out = join(dir, 'D.tar.gz');
    const result = await logdump(['run', '--sim', 'statefulset-quorum-deadlock', '--out', out, '--', 'sh', '-c', 'echo hello; echo oops >&2; exit 1'], { cwd: dir });
    assert.equal(result.code, 1, described(result));
    assert.match(result.stdout, /^hello$/m, 'the test writes to the same stdout');
    assert.match(result.stderr, /^oops$/m, 'and to the same stderr');
    assert.match(result.stderr, /^logdump: the test exited with 1; collecting/m);
    const files = await completeDump(out);
    assert.match(files.get('analysis/summary.md') ?? '', /StatefulSet e2e-tests-statefulset-vtc1w\/cockroachdb is stuck/, 'the analysis found the stall');
    assert.ok([...files.keys()].some((path) => path.startsWith('namespaces/e2e-tests-statefulset-vtc1w/')), 'the namespaces were collected');
    assert.match(result.stderr, /StatefulSet e2e-tests-statefulset-vtc1w\/cockroachdb is stuck/, 'the findings are printed on stderr');
    assert.deepEqual(stackLines(result.stderr), []);
    assert.deepEqual(await archivesIn(dir), ['D.tar.gz'], 'only the asked-for dump');
  });

  it('any exit code, e.g. 42, is repeated', async (t) => {
    const dir = await scratch(t);
    const out = join(dir, 'D42.tar.gz');
    const result = await logdump(['run', '--sim', 'healthy', '--out', out, '--', 'sh', '-c', 'exit 42'], { cwd: dir });
    assert.equal(result.code, 42, described(result));
    assert.equal(result.signal, null);
    await completeDump(out);
  });

  it('--always dumps after a passing test too, and still exits 0', async (t) => {
    const dir = await scratch(t);
    const out = join(dir, 'always.tar.gz');
    const result = await logdump(['run', '--sim', 'healthy', '--always', '--out', out, '--', 'true'], { cwd: dir });
    assert.equal(result.code, 0, described(result));
    assert.match(result.stderr, /^logdump: the test exited with 0; collecting/m);
    await completeDump(out);
  });

  it('a command that does not exist: 127 as a shell says, no dump', async (t) => {
    const dir = await scratch(t);
    const result = await logdump(['run', '--sim', 'healthy', '--', '/nonexistent/x'], { cwd: dir });
    assert.equal(result.code, 127, described(result));
    assert.deepEqual(await archivesIn(dir), []);
    const lines = logdumpLines(result.stderr);
    assert.equal(lines.length, 1, result.stderr);
    assert.match(lines[0] ?? '', /could not be started: \/nonexistent\/x/);
    assert.deepEqual(stackLines(result.stderr), []);
  });

  it('a file that is not executable: 126', async (t) => {
    const dir = await scratch(t);
    const result = await logdump(['run', '--', dir], { cwd: dir });
    assert.equal(result.code, 126, described(result));
    assert.deepEqual(await archivesIn(dir), []);
  });
});

describe('logdump run: bad flags fail before the test runs', () => {
  const cases: Array<{ name: string; args: string[]; env?: NodeJS.ProcessEnv; says: RegExp }> = [
    { name: 'an upload URL that is not gs://', args: ['--upload', 's3://x'], says: /--upload "s3:\/\/x"/ },
    { name: '--gcs-bucket outside Prow', args: ['--gcs-bucket', 'logdump-ci'], env: { JOB_NAME: '' }, says: /--gcs-bucket .*JOB_NAME/ },
    { name: '--gcs-bucket with a folder', args: ['--gcs-bucket', 'gs://logdump-ci/x'], env: { JOB_NAME: 'j', JOB_TYPE: 'periodic', BUILD_ID: '1' }, says: /--gcs-bucket/ },
    { name: '--upload and --gcs-bucket together', args: ['--upload', 'gs://logdump-ci/p', '--gcs-bucket', 'logdump-ci'], env: { JOB_NAME: 'j', JOB_TYPE: 'periodic', BUILD_ID: '1' }, says: /--upload and --gcs-bucket/ },
    { name: 'a bad --timeout', args: ['--timeout', 'soon'], says: /--timeout/ },
    { name: 'a bad --gcsweb-url', args: ['--gcsweb-url', 'gcsweb.example'], says: /--gcsweb-url/ },
    // The dump's destination is checked before the test, too: found after it, the dump is lost.
    { name: '--out in a directory that does not exist', args: ['--out', '/nonexistent-logdump-dir/D.tar.gz'], says: /--out .*nonexistent-logdump-dir/ },
    { name: '--out that is not a .tar.gz', args: ['--out', 'D.zip'], says: /--out "D\.zip"/ },
    { name: 'a Prow job of an unknown type', args: [], env: { JOB_NAME: 'j', JOB_TYPE: 'bogus', BUILD_ID: '1' }, says: /JOB_TYPE="bogus"/ },
  ];
  for (const { name, args, env, says } of cases) {
    it(`${name}: exit 2, one line, the test never ran`, async (t) => {
      const dir = await scratch(t);
      const marker = join(dir, 'MARKER');
      const result = await logdump(['run', ...args, '--', 'touch', marker], { cwd: dir, env });
      assert.equal(result.code, 2, described(result));
      assert.equal(existsSync(marker), false, 'the test command did not run');
      const lines = result.stderr.trim().split('\n');
      assert.equal(lines.length, 1, result.stderr);
      assert.match(lines[0] ?? '', /^logdump: /);
      assert.match(lines[0] ?? '', says);
      assert.deepEqual(await archivesIn(dir), []);
    });
  }

  it('no command after --: exit 2 with the usage', async (t) => {
    const dir = await scratch(t);
    for (const args of [['run'], ['run', '--']]) {
      const result = await logdump(args, { cwd: dir });
      assert.equal(result.code, 2, described(result));
      assert.match(result.stderr, /^logdump: .*logdump run -- /m);
      assert.deepEqual(stackLines(result.stderr), []);
    }
  });
});
