/**
 * Writing a handler's Reply to a response with backpressure (a log of a
 * gigabyte streams in chunks); shared by the API server simulator and the
 * simulated kubelets.
 */
import type { ServerResponse } from 'node:http';
import type { Reply } from './reply.js';
import { drainedOrClosed } from '../core/streams.js';

/** A JSON body with its length. */
export function writeJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  response.end(text);
}

async function writeStream(response: ServerResponse, status: number, contentType: string, chunks: Iterable<Buffer> | AsyncIterable<Buffer>): Promise<void> {
  response.writeHead(status, { 'Content-Type': contentType });
  for await (const chunk of chunks) {
    if (response.destroyed) return;
    if (!response.write(chunk)) await drainedOrClosed(response);
  }
  response.end();
}

/** Writes a Reply and notes the status sent in `record`; resolves when it is written (or the client left). */
export async function writeReply(response: ServerResponse, reply: Reply, record: { status: number }): Promise<void> {
  switch (reply.type) {
    case 'json':
      record.status = reply.status;
      return writeJson(response, reply.status, reply.body);
    case 'status':
      record.status = reply.body.code;
      return writeJson(response, reply.body.code, reply.body);
    case 'text':
      record.status = reply.status;
      response.writeHead(reply.status, { 'Content-Type': reply.contentType, 'X-Content-Type-Options': 'nosniff' });
      response.end(reply.body);
      return;
    case 'stream':
      record.status = reply.status;
      return writeStream(response, reply.status, reply.contentType, reply.chunks);
    case 'hang':
      // Never answered: the socket is destroyed by the client or by close().
      return;
  }
}

