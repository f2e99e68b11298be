import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { createParallelGzip } from '../../archive/parallel-gzip.js';

async function compress(chunks: Buffer[], blockBytes: number): Promise<Buffer> {
  const out: Buffer[] = [];
  await pipeline(Readable.from(chunks), createParallelGzip({ level: 6, blockBytes, parallel: 3 }), async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) out.push(chunk);
  });
  return Buffer.concat(out);
}

test('many members in order decompress to the input, with zlib and with the system gzip', async () => {
  const text = Buffer.from('I0210 19:12:45.046912    1353 prober.go:107] "Probe failed" probeType="Readiness"\n'.repeat(5000));
  const input = Buffer.concat([text, randomBytes(300_000), text]);
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < input.length; offset += 7_919) chunks.push(input.subarray(offset, offset + 7_919));
  const gz = await compress(chunks, 64 * 1024);
  assert.ok(gz.length < input.length, 'it compresses');
  assert.ok(gunzipSync(gz).equals(input), "Node's gunzip reads every member");
  const child = execFile('gzip', ['-dc'], { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 });
  child.stdin?.end(gz);
  const system = await new Promise<Buffer>((resolve, reject) => {
    const out: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`gzip -dc exited ${code}`))));
  });
  assert.ok(system.equals(input), 'gzip -dc reads every member');
});

test('an empty input is still a valid gzip file', async () => {
  const gz = await compress([], 1024);
  assert.ok(gz.length >= 20, 'one member: header and trailer');
  assert.equal(gunzipSync(gz).length, 0);
});
