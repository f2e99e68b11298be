/**
 * The answers around logs, asked of the simulator and of a real kube-apiserver
 * forwarding to a simulated kubelet: status codes and bodies must agree, since
 * the collector decides what to record from them (skipped, failed, no-query).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { nodeObject, namespaceObject, podObject } from '../../sim/scenarios/objects.js';
import { startSimulator, type RunningSimulator, type Scenario } from '../../sim/index.js';
import { get } from '../support/http.js';
import { realClusterUnavailable, startRealCluster, type RealCluster } from './cluster.js';
import { apiRequest, loadScenario, type LoadedScenario } from './load-scenario.js';

const UNAVAILABLE = await realClusterUnavailable();
const NOW = '2025-03-04T10:00:00Z';
const NS = 'logs';
const NODE = 'node-a';

function scenario(): Scenario {
  const pod = (name: string, state?: { waiting: string }) =>
    podObject({ namespace: NS, name, node: NODE, now: NOW, ageSeconds: 600, containers: [{ name: 'app', image: 'busybox:1.36', ...(state ? { state } : {}) }], podIP: '10.64.1.5', hostIP: '10.0.0.11' });
  const unscheduled = pod('unscheduled', { waiting: 'ContainerCreating' });
  delete (unscheduled['spec'] as Record<string, unknown>)['nodeName'];
  delete unscheduled['status'];
  return {
    name: 'log-answers',
    description: 'pods whose logs cannot be read, for comparing error answers',
    now: NOW,
    objects: [nodeObject(NODE, { ip: '10.0.0.11', now: NOW }), namespaceObject('default'), namespaceObject(NS), pod('running'), pod('waiting', { waiting: 'ContainerCreating' }), unscheduled],
    containerLogs: [{ namespace: NS, pod: 'running', container: 'app', current: { lines: ['hello', 'world'] } }],
    nodeLogs: [{ node: NODE, nodeLogQuery: true, logs: { kubelet: { lines: ['I0304 09:59:00.000000    1234 kubelet.go:1] started'] } } }],
  };
}

/** What is compared of one answer: the code, and the Status message or the text. */
function answerOf(status: number, body: string): string {
  try {
    const parsed = JSON.parse(body) as { kind?: string; reason?: string; message?: string };
    if (parsed.kind === 'Status') return `${status} ${parsed.reason} ${parsed.message}`;
  } catch {
    // Not JSON: a log or a kubelet's text.
  }
  return `${status} ${body}`;
}

const PATHS = [
  `/api/v1/namespaces/${NS}/pods/running/log`,
  `/api/v1/namespaces/${NS}/pods/running/log?previous=true`,
  `/api/v1/namespaces/${NS}/pods/running/log?container=nope`,
  `/api/v1/namespaces/${NS}/pods/running/log?tailLines=-1`,
  `/api/v1/namespaces/${NS}/pods/running/log?tailLines=1&timestamps=true`,
  `/api/v1/namespaces/${NS}/pods/waiting/log`,
  `/api/v1/namespaces/${NS}/pods/unscheduled/log`,
  `/api/v1/namespaces/${NS}/pods/gone/log`,
  `/api/v1/nodes/${NODE}/proxy/logs/kubelet.log`,
  `/api/v1/nodes/${NODE}/proxy/logs/nope.log`,
  `/api/v1/nodes/${NODE}/proxy/logs/?query=kubelet&tailLines=x`,
  `/api/v1/nodes/${NODE}/proxy/logs/?query=nope`,
  `/api/v1/nodes/node-z/proxy/logs/kubelet.log`,
];

describe('log answers: the simulator and a real kube-apiserver agree', { skip: UNAVAILABLE }, () => {
  let sim: RunningSimulator;
  let cluster: RealCluster;
  let loaded: LoadedScenario;
  before(async () => {
    sim = await startSimulator({ scenario: scenario() });
    cluster = await startRealCluster({ authorizationMode: 'AlwaysAllow' });
    loaded = await loadScenario(cluster, scenario());
  });
  after(async () => {
    await sim?.close();
    await loaded?.close();
    await cluster?.close();
  });

  for (const path of PATHS) {
    it(`GET ${path}`, async () => {
      const [fromSim, fromReal] = await Promise.all([get(sim, path), apiRequest(cluster, 'GET', path)]);
      assert.equal(answerOf(fromSim.status, fromSim.body), answerOf(fromReal.status, fromReal.body));
    });
  }
});
