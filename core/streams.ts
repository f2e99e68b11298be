import type { Writable } from 'node:stream';

/**
 * Resolves when a stream that refused a write can take more bytes, or is gone:
 * waiting for 'drain' alone would hang forever on a peer that hung up.
 */
export function drainedOrClosed(stream: Writable): Promise<void> {
  if (stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}
