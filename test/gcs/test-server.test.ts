import { Storage } from '@google-cloud/storage';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { test } from 'node:test';
import { createHash } from 'node:crypto';
import { crc32cBase64, updateCrc32c } from '../../gcs/object-hash.js';
import { gcsServer, patternBytes } from './fixtures.js';

const BUCKET = 'listing';

test('crc32c matches the published check value', () => {
  // RFC 3720 appendix B.4: CRC32C of "123456789" is 0xE3069283.
  assert.equal(updateCrc32c(0, Buffer.from('123456789')), 0xe3069283);
  assert.equal(crc32cBase64(0xe3069283), Buffer.from([0xe3, 0x06, 0x92, 0x83]).toString('base64'));
});

test('listing with prefix, delimiter and pages, through the real client', async (t) => {
  const server = await gcsServer(t);
  for (const name of ['a/1.log', 'a/2.log', 'a/b/3.log', 'a/c/4.log', 'a/c/5.log', 'z.log']) server.putObject(BUCKET, name, Buffer.from(name));
  const bucket = new Storage({ apiEndpoint: server.endpoint, projectId: 'test' }).bucket(BUCKET);

  const [all] = await bucket.getFiles({ prefix: 'a/' });
  assert.deepEqual(all.map((file) => file.name), ['a/1.log', 'a/2.log', 'a/b/3.log', 'a/c/4.log', 'a/c/5.log']);

  const [files, , response] = await bucket.getFiles({ prefix: 'a/', delimiter: '/', autoPaginate: false });
  assert.deepEqual(files.map((file) => file.name), ['a/1.log', 'a/2.log']);
  assert.deepEqual((response as { prefixes?: string[] }).prefixes, ['a/b/', 'a/c/']);

  const pages: string[][] = [];
  let query: { pageToken?: string } | null = { };
  while (query) {
    const [page, next]: [{ name: string }[], { pageToken?: string } | null, unknown] = await bucket.getFiles({ prefix: 'a/', maxResults: 2, autoPaginate: false, ...query });
    pages.push(page.map((file) => file.name));
    query = next;
  }
  assert.deepEqual(pages, [['a/1.log', 'a/2.log'], ['a/b/3.log', 'a/c/4.log'], ['a/c/5.log']]);

  const [followed] = await bucket.getFiles({ prefix: 'a/', maxResults: 2 });
  assert.equal(followed.length, 2, 'maxResults caps the total when the client follows pages');
});

test('object JSON, media with x-goog-hash, and GCS error bodies', async (t) => {
  const server = await gcsServer(t);
  const bytes = patternBytes(70_000);
  server.putObject(BUCKET, 'dir/a b.log', bytes, 'text/plain; charset=utf-8');
  const meta = await httpGet(`${server.url}/storage/v1/b/${BUCKET}/o/${encodeURIComponent('dir/a b.log')}`);
  assert.equal(meta.status, 200);
  const object = JSON.parse(meta.body.toString('utf8')) as Record<string, unknown>;
  assert.equal(object['size'], '70000');
  assert.equal(object['md5Hash'], createHash('md5').update(bytes).digest('base64'));
  assert.equal(object['crc32c'], crc32cBase64(updateCrc32c(0, bytes)));
  for (const field of ['etag', 'generation', 'mediaLink', 'updated', 'timeCreated', 'bucket', 'contentType']) assert.ok(field in object, field);

  const media = await httpGet(String(object['mediaLink']));
  assert.ok(media.body.equals(bytes));
  assert.equal(media.headers['x-goog-hash'], `crc32c=${String(object['crc32c'])},md5=${String(object['md5Hash'])}`);

  const missing = await httpGet(`${server.url}/storage/v1/b/${BUCKET}/o/nope?alt=media`);
  assert.equal(missing.status, 404);
  assert.deepEqual(JSON.parse(missing.body.toString('utf8')), {
    error: { code: 404, message: `No such object: ${BUCKET}/nope`, errors: [{ message: `No such object: ${BUCKET}/nope`, domain: 'global', reason: 'notFound' }] },
  });
});

test('multipart uploads with LF line breaks and quoted boundaries, as gcloud sends them', async (t) => {
  const server = await gcsServer(t);
  const media = 'line one\r\nline two\n';
  // gcloud (Python's email package) quotes with single quotes; RFC 2046 with double quotes.
  for (const [name, quoted] of [['single.log', "'==b=='"], ['double.log', '"==b=="']] as const) {
    const body = ['--==b==', 'Content-Type: application/json', '', `{"name":"${name}","contentType":"text/plain"}`, '--==b==', 'Content-Type: text/plain', '', media, '--==b==--', ''].join('\n');
    const response = await httpRequest('POST', `${server.url}/upload/storage/v1/b/${BUCKET}/o?uploadType=multipart`, Buffer.from(body), {
      'Content-Type': `multipart/related; boundary=${quoted}`,
    });
    assert.equal(response.status, 200, response.body.toString('utf8'));
  }
  assert.deepEqual(server.objects(BUCKET).map((object) => [object.name, object.bytes.toString('utf8')]), [['single.log', media], ['double.log', media]]);
});

test('a "never answers" server accepts the connection and stays silent until closed', async (t) => {
  const server = await gcsServer(t, { faults: { neverAnswer: true } });
  await assert.rejects(httpRequest('GET', `${server.url}/storage/v1/b/${BUCKET}/o`, undefined, {}, 300), /timed out/);
  assert.equal(server.faultCounts().unanswered, 1);
});

interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
}

function httpGet(url: string): Promise<RawResponse> {
  return httpRequest('GET', url, undefined, {});
}

function httpRequest(method: string, url: string, body: Buffer | undefined, headers: Record<string, string>, timeoutMs = 5000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`timed out: ${method} ${url}`)));
    req.on('error', reject);
    req.end(body);
  });
}
