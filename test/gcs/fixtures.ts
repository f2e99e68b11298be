import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { readArchiveEntries } from '../../archive/read-archive.js';
import { startGcsTestServer } from '../../gcs/test-server.js';
import type { GcsTestServer, GcsTestServerOptions } from '../../gcs/test-server.js';
import { runLogdump, tempDir } from '../support/cli.js';

/** Retries as fast as the client allows (its first backoff is 1 s), and not forever. */
export const FAST_RETRY = { maxRetries: 12, maxRetryDelaySeconds: 1, retryDelayMultiplier: 1.1 } as const;

/** A test server closed when the test ends. */
export async function gcsServer(t: TestContext, options: GcsTestServerOptions = {}): Promise<GcsTestServer> {
  const server = await startGcsTestServer(options);
  t.after(() => server.close());
  return server;
}

/** A temporary directory removed when the test ends. */
export async function scratchDir(t: TestContext): Promise<string> {
  const { dir, cleanup } = await tempDir('logdump-gcs-');
  t.after(cleanup);
  return dir;
}

let simDump: Promise<string> | undefined;

/** A dump of `statefulset-quorum-deadlock` made by the CLI, as a user makes one; made once per test file. */
export function collectedDump(): Promise<string> {
  simDump ??= (async () => {
    const { dir } = await tempDir('logdump-gcs-dump-');
    const file = join(dir, 'dump.tar.gz');
    const result = await runLogdump(['collect', '--sim', 'statefulset-quorum-deadlock', '-o', file]);
    if (result.code !== 0) throw new Error(`logdump collect failed (${result.code}): ${result.stderr}`);
    // Shared by the tests of a file, so it goes when the process does.
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    return file;
  })();
  return simDump;
}

/** Every file of a local .tar.gz, path → bytes. */
export async function archiveContents(file: string): Promise<Map<string, Buffer>> {
  const contents = new Map<string, Buffer>();
  for await (const entry of readArchiveEntries(file)) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry.body) chunks.push(chunk as Buffer);
    contents.set(entry.path, Buffer.concat(chunks));
  }
  return contents;
}

export { patternBytes } from '../archive/fixtures.js';

/** Runs a program; resolves with its exit code and output. */
export function runProgram(command: string, args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 30_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
