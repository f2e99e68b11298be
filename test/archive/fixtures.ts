import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { TestContext } from 'node:test';

/** A fresh directory under os.tmpdir(), removed after the test. */
export async function makeTempDir(t: TestContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'logdump-archive-test-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Deterministic, non-repeating-looking bytes, so a misplaced chunk changes the content. */
export function patternBytes(size: number, seed = 1): Buffer {
  const bytes = Buffer.alloc(size);
  let state = (seed * 2654435761) >>> 0 || 1;
  for (let i = 0; i < size; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    bytes[i] = state & 0xff;
  }
  return bytes;
}

/** Yields `data` in `chunkSize` pieces, giving the event loop a turn between them, like a log stream. */
export async function* slowChunks(data: Buffer, chunkSize: number): AsyncGenerator<Buffer> {
  for (let offset = 0; offset < data.byteLength; offset += chunkSize) {
    await nextTurn();
    yield data.subarray(offset, offset + chunkSize);
  }
}

/** Yields `bytesBefore` bytes, then throws `error`, like an HTTP stream cut mid-log. */
export async function* failingSource(bytesBefore: number, error: Error): AsyncGenerator<Buffer> {
  yield* slowChunks(patternBytes(bytesBefore, 99), 16 * 1024);
  throw error;
}

export interface ProcessResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a program without a shell and returns its exit code and output. */
export function runProgram(file: string, args: readonly string[]): Promise<ProcessResult> {
  return new Promise((resolve) => {
    execFile(file, args, { maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      resolve({ code, stdout, stderr });
    });
  });
}

/** An entry source that yields each string as one chunk. */
export async function* text(...parts: string[]): AsyncGenerator<string> {
  yield* parts;
}
