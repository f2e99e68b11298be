/**
 * What a handler answers, written out by the server. Handlers stay pure (no
 * sockets), and the server alone deals with backpressure, cuts and faults.
 */
import type { StatusBody } from './status.js';

/** A handler's answer. */
export type Reply =
  | { type: 'json'; status: number; body: unknown }
  | { type: 'status'; body: StatusBody }
  | { type: 'text'; status: number; contentType: string; body: string }
  /** A streamed body; the iterable ends the body when it returns. */
  | { type: 'stream'; status: number; contentType: string; chunks: Iterable<Buffer> | AsyncIterable<Buffer> }
  /** Never answered: a hung kubelet. Ends when the client leaves or the simulator closes. */
  | { type: 'hang' };

/** A JSON 200. */
export function json(body: unknown): Reply {
  return { type: 'json', status: 200, body };
}

/** Plain text as Go's http.Error writes it: the message and a newline. */
export function goHttpError(status: number, message: string): Reply {
  return { type: 'text', status, contentType: 'text/plain; charset=utf-8', body: `${message}\n` };
}

/** Ends a chunk stream after `limit` bytes, cutting the last chunk (kubelet's LimitWriter). */
export function* limitBytes(chunks: Iterable<Buffer>, limit: number): Generator<Buffer> {
  let left = limit;
  for (const chunk of chunks) {
    if (left <= 0) return;
    yield chunk.length <= left ? chunk : chunk.subarray(0, left);
    left -= chunk.length;
  }
}

/** Joins rendered lines into chunks of about `chunkBytes`. */
export function* chunkLines(lines: Iterable<string>, chunkBytes: number): Generator<Buffer> {
  let pending = '';
  for (const line of lines) {
    pending += `${line}\n`;
    if (pending.length >= chunkBytes) {
      yield Buffer.from(pending);
      pending = '';
    }
  }
  if (pending) yield Buffer.from(pending);
}
