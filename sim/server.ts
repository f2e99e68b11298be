/**
 * The simulator's HTTP server: authentication, injected faults, and writing a
 * handler's Reply with backpressure (a log of a gigabyte streams in chunks).
 */
import { randomBytes } from 'node:crypto';
import { chmod, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildClusterState, type ClusterState } from './cluster.js';
import { createRandom } from './prng.js';
import type { Reply } from './reply.js';
import { SIM_USER, route } from './routes.js';
import { loadScenario } from './scenarios/index.js';
import { StatusError, internalError, unauthorized, type StatusBody } from './status.js';
import { createSelfSignedTls, type TlsMaterial } from './tls.js';
import { writeJson, writeReply } from './write-reply.js';
import type { Faults, Scenario } from './types.js';

/** How to start a simulator. */
export interface SimulatorOptions {
  /** A scenario, or the name of a built-in one. */
  scenario: Scenario | string;
  /** Parameters of a named scenario. */
  params?: Record<string, number>;
  /** Overrides the scenario's own faults. */
  faults?: Partial<Faults>;
  /** 0 or absent: an ephemeral port. */
  port?: number;
  /**
   * Serve https with a fresh self-signed certificate (its CA data goes in the
   * kubeconfig). Needed by kubectl, which never sends a token over plain http.
   */
  tls?: boolean;
}

/** One request the simulator served, for assertions ("no /secrets was read"). */
export interface RecordedRequest {
  method: string;
  path: string;
  /** The raw query string, without "?". */
  query: string;
  /** The HTTP status sent; 0 when none was (connection reset, hang). */
  status: number;
}

/** A simulator serving on 127.0.0.1. */
export interface RunningSimulator {
  /** `http://127.0.0.1:PORT` (`https://` with `tls`). */
  url: string;
  scenario: Scenario;
  /** Kubeconfig YAML with the bearer token; context `logdump-sim`. */
  kubeconfig(): string;
  /** Writes kubeconfig() with mode 0600. */
  writeKubeconfig(path: string): Promise<void>;
  requests: readonly RecordedRequest[];
  /** Merges into the current faults (and reseeds the PRNG when `seed` is given). */
  setFaults(faults: Partial<Faults>): void;
  /** Stops serving and ends every open (also hanging) request. */
  close(): Promise<void>;
}

/** Faults of a scenario with none set: a well-behaved cluster. */
export const DEFAULT_FAULTS: Faults = {
  latencyMs: 0,
  errorRate: 0,
  resetRate: 0,
  hangingNodes: [],
  missingNodeLogs: [],
  forbiddenNamespaces: [],
  expireContinueAfterPages: null,
  nodeLogQueryCutMs: 30_000,
  nodeLogQueryChunkDelayMs: 0,
  seed: 1,
};

/** The kubeconfig context (and cluster) name. */
export const KUBECONFIG_CONTEXT = 'logdump-sim';

function renderKubeconfig(url: string, token: string, tls: TlsMaterial | undefined): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `- name: ${KUBECONFIG_CONTEXT}`,
    '  cluster:',
    `    server: ${url}`,
    // @kubernetes/client-node refuses plain http unless TLS verification is "skipped".
    tls ? `    certificate-authority-data: ${Buffer.from(tls.cert).toString('base64')}` : '    insecure-skip-tls-verify: true',
    'users:',
    `- name: ${SIM_USER}`,
    '  user:',
    `    token: ${token}`,
    'contexts:',
    `- name: ${KUBECONFIG_CONTEXT}`,
    '  context:',
    `    cluster: ${KUBECONFIG_CONTEXT}`,
    `    user: ${SIM_USER}`,
    `current-context: ${KUBECONFIG_CONTEXT}`,
    'preferences: {}',
    '',
  ].join('\n');
}

function pathSegments(pathname: string): string[] {
  return pathname.split('/').filter((segment) => segment !== '').map((segment) => decodeURIComponent(segment));
}

/** Starts a simulator on 127.0.0.1. */
export async function startSimulator(options: SimulatorOptions): Promise<RunningSimulator> {
  const scenario = typeof options.scenario === 'string' ? loadScenario(options.scenario, options.params) : options.scenario;
  const state: ClusterState = buildClusterState(scenario);
  let faults: Faults = { ...DEFAULT_FAULTS, ...scenario.faults, ...options.faults };
  let random = createRandom(faults.seed);
  const token = randomBytes(24).toString('hex');
  const requests: RecordedRequest[] = [];

  const startedAt = performance.now();
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const record: RecordedRequest = { method: request.method ?? 'GET', path: url.pathname, query: url.search.slice(1), status: 0 };
    requests.push(record);
    // The cluster's clock is the scenario's: a real API server's Date header agrees
    // with its objects' timestamps, and clients (the collector's node log windows)
    // rely on that rather than on their own clock.
    response.setHeader('Date', new Date(state.nowMicros / 1000 + (performance.now() - startedAt)).toUTCString());
    const current = faults;
    if (request.headers.authorization !== `Bearer ${token}`) {
      record.status = 401;
      return writeJson(response, 401, unauthorized());
    }
    // Two draws per request, always, so one fault's rate does not shift the other's sequence.
    const resetDraw = random();
    const errorDraw = random();
    if (resetDraw < current.resetRate) {
      request.socket.destroy();
      return;
    }
    if (current.latencyMs > 0) await sleep(current.latencyMs);
    if (errorDraw < current.errorRate) {
      record.status = 500;
      return writeJson(response, 500, internalError('injected fault: the simulated apiserver failed this request'));
    }
    let reply: Reply;
    try {
      reply = route(state, { method: record.method, segments: pathSegments(url.pathname), query: url.searchParams }, current, url.pathname.endsWith('/'));
    } catch (error) {
      if (!(error instanceof StatusError)) throw error;
      reply = { type: 'status', body: error.body satisfies StatusBody };
    }
    await writeReply(response, reply, record);
  };

  const listener = (request: IncomingMessage, response: ServerResponse): void => {
    handle(request, response).catch((error: unknown) => {
      // A handler bug: answer 500 if still possible, and keep serving.
      if (!response.headersSent) writeJson(response, 500, internalError(error instanceof Error ? error.message : String(error)));
      else response.destroy();
    });
  };
  const tls = options.tls ? createSelfSignedTls() : undefined;
  const server = tls ? createHttpsServer({ key: tls.key, cert: tls.cert }, listener) : createServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const url = `${tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    scenario,
    kubeconfig: () => renderKubeconfig(url, token, tls),
    async writeKubeconfig(path) {
      await writeFile(path, renderKubeconfig(url, token, tls), { mode: 0o600 });
      // `mode` only applies to a new file; an existing one keeps its mode otherwise.
      await chmod(path, 0o600);
    },
    requests,
    setFaults(next) {
      faults = { ...faults, ...next };
      if (next.seed !== undefined) random = createRandom(next.seed);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
