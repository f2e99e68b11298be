/**
 * One simulated kubelet as its own HTTPS server, for a real kube-apiserver to
 * forward to (the way kwok keeps kubelets simulated): the API server sends
 * `pods/{p}/log` to `/containerLogs/{ns}/{pod}/{container}?...` and
 * `nodes/{n}/proxy/logs/...` to `/logs/...` on the port the Node's status names,
 * over TLS without checking the kubelet's certificate. It answers from the same
 * state and handlers as the in-process simulator (pod-logs.ts, node-logs.ts).
 */
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ClusterState } from './cluster.js';
import { formatRfc3339Nano, parseRfc3339Micros } from './log-store.js';
import { serveNodeProxy } from './node-logs.js';
import { hasContainer, parseLogOptions, serveContainerLog, type LogOptions } from './pod-logs.js';
import type { Reply } from './reply.js';
import { StatusError } from './status.js';
import { createSelfSignedTls } from './tls.js';
import type { Faults } from './types.js';
import { writeReply } from './write-reply.js';

/** How to start one node's kubelet. */
export interface KubeletOptions {
  state: ClusterState;
  node: string;
  /** Only the NodeLogQuery pacing faults apply here. */
  faults: Pick<Faults, 'nodeLogQueryCutMs' | 'nodeLogQueryChunkDelayMs'>;
  /**
   * How far the caller's clock is ahead of the scenario's, in microseconds.
   * Absolute times forwarded by the API server (`sinceTime`, `untilTime`) are on
   * the real clock; the logs are on the scenario's, so those times are moved back
   * by this much before they are compared with log times.
   */
  clockOffsetMicros: number;
  /** 0 or absent: an ephemeral port. */
  port?: number;
}

/** A request the kubelet served. */
export interface KubeletRequest {
  path: string;
  query: string;
  status: number;
}

/** A kubelet serving on 127.0.0.1. */
export interface RunningKubelet {
  node: string;
  port: number;
  requests: readonly KubeletRequest[];
  close(): Promise<void>;
}

/** A Go http.Error-less go-restful WriteError: the message, no newline, plain text. */
function restfulError(status: number, message: string): Reply {
  return { type: 'text', status, contentType: 'text/plain; charset=utf-8', body: message };
}

function shiftTime(text: string | null, offsetMicros: number): string | undefined {
  if (!text) return undefined;
  const micros = parseRfc3339Micros(text);
  return micros === undefined ? undefined : formatRfc3339Nano(micros - offsetMicros);
}

/** server.go getContainerLogs, with its own (terse) messages for a bad query. */
function containerLogs(options: KubeletOptions, segments: string[], query: URLSearchParams): Reply {
  const [namespace, podName, container] = segments;
  if (!namespace || !podName || !container || segments.length !== 3) return restfulError(400, '{"message": "Missing podID."}');
  const pod = options.state.pods.get(`${namespace}/${podName}`);
  const nodeName = (pod?.['spec'] as { nodeName?: string } | undefined)?.nodeName;
  if (!pod || nodeName !== options.node) return restfulError(404, `pod "${podName}" does not exist`);
  if (!hasContainer(pod, container)) return restfulError(404, `container "${container}" not found in pod "${podName}"`);
  let parsed: LogOptions;
  try {
    parsed = parseLogOptions(podName, query);
  } catch (error) {
    if (!(error instanceof StatusError)) throw error;
    return error.body.code === 422 ? restfulError(422, '{"message": "Invalid request."}') : restfulError(400, '{"message": "Unable to decode query."}');
  }
  if (parsed.sinceTime !== undefined) parsed = { ...parsed, sinceTime: parsed.sinceTime - options.clockOffsetMicros };
  try {
    return serveContainerLog(options.state, pod, container, parsed);
  } catch (error) {
    // GetKubeletContainerLogs failed (waiting, no previous...): 400 with err.Error().
    if (!(error instanceof StatusError)) throw error;
    return restfulError(400, error.body.message);
  }
}

function route(options: KubeletOptions, pathname: string, query: URLSearchParams): Reply {
  const segments = pathname.split('/').filter((segment) => segment !== '').map((segment) => decodeURIComponent(segment));
  if (segments[0] === 'containerLogs') return containerLogs(options, segments.slice(1), query);
  if (segments[0] === 'logs') {
    const params = new URLSearchParams(query);
    for (const field of ['sinceTime', 'untilTime']) {
      const shifted = shiftTime(params.get(field), options.clockOffsetMicros);
      if (shifted !== undefined) params.set(field, shifted);
    }
    const rest = `${segments.join('/')}${pathname.endsWith('/') ? '/' : ''}`;
    const pacing = { cutMs: options.faults.nodeLogQueryCutMs, chunkDelayMs: options.faults.nodeLogQueryChunkDelayMs };
    return serveNodeProxy(options.state, options.node, rest, params, pacing);
  }
  return { type: 'text', status: 404, contentType: 'text/plain; charset=utf-8', body: '404 page not found\n' };
}

/** Starts one node's kubelet on 127.0.0.1 with a fresh self-signed certificate. */
export async function startKubelet(options: KubeletOptions): Promise<RunningKubelet> {
  const requests: KubeletRequest[] = [];
  const listener = (request: IncomingMessage, response: ServerResponse): void => {
    const url = new URL(request.url ?? '/', 'https://127.0.0.1');
    const record: KubeletRequest = { path: url.pathname, query: url.search.slice(1), status: 0 };
    requests.push(record);
    const reply = request.method === 'GET' ? route(options, url.pathname, url.searchParams) : restfulError(405, 'Method Not Allowed');
    writeReply(response, reply, record).catch(() => response.destroy());
  };
  const tls = createSelfSignedTls();
  const server: Server = createServer({ key: tls.key, cert: tls.cert }, listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  return {
    node: options.node,
    port: (server.address() as AddressInfo).port,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
