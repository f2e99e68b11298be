/**
 * --timeout is one deadline for the whole dump: a cluster or a bucket that
 * never answers costs the job at most that (plus a grace), never the test's
 * exit code, and the local dump survives.
 */
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gcsServer } from '../gcs/fixtures.js';
import { tempDir, type CliResult } from '../support/cli.js';
import { completeDump, described, logdump, logdumpLines, scratch, stackLines } from './support.js';

/** A TCP server on 127.0.0.1 that accepts connections and never says a byte; closed with its sockets after the test. */
async function silentServer(onEnd: (cleanup: () => Promise<void>) => void): Promise<{ port: number; connections: () => number }> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onEnd(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const address = server.address();
  assert.ok(address && typeof address === 'object');
  return { port: address.port, connections: () => accepted };
}

function kubeconfigFor(server: string): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: silent',
    '  cluster:',
    `    server: ${server}`,
    '    insecure-skip-tls-verify: true',
    'users:',
    '- name: tester',
    '  user:',
    '    token: not-a-real-token',
    'contexts:',
    '- name: silent',
    '  context:',
    '    cluster: silent',
    '    user: tester',
    'current-context: silent',
    '',
  ].join('\n');
}

describe('logdump run against a cluster that never answers', () => {
  let result: CliResult;
  let dir: string;
  let connections: () => number;
  const cleanups: Array<() => Promise<void>> = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });
  before(async () => {
    const scratchDir = await tempDir('logdump-hook-');
    cleanups.push(scratchDir.cleanup);
    dir = scratchDir.dir;
    const silent = await silentServer((cleanup) => cleanups.push(cleanup));
    connections = silent.connections;
    const kubeconfig = join(dir, 'kubeconfig');
    await writeFile(kubeconfig, kubeconfigFor(`https://127.0.0.1:${silent.port}`));
    result = await logdump(
      ['run', '--kubeconfig', kubeconfig, '--timeout', '3s', '--out', join(dir, 'D.tar.gz'), '--artifacts', join(dir, 'artifacts'), '--', 'sh', '-c', 'exit 1'],
      { cwd: dir, timeoutMs: 60_000 },
    );
  });

  it("ends within the deadline's bound with the test's exit code", () => {
    assert.ok(connections() > 0, 'logdump did try the cluster');
    assert.equal(result.code, 1, described(result));
    assert.ok(result.durationMs < 20_000, `took ${Math.round(result.durationMs)} ms with --timeout 3s`);
  });

  it('says on one logdump line that the cluster could not be reached, without a stack trace', () => {
    const lines = logdumpLines(result.stderr).filter((line) => /unreachable|did not finish|deadline/.test(line));
    assert.ok(lines.length >= 1, described(result));
    assert.match(lines.join('\n'), /127\.0\.0\.1/, 'the message names the server');
    assert.deepEqual(stackLines(result.stderr), []);
  });

  it('the summary for the CI page says the dump has nothing from the cluster', async () => {
    const summary = await readFile(join(dir, 'artifacts', 'logdump-summary.md'), 'utf8');
    assert.match(summary, /^## logdump:/);
    // A summary reading "no known problem found ... nothing missing from the dump"
    // for a dump of 0 files from an unreachable cluster misleads whoever reads it.
    assert.match(summary, /unreachable|could not be reached/i, `the summary does not say the cluster was unreachable:\n${summary}`);
  });
});

describe('logdump run uploading to a bucket that never answers', () => {
  it('keeps the test exit code and the complete local dump, and names it', async (t) => {
    const dir = await scratch(t);
    const server = await gcsServer(t, { faults: { neverAnswer: true } });
    const out = join(dir, 'D.tar.gz');
    const result = await logdump(
      ['run', '--sim', 'healthy', '--upload', 'gs://logdump-test/p', '--gcs-endpoint', server.endpoint, '--timeout', '6s', '--out', out, '--', 'false'],
      { cwd: dir, timeoutMs: 60_000 },
    );
    assert.equal(result.code, 1, described(result));
    assert.ok(server.faultCounts().unanswered > 0, 'the upload was tried');
    assert.deepEqual(server.objects('logdump-test'), []);
    await completeDump(out);
    const problem = logdumpLines(result.stderr).filter((line) => line.startsWith('logdump: uploading'));
    assert.equal(problem.length, 1, described(result));
    assert.ok(problem[0]?.includes(out), `the upload problem names the local copy ${out}: ${problem[0]}`);
    assert.deepEqual(stackLines(result.stderr), []);
    assert.ok(result.durationMs < 25_000, `took ${Math.round(result.durationMs)} ms with --timeout 6s`);
  });
});
