import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LineScanner, MAX_LINE_BYTES, type ScannedLine } from '../../analyzers/scan/line-scanner.js';
import { lineTime } from '../../analyzers/scan/line-time.js';
import { normalizeLine } from '../../analyzers/scan/normalize.js';

function scan(chunks: (string | Buffer)[], patterns: RegExp[], everyLine = false): { lines: ScannedLine[]; count: number } {
  const lines: ScannedLine[] = [];
  const scanner = new LineScanner({ patterns, everyLine }, (line) => lines.push(line));
  for (const chunk of chunks) scanner.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  scanner.end();
  return { lines, count: scanner.lineCount };
}

describe('the line scanner', () => {
  const log = ['I0210 ok one', 'E0210 boom two', 'I0210 ok three', 'W0210 Readiness probe failed four', 'I0210 ok five', 'last without newline boom'].join('\n');

  it('hands over only candidate lines, with their line numbers, however the log is cut into chunks', () => {
    const expected = [
      { number: 2, text: 'E0210 boom two' },
      { number: 4, text: 'W0210 Readiness probe failed four' },
      { number: 6, text: 'last without newline boom' },
    ];
    for (let size = 1; size <= log.length; size += 3) {
      const chunks: string[] = [];
      for (let at = 0; at < log.length; at += size) chunks.push(log.slice(at, at + size));
      const { lines, count } = scan(chunks, [/boom|Readiness probe failed/g]);
      assert.deepEqual(lines.map(({ number, text }) => ({ number, text })), expected, `chunk size ${size}`);
      assert.equal(count, 6);
    }
  });

  it('finds lines by patterns anchored on the newline before them, in any chunking', () => {
    const text = 'I0210 a\nE0210 b\nI0210 c\nE0210 d\nE0210 e\nE0210 f\n';
    for (let size = 1; size <= text.length; size += 1) {
      const chunks: string[] = [];
      for (let at = 0; at < text.length; at += size) chunks.push(text.slice(at, at + size));
      const { lines } = scan(chunks, [/(?:^|\n)E0210/g]);
      assert.deepEqual(lines.map((line) => [line.number, line.text]), [[2, 'E0210 b'], [4, 'E0210 d'], [5, 'E0210 e'], [6, 'E0210 f']], `chunk size ${size}`);
    }
  });

  it('gives every line when asked, CRLF endings trimmed', () => {
    const { lines } = scan(['a\r\nb\r\n', 'c'], [], true);
    assert.deepEqual(lines.map((line) => [line.number, line.text]), [[1, 'a'], [2, 'b'], [3, 'c']]);
  });

  it('cuts a line longer than the limit and keeps counting after it, without holding it', () => {
    const huge = Buffer.alloc(50 * 1024 * 1024, 'x');
    const { lines, count } = scan([Buffer.from('needle at start '), huge, Buffer.from('\nsecond needle\n')], [/needle/g]);
    assert.equal(count, 2);
    assert.equal(lines.length, 2);
    assert.equal(lines[0]?.cut, true);
    assert.ok((lines[0]?.text.length ?? 0) <= MAX_LINE_BYTES + 1);
    assert.deepEqual([lines[1]?.number, lines[1]?.text, lines[1]?.cut], [2, 'second needle', false]);
  });

  it('survives binary bytes and invalid UTF-8', () => {
    const bytes = Buffer.concat([Buffer.from([0, 0xff, 0xfe, 0x80, 10]), Buffer.from('boom \xc3\x28 end\n', 'latin1')]);
    const { lines } = scan([bytes], [/boom/g]);
    assert.equal(lines.length, 1);
    assert.equal(lines[0]?.number, 2);
    assert.match(lines[0]?.text ?? '', /^boom \uFFFD\( end$/);
  });
});

describe('line times and shapes', () => {
  const collected = new Date('2017-02-10T20:00:00Z');

  it('reads klog, journald and RFC3339 prefixes, taking the year from the dump', () => {
    assert.equal(lineTime('E0210 19:12:45.046912    1353 event.go:259] x', collected), Date.parse('2017-02-10T19:12:45.046Z'));
    assert.equal(lineTime('Feb 10 19:12:45.046912 node-1 kubelet[1353]: E0210 x', collected), Date.parse('2017-02-10T19:12:45.046Z'));
    assert.equal(lineTime('2017-02-10T19:12:45.5Z hello', collected), Date.parse('2017-02-10T19:12:45.5Z'));
    assert.equal(lineTime('Dec 31 23:59:59 node kubelet[1]: x', collected), Date.parse('2016-12-31T23:59:59Z'), 'a date after collection is last year');
    assert.equal(lineTime('no time here', collected), undefined);
  });

  it('normalizes what changes between repeats of the same error', () => {
    const a = normalizeLine('E0210 19:12:45.046912    1353 reflector.go:138] failed to list *v1.Pod: Get "https://10.0.0.1:443/api/v1/pods?limit=500": dial tcp 10.0.0.1:443: connect: connection refused');
    const b = normalizeLine('E0211 07:01:02.000001    2211 reflector.go:138] failed to list *v1.Pod: Get "https://10.0.0.9:443/api/v1/pods?limit=500": dial tcp 10.0.0.9:443: connect: connection refused');
    assert.equal(a, b);
    assert.equal(normalizeLine('pod web-7d4b9c8f6d-x2k9p uid 3f2c1a9e-1b2c-4d5e-8f90-123456789abc failed after 250ms'), 'pod web-<hash> uid <uid> failed after <duration>');
    assert.notEqual(normalizeLine('E0210 a.go:1] cannot mount volume'), normalizeLine('E0210 a.go:1] cannot pull image'));
  });
});
