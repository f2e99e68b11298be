import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Analysis } from '../../analyzers/types.js';
import { runLogdump } from '../support/cli.js';
import { collectedDump, gcsServer } from './fixtures.js';

const BUCKET = 'ci-artifacts';

/** What a reader compares between two analyses of the same dump. */
async function findings(dump: string, endpoint?: string): Promise<string[]> {
  const result = await runLogdump(['analyze', dump, '--format', 'json', ...(endpoint ? ['--gcs-endpoint', endpoint] : [])]);
  assert.equal(result.code, 0, result.stderr);
  const analysis = JSON.parse(result.stdout) as Analysis;
  return analysis.findings.map((finding) => `${finding.severity} ${finding.id} ${finding.title} ×${finding.count} ${finding.samples.map((sample) => `${sample.path}:${sample.line}`).join(' ')}`);
}

test('logdump analyze gs://... finds on an uploaded dump, expanded or archived, what it finds locally', async (t) => {
  const dump = await collectedDump();
  const server = await gcsServer(t);
  for (const mode of ['expanded', 'archive']) {
    const uploaded = await runLogdump(['upload', dump, `gs://${BUCKET}/job/1/${mode}`, '--mode', mode, '--gcs-endpoint', server.endpoint]);
    assert.equal(uploaded.code, 0, uploaded.stderr);
  }
  const local = await findings(dump);
  assert.match(local[0] ?? '', /statefulset-ordered-start-stall/);
  assert.deepEqual(await findings(`gs://${BUCKET}/job/1/expanded`, server.endpoint), local);
  assert.deepEqual(await findings(`gs://${BUCKET}/job/1/archive/dump.tar.gz`, server.endpoint), local);
  // The endpoint may also come from the environment, as the GCS client libraries read it.
  const fromEnvironment = await runLogdump(['analyze', `gs://${BUCKET}/job/1/expanded`, '--format', 'text'], { env: { STORAGE_EMULATOR_HOST: server.endpoint } });
  assert.equal(fromEnvironment.code, 0, fromEnvironment.stderr);
  assert.match(fromEnvironment.stdout, /^verdict: StatefulSet e2e-tests-statefulset-vtc1w\/cockroachdb is stuck/);
});

test('logdump analyze of a gs:// location that is not a URL it understands is a usage error', async () => {
  const result = await runLogdump(['analyze', 'gs://']);
  assert.equal(result.code, 2, result.stderr);
  assert.equal(result.stderr.trim().split('\n').length, 1);
});
