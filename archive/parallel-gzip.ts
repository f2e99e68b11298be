import { availableParallelism } from 'node:os';
import { Transform, type TransformCallback } from 'node:stream';
import { promisify } from 'node:util';
import { gzip, type ZlibOptions } from 'node:zlib';

const gzipAsync = promisify<Buffer, ZlibOptions, Buffer>(gzip);

/** Settings of a parallel gzip stream. */
export interface ParallelGzipOptions {
  /** zlib level, 1 (fastest) to 9 (smallest). */
  level: number;
  /** Input bytes per gzip member. */
  blockBytes: number;
  /** Members compressed at once. */
  parallel: number;
}

/**
 * 1 MiB blocks lose almost nothing to independent compression (deflate looks
 * back only 32 KiB) and keep the memory in flight at parallel × 2 MiB.
 */
export const DEFAULT_PARALLEL_GZIP: ParallelGzipOptions = {
  level: 6,
  blockBytes: 1024 * 1024,
  parallel: Math.max(2, availableParallelism()),
};

/**
 * gzip the way pigz does: the input is cut into blocks, each compressed as its
 * own gzip member on libuv's thread pool, and the members are written in
 * order. A concatenation of members is one valid gzip file (RFC 1952 §2.2)
 * that gunzip, tar -z, Python's and Go's readers and Node's zlib all read.
 * One zlib stream compresses on one thread at a time and was the ceiling of a
 * whole collection; this uses every core.
 */
export function createParallelGzip(options: ParallelGzipOptions = DEFAULT_PARALLEL_GZIP): Transform {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const inFlight: Promise<Buffer>[] = [];

  const startBlock = (): void => {
    const block = Buffer.concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    inFlight.push(gzipAsync(block, { level: options.level }));
  };

  const pushOldest = async (stream: Transform): Promise<void> => {
    const oldest = inFlight.shift();
    if (oldest) stream.push(await oldest);
  };

  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      pending.push(chunk);
      pendingBytes += chunk.byteLength;
      if (pendingBytes < options.blockBytes) {
        callback();
        return;
      }
      startBlock();
      // Wait for the oldest member only when the pool is full: that is the backpressure.
      const wait = inFlight.length >= options.parallel ? pushOldest(this) : Promise.resolve();
      wait.then(() => callback(), callback);
    },
    flush(callback: TransformCallback) {
      // An empty input still makes one (empty) member, so the output is always valid gzip.
      if (pendingBytes > 0 || inFlight.length === 0) startBlock();
      const drain = async (): Promise<void> => {
        while (inFlight.length > 0) await pushOldest(this);
      };
      drain().then(() => callback(), callback);
    },
  });
}
