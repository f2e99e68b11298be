import { Storage } from '@google-cloud/storage';
import assert from 'node:assert/strict';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { createStorage } from '../../gcs/gcs-client.js';
import { GcsSink, UploadError } from '../../gcs/gcs-sink.js';
import { gcswebUrl, parseGcsUrl, spyglassUrl } from '../../gcs/gcs-url.js';
import { readGcsDump } from '../../gcs/read-gcs.js';
import { uploadDump } from '../../gcs/upload-dump.js';
import { UsageError } from '../../core/errors.js';
import { runLogdump } from '../support/cli.js';
import { archiveContents, collectedDump, FAST_RETRY, gcsServer, patternBytes, scratchDir } from './fixtures.js';

const BUCKET = 'logdump-test';

test('gs:// URLs parse, and bad ones are one-line usage errors; browse URLs', () => {
  assert.deepEqual(parseGcsUrl('gs://kubernetes-jenkins/logs/job/123/'), { bucket: 'kubernetes-jenkins', prefix: 'logs/job/123' });
  assert.deepEqual(parseGcsUrl('gs://my_bucket'), { bucket: 'my_bucket', prefix: '' });
  for (const bad of ['s3://b/p', 'gs://', 'gs://AB/x', 'gs://b/x', 'gs://bucket/a//b', 'gs://bucket/../x', '/tmp/x']) {
    assert.throws(() => parseGcsUrl(bad), (error: unknown) => error instanceof UsageError && !error.message.includes('\n'), bad);
  }
  const location = parseGcsUrl('gs://kubernetes-jenkins/logs/job/123');
  assert.equal(gcswebUrl(location), 'https://gcsweb.k8s.io/gcs/kubernetes-jenkins/logs/job/123/');
  assert.equal(spyglassUrl(location), 'https://prow.k8s.io/view/gs/kubernetes-jenkins/logs/job/123');
});

test('logdump upload: expanded and archive modes are byte-identical on download, with content types', async (t) => {
  const dump = await collectedDump();
  const server = await gcsServer(t);
  const expanded = await runLogdump(['upload', dump, `gs://${BUCKET}/run/expanded`, '--gcs-endpoint', server.endpoint]);
  assert.equal(expanded.code, 0, expanded.stderr);
  const local = await archiveContents(dump);
  assert.match(expanded.stdout, new RegExp(`^uploaded ${local.size} objects, \\d+ bytes: https://gcsweb.k8s.io/gcs/${BUCKET}/run/expanded/\\n$`));
  const archive = await runLogdump(['upload', dump, `gs://${BUCKET}/run/archive`, '--mode', 'archive', '--gcs-endpoint', server.endpoint]);
  assert.equal(archive.code, 0, archive.stderr);
  assert.match(archive.stdout, /^uploaded 1 objects, \d+ bytes: /);

  const storage = new Storage({ apiEndpoint: server.endpoint, projectId: 'test' });
  const bucket = storage.bucket(BUCKET);
  for (const [path, bytes] of local) {
    const [downloaded] = await bucket.file(`run/expanded/${path}`).download();
    assert.ok(downloaded.equals(bytes), path);
  }
  const [archived] = await bucket.file('run/archive/dump.tar.gz').download();
  assert.ok(archived.equals(await readFile(dump)));

  const types = new Map(server.objects(BUCKET).map((object) => [object.name, object.contentType]));
  assert.equal(types.get('run/expanded/manifest.json'), 'application/json');
  assert.equal(types.get('run/archive/dump.tar.gz'), 'application/gzip');
  const log = [...types].find(([name]) => name.endsWith('.log'));
  assert.equal(log?.[1], 'text/plain; charset=utf-8');
});

test('a directory dump is uploaded file by file, and read-gcs yields the same paths and bytes for both modes', async (t) => {
  const dump = await collectedDump();
  const server = await gcsServer(t);
  const local = await archiveContents(dump);
  const dir = await scratchDir(t);
  for (const [path, bytes] of local) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), bytes);
  }
  const fromDir = await uploadDump(dir, parseGcsUrl(`gs://${BUCKET}/dir`), { mode: 'expanded', endpoint: server.endpoint });
  assert.equal(fromDir.failed.length, 0);
  assert.equal(fromDir.uploaded.length, local.size);
  await uploadDump(dump, parseGcsUrl(`gs://${BUCKET}/arch`), { mode: 'archive', endpoint: server.endpoint });

  for (const url of [`gs://${BUCKET}/dir`, `gs://${BUCKET}/arch/dump.tar.gz`]) {
    const read = new Map<string, Buffer>();
    for await (const entry of readGcsDump(parseGcsUrl(url), { endpoint: server.endpoint })) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry.body) chunks.push(chunk as Buffer);
      const bytes = Buffer.concat(chunks);
      assert.equal(bytes.byteLength, entry.size, entry.path);
      read.set(entry.path, bytes);
    }
    assert.deepEqual([...read.keys()].sort(), [...local.keys()].sort(), url);
    for (const [path, bytes] of local) assert.ok(read.get(path)?.equals(bytes), `${url} ${path}`);
  }
});

test('a resumable upload in several chunks survives a cut connection and a 503 rate', async (t) => {
  const server = await gcsServer(t, { seed: 7 });
  const dir = await scratchDir(t);
  const file = join(dir, 'big.tar.gz');
  const bytes = patternBytes(3 * 1024 * 1024 + 123);
  await writeFile(file, bytes);
  server.setFaults({ errorRate: 0.15, cutUploadAfterBytes: 100_000, cuts: 2 });
  const result = await uploadDump(file, parseGcsUrl(`gs://${BUCKET}/big`), {
    mode: 'archive',
    endpoint: server.endpoint,
    retry: FAST_RETRY,
    chunkSizeBytes: 256 * 1024,
  });
  const counts = server.faultCounts();
  assert.equal(result.failed.length, 0, result.failed.map(String).join('; '));
  assert.equal(counts.cuts, 2, 'both cuts happened');
  assert.ok(counts.injected503 >= 1, `503s were injected: ${JSON.stringify(counts)}`);
  server.setFaults({});
  const storage = new Storage({ apiEndpoint: server.endpoint, projectId: 'test' });
  const [downloaded] = await storage.bucket(BUCKET).file('big/big.tar.gz').download();
  assert.ok(downloaded.equals(bytes));
});

test('small entries (multipart uploads) are retried after 503s too', async (t) => {
  const server = await gcsServer(t, { seed: 3 });
  const storage = createStorage({ endpoint: server.endpoint, retry: FAST_RETRY });
  const sink = new GcsSink({ storage, location: parseGcsUrl(`gs://${BUCKET}/small`) });
  server.setFaults({ errorRate: 0.5 });
  const sizes = await Promise.all(['a.log', 'b.json', 'c.md'].map((path, index) => sink.writeEntry(path, Readable.from([patternBytes(1000 + index, index + 1)]))));
  await sink.close();
  assert.deepEqual(sizes, [1000, 1001, 1002]);
  assert.ok(server.faultCounts().injected503 >= 1);
  assert.deepEqual(server.objects(BUCKET).map((object) => [object.name, object.contentType]).sort(), [
    ['small/a.log', 'text/plain; charset=utf-8'],
    ['small/b.json', 'application/json'],
    ['small/c.md', 'text/markdown; charset=utf-8'],
  ]);
});

test('an entry that fails after retries rejects with an UploadError naming the object', async (t) => {
  const server = await gcsServer(t);
  const storage = createStorage({ endpoint: server.endpoint, retry: { maxRetries: 1, maxRetryDelaySeconds: 1 } });
  const sink = new GcsSink({ storage, location: parseGcsUrl(`gs://${BUCKET}/fail`) });
  server.setFaults({ errorRate: 1 });
  await assert.rejects(sink.writeEntry('x.log', Readable.from(['hello'])), (error: unknown) => error instanceof UploadError && error.objectName === 'fail/x.log');
});

test('a server that never answers: a one-line failure within --timeout, exit 3, the local dump intact', async (t) => {
  const dump = await collectedDump();
  const before = await readFile(dump);
  const server = await gcsServer(t, { faults: { neverAnswer: true } });
  const result = await runLogdump(['upload', dump, `gs://${BUCKET}/never`, '--gcs-endpoint', server.endpoint, '--timeout', '2s']);
  assert.equal(result.code, 3);
  assert.equal(result.stdout, '');
  assert.match(result.stderr, new RegExp(`^logdump: uploading .*nothing could be uploaded \\(the local dump ${dump.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is intact\\).*\\n$`));
  assert.ok(result.durationMs < 2000 + 3000, `took ${Math.round(result.durationMs)} ms`);
  assert.ok((await readFile(dump)).equals(before));
  assert.ok((await stat(dump)).isFile());
});

test('usage errors exit 2 with one line', async () => {
  const bad = await runLogdump(['upload', 'missing.tar.gz', 'gs://bucket/x', '--gcs-endpoint', 'http://127.0.0.1:9']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^logdump: the dump missing\.tar\.gz cannot be read: .*\n$/);
  const url = await runLogdump(['upload', 'missing.tar.gz', 'bucket/x']);
  assert.equal(url.code, 2);
  assert.equal(url.stderr.split('\n').length, 2);
});

test('a damaged local archive: not a gzip at all is a usage error; a truncated one uploads what precedes the cut, exit 1', async (t) => {
  const dump = await collectedDump();
  const server = await gcsServer(t);
  const dir = await scratchDir(t);
  const garbage = join(dir, 'garbage.tar.gz');
  await writeFile(garbage, patternBytes(5000));
  const bad = await runLogdump(['upload', garbage, `gs://${BUCKET}/garbage`, '--gcs-endpoint', server.endpoint]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^logdump: the dump .*garbage\.tar\.gz is not a readable \.tar\.gz: [^\n]*\n$/);
  assert.equal(server.objects(BUCKET).length, 0);

  const whole = await readFile(dump);
  const truncated = join(dir, 'truncated.tar.gz');
  await writeFile(truncated, whole.subarray(0, Math.floor(whole.length / 2)));
  const cut = await runLogdump(['upload', truncated, `gs://${BUCKET}/truncated`, '--gcs-endpoint', server.endpoint]);
  assert.equal(cut.code, 1, cut.stderr);
  const uploaded = server.objects(BUCKET).filter((object) => object.name.startsWith('truncated/'));
  assert.ok(uploaded.length > 0 && uploaded.length < (await archiveContents(dump)).size, `${uploaded.length} objects`);
  assert.match(cut.stdout, /^uploaded \d+ objects, \d+ bytes, \d+ failed \(first: .*unexpected end of file/);
});
