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
 * back only 32 KiB) and keep the memory in flight at about (parallel + 1) × 1 MiB.
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
  // Blocks are reused once their member is out: allocating a fresh one per MiB
  // made V8 run a full collection every few tens of milliseconds.
  const free: Buffer[] = [];
  let block: Buffer = Buffer.allocUnsafe(options.blockBytes);
  let filled = 0;
  const inFlight: { block: Buffer; member: Promise<Buffer> }[] = [];

  const startMember = (): void => {
    inFlight.push({ block, member: gzipAsync(block.subarray(0, filled), { level: options.level }) });
    block = free.pop() ?? Buffer.allocUnsafe(options.blockBytes);
    filled = 0;
  };

  const pushOldest = async (stream: Transform): Promise<void> => {
    const oldest = inFlight.shift();
    if (!oldest) return;
    stream.push(await oldest.member);
    free.push(oldest.block);
  };

  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      const fill = async (): Promise<void> => {
        for (let offset = 0; offset < chunk.byteLength; ) {
          const copied = chunk.copy(block, filled, offset);
          offset += copied;
          filled += copied;
          if (filled < options.blockBytes) continue;
          startMember();
          // Wait for the oldest member only when the pool is full: that is the backpressure.
          if (inFlight.length >= options.parallel) await pushOldest(this);
        }
      };
      fill().then(() => callback(), callback);
    },
    flush(callback: TransformCallback) {
      // An empty input still makes one (empty) member, so the output is always valid gzip.
      if (filled > 0 || inFlight.length === 0) startMember();
      const drain = async (): Promise<void> => {
        while (inFlight.length > 0) await pushOldest(this);
      };
      drain().then(() => callback(), callback);
    },
  });
}
