/**
 * Loads a simulator Scenario (sim/types.ts) into a real kube-apiserver through
 * its REST API, and starts one simulated kubelet per node for the API server to
 * forward pod logs and node proxy requests to. Objects are created as the
 * scenario has them minus what only the server sets (uid, resourceVersion,
 * creationTimestamp...); statuses go through the status subresource, since a
 * create ignores them. Nothing reconciles afterwards: no controller or scheduler
 * runs, so the objects stay as created.
 */
import { request } from 'node:https';
import { buildClusterState } from '../../sim/cluster.js';
import { startKubelet, type RunningKubelet } from '../../sim/kubelet-server.js';
import { parseRfc3339Micros } from '../../sim/log-store.js';
import { RESOURCES, type ResourceInfo } from '../../sim/resources.js';
import { DEFAULT_FAULTS } from '../../sim/server.js';
import type { KubeObject, Scenario } from '../../sim/types.js';
import type { RealCluster } from './cluster.js';

/** A finished API response. */
export interface ApiResponse {
  status: number;
  contentType: string;
  body: string;
}

/** A request to the real API server as `token` (the admin's by default). */
export function apiRequest(
  cluster: RealCluster,
  method: string,
  path: string,
  options: { body?: unknown; contentType?: string; token?: string } = {},
): Promise<ApiResponse> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = { Authorization: `Bearer ${options.token ?? cluster.adminToken}`, Accept: 'application/json, */*' };
  if (payload !== undefined) {
    headers['Content-Type'] = options.contentType ?? 'application/json';
    headers['Content-Length'] = String(Buffer.byteLength(payload));
  }
  return new Promise((resolve, reject) => {
    const req = request(`${cluster.url}${path}`, { method, headers, ca: cluster.caCert, timeout: 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`timed out: ${method} ${path}`)));
    req.on('error', reject);
    req.end(payload);
  });
}

/** A request that must succeed (or answer one of `allowed`); the error names the object. */
async function mustRequest(cluster: RealCluster, method: string, path: string, body: unknown, what: string, options: { contentType?: string; allowed?: number[] } = {}): Promise<ApiResponse> {
  const response = await apiRequest(cluster, method, path, { body, contentType: options.contentType });
  if ((response.status < 200 || response.status > 299) && !options.allowed?.includes(response.status)) {
    throw new Error(`${what}: ${method} ${path} answered ${response.status}: ${response.body}`);
  }
  return response;
}

function resourceOf(object: KubeObject): ResourceInfo {
  const [group, version] = object.apiVersion.includes('/') ? object.apiVersion.split('/') : ['', object.apiVersion];
  const info = RESOURCES.find((candidate) => candidate.kind === object.kind && candidate.group === group && candidate.version === version);
  if (!info) throw new Error(`the loader does not know ${object.apiVersion} ${object.kind} (${object.metadata.name})`);
  return info;
}

/** The collection path of an object's resource. */
function collectionPath(object: KubeObject): string {
  const info = resourceOf(object);
  const base = info.group === '' ? `/api/${info.version}` : `/apis/${info.group}/${info.version}`;
  const scope = info.namespaced ? `/namespaces/${encodeURIComponent(object.metadata.namespace ?? 'default')}` : '';
  return `${base}${scope}/${info.resource}`;
}

/** Metadata only the server may set: a create would reject or overwrite it. */
const SERVER_METADATA = ['uid', 'resourceVersion', 'creationTimestamp', 'generation', 'selfLink', 'managedFields'];

/** The object to POST: no server-set metadata, no status (a create ignores it). */
function forCreate(object: KubeObject): KubeObject {
  const metadata = { ...object.metadata };
  for (const field of SERVER_METADATA) delete metadata[field];
  const { status: _status, ...rest } = object;
  return { ...rest, metadata } as KubeObject;
}

/** Creation order: what others live in or refer to first; events last, as they describe the rest. */
function loadRank(object: KubeObject): number {
  if (object.kind === 'Namespace') return 0;
  if (object.kind === 'Node') return 1;
  if (object.kind === 'PersistentVolume') return 2;
  if (object.kind === 'Event') return 4;
  return 3;
}

/** Node status that points the API server at this node's simulated kubelet. */
function nodeStatus(node: KubeObject, port: number): Record<string, unknown> {
  const status = { ...((node['status'] as Record<string, unknown> | undefined) ?? {}) };
  // Loopback, which the API server only accepts on the node's own kubelet port.
  status['addresses'] = [
    { type: 'InternalIP', address: '127.0.0.1' },
    { type: 'Hostname', address: node.metadata.name },
  ];
  status['daemonEndpoints'] = { kubeletEndpoint: { Port: port } };
  return status;
}

/** A scenario loaded into a real API server, with its kubelets. */
export interface LoadedScenario {
  kubelets: RunningKubelet[];
  /** Stops the kubelets (the cluster is the caller's). */
  close(): Promise<void>;
}

/**
 * Loads `scenario` and starts its kubelets. Namespaces and objects the API
 * server makes itself (`default`, `kube-system`, the `kubernetes` Service...)
 * already exist: those creates answer 409 and keep the server's object.
 */
export async function loadScenario(cluster: RealCluster, scenario: Scenario): Promise<LoadedScenario> {
  const state = buildClusterState(scenario);
  // The scenario's "now" is this moment: the kubelets map the real clock onto the scenario's.
  const scenarioNow = parseRfc3339Micros(scenario.now) ?? 0;
  const clockOffsetMicros = Date.now() * 1000 - scenarioNow;
  const faults = { ...DEFAULT_FAULTS, ...scenario.faults };
  const nodes = scenario.objects.filter((object) => object.kind === 'Node');
  const started = await Promise.allSettled(nodes.map((node) => startKubelet({ state, node: node.metadata.name, faults, clockOffsetMicros })));
  const kubelets = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    // The kubelets that did start would keep the test process alive until its timeout.
    await Promise.all(kubelets.map((kubelet) => kubelet.close()));
    throw failed.reason;
  }
  const close = async (): Promise<void> => {
    await Promise.all(kubelets.map((kubelet) => kubelet.close()));
  };
  try {
    const ordered = [...scenario.objects].sort((a, b) => loadRank(a) - loadRank(b));
    for (let rank = 0; rank <= 4; rank++) {
      // Objects of one rank do not depend on each other: create them in parallel.
      await Promise.all(ordered.filter((object) => loadRank(object) === rank).map((object) => loadObject(cluster, object, kubelets)));
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { kubelets, close };
}

async function loadObject(cluster: RealCluster, object: KubeObject, kubelets: RunningKubelet[]): Promise<void> {
  const what = `loading ${object.kind} ${object.metadata.namespace ? `${object.metadata.namespace}/` : ''}${object.metadata.name}`;
  const collection = collectionPath(object);
  const itemPath = `${collection}/${encodeURIComponent(object.metadata.name)}`;
  // What the API server made itself stays the server's. Asked first because a
  // create can fail validation (the `kubernetes` Service's IP is taken: 422)
  // before it would meet the existing name (409).
  if ((await apiRequest(cluster, 'GET', itemPath)).status === 200) return;
  const created = await mustRequest(cluster, 'POST', collection, forCreate(object), what, { allowed: [409] });
  if (created.status === 409) return;
  if (object.kind === 'Node') {
    const kubelet = kubelets.find((candidate) => candidate.node === object.metadata.name);
    if (!kubelet) throw new Error(`${what}: no kubelet was started for it`);
    await mustRequest(cluster, 'PATCH', `${itemPath}/status`, { status: nodeStatus(object, kubelet.port) }, what, { contentType: 'application/merge-patch+json' });
    return;
  }
  const status = object['status'];
  if (object.kind === 'Namespace' || status === undefined || status === null) return;
  await mustRequest(cluster, 'PATCH', `${itemPath}/status`, { status }, what, { contentType: 'application/merge-patch+json' });
}
