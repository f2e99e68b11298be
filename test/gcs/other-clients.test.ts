/**
 * The test server is ours, so it can share our client's misunderstandings of
 * GCS. Two independent clients check it: Debian's rclone (Go, the google-api
 * Go client) and the machine's `gcloud storage` (Python). What our client
 * writes they must read byte-identically, and what they write ours must read.
 */
import { Storage } from '@google-cloud/storage';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import type { TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseGcsUrl } from '../../gcs/gcs-url.js';
import { uploadDump } from '../../gcs/upload-dump.js';
import { archiveContents, collectedDump, gcsServer, patternBytes, runProgram, scratchDir } from './fixtures.js';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const SETUP_RCLONE = join(REPO_ROOT, 'test/gcs/setup-rclone.sh');
const BUCKET = 'other-clients';

/** Why rclone cannot be used here, or undefined when it can. */
async function rcloneMissing(): Promise<string | undefined> {
  const setup = await runProgram('bash', [SETUP_RCLONE], {}, 300_000);
  return setup.code === 0 ? undefined : `rclone is not installed and setup-rclone.sh could not install it: ${setup.stderr.trim().split('\n')[0] ?? ''}`;
}

async function gcloudMissing(): Promise<string | undefined> {
  const probe = await runProgram('gcloud', ['--version']).catch((error: unknown) => ({ code: -1, stdout: '', stderr: String(error) }));
  return probe.code === 0 ? undefined : 'gcloud is not on the PATH';
}

/** rclone's on-the-fly remote for the server: anonymous, JSON API at our endpoint. */
function rcloneRemote(url: string): string {
  return `:gcs,anonymous=true,endpoint='${url}/storage/v1/':${BUCKET}`;
}

async function rclone(t: TestContext, args: string[]): Promise<string> {
  const result = await runProgram('rclone', ['--config', '/dev/null', '--retries', '1', ...args]);
  assert.equal(result.code, 0, `rclone ${args.join(' ')}: ${result.stderr}`);
  t.diagnostic(`rclone ${args[0] ?? ''} ok`);
  return result.stdout;
}

test('rclone reads what our client wrote, and our client reads what rclone wrote', async (t) => {
  const missing = await rcloneMissing();
  if (missing) return t.skip(missing);
  const dump = await collectedDump();
  const server = await gcsServer(t);
  const dir = await scratchDir(t);
  await uploadDump(dump, parseGcsUrl(`gs://${BUCKET}/ours`), { mode: 'expanded', endpoint: server.endpoint });
  await rclone(t, ['copy', `${rcloneRemote(server.url)}/ours`, join(dir, 'copy')]);
  for (const [path, bytes] of await archiveContents(dump)) {
    assert.ok((await readFile(join(dir, 'copy', path))).equals(bytes), path);
  }

  // 20 MiB goes resumable in rclone's 16 MiB chunks (POSTed by the Go client).
  const big = patternBytes(20 * 1024 * 1024, 5);
  const small = Buffer.from('written by rclone\n');
  await writeFile(join(dir, 'big.bin'), big);
  await writeFile(join(dir, 'small.log'), small);
  await rclone(t, ['copy', join(dir, 'big.bin'), `${rcloneRemote(server.url)}/theirs`]);
  await rclone(t, ['copy', join(dir, 'small.log'), `${rcloneRemote(server.url)}/theirs`]);
  const bucket = new Storage({ apiEndpoint: server.endpoint, projectId: 'test' }).bucket(BUCKET);
  assert.ok((await bucket.file('theirs/big.bin').download())[0].equals(big));
  assert.ok((await bucket.file('theirs/small.log').download())[0].equals(small));
  const listed = await rclone(t, ['lsf', '--recursive', `${rcloneRemote(server.url)}/theirs`]);
  assert.deepEqual(listed.trim().split('\n').sort(), ['big.bin', 'small.log']);
});

test('gcloud storage reads what our client wrote, and our client reads what gcloud wrote', async (t) => {
  const missing = await gcloudMissing();
  if (missing) return t.skip(missing);
  const server = await gcsServer(t);
  const dir = await scratchDir(t);
  const env = {
    CLOUDSDK_API_ENDPOINT_OVERRIDES_STORAGE: `${server.url}/`,
    CLOUDSDK_AUTH_DISABLE_CREDENTIALS: 'true',
    CLOUDSDK_CORE_PROJECT: 'test',
    CLOUDSDK_CONFIG: join(dir, 'gcloud-config'),
    CLOUDSDK_CORE_DISABLE_PROMPTS: '1',
  };
  const ours = patternBytes(300_000, 9);
  await writeFile(join(dir, 'ours.tar.gz'), ours);
  await uploadDump(join(dir, 'ours.tar.gz'), parseGcsUrl(`gs://${BUCKET}/g`), { mode: 'archive', endpoint: server.endpoint });
  const copy = await runProgram('gcloud', ['storage', 'cp', `gs://${BUCKET}/g/ours.tar.gz`, join(dir, 'back.tar.gz')], env, 60_000);
  assert.equal(copy.code, 0, copy.stderr);
  assert.ok((await readFile(join(dir, 'back.tar.gz'))).equals(ours));

  const theirs = Buffer.from('written by gcloud\r\nwith a CRLF and a trailing newline\n');
  await writeFile(join(dir, 'theirs.log'), theirs);
  const upload = await runProgram('gcloud', ['storage', 'cp', join(dir, 'theirs.log'), `gs://${BUCKET}/g/theirs.log`], env, 60_000);
  assert.equal(upload.code, 0, upload.stderr);
  const bucket = new Storage({ apiEndpoint: server.endpoint, projectId: 'test' }).bucket(BUCKET);
  assert.ok((await bucket.file('g/theirs.log').download())[0].equals(theirs));
});
