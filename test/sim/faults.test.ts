import assert from 'node:assert/strict';
import { request } from 'node:http';
import { describe, it } from 'node:test';
import { startSimulator } from '../../sim/index.js';
import { get, tokenOf } from '../support/http.js';

const NS = 'e2e-tests-statefulset-vtc1w';
const NODE = 'bootstrap-e2e-minion-group-6n2k';

describe('simulator faults', () => {
  it('adds latency to every response', async () => {
    const sim = await startSimulator({ scenario: 'healthy', faults: { latencyMs: 120 } });
    try {
      const started = Date.now();
      await get(sim, '/api/v1/nodes');
      assert.ok(Date.now() - started >= 110);
    } finally {
      await sim.close();
    }
  });

  it('fails a seeded, repeatable share of requests with a 500 Status', async () => {
    const statuses = async (): Promise<number[]> => {
      const sim = await startSimulator({ scenario: 'healthy', faults: { errorRate: 0.5, seed: 7 } });
      try {
        const result: number[] = [];
        for (let index = 0; index < 20; index++) result.push((await get(sim, '/api/v1/nodes')).status);
        return result;
      } finally {
        await sim.close();
      }
    };
    const first = await statuses();
    assert.deepEqual(await statuses(), first);
    assert.ok(first.includes(500) && first.includes(200));
  });

  it('resets connections', async () => {
    const sim = await startSimulator({ scenario: 'healthy', faults: { resetRate: 1 } });
    try {
      await assert.rejects(get(sim, '/api/v1/nodes'), /socket hang up|ECONNRESET/);
      sim.setFaults({ resetRate: 0 });
      assert.equal((await get(sim, '/api/v1/nodes')).status, 200);
    } finally {
      await sim.close();
    }
  });

  it('hangs proxy and log requests of hanging nodes until close()', async () => {
    const sim = await startSimulator({ scenario: 'statefulset-quorum-deadlock', faults: { hangingNodes: [NODE] } });
    const pending = new Promise<string>((resolve) => {
      const req = request(`${sim.url}/api/v1/nodes/${NODE}/proxy/logs/kubelet.log`, { headers: { Authorization: `Bearer ${tokenOf(sim)}` } }, () => resolve('answered'));
      req.on('error', () => resolve('ended'));
      req.end();
    });
    const podLog = get(sim, `/api/v1/namespaces/${NS}/pods/cockroachdb-0/log?container=cockroachdb`, { timeoutMs: 300 });
    await assert.rejects(podLog, /timed out/);
    const race = await Promise.race([pending, new Promise((resolve) => setTimeout(() => resolve('still hanging'), 200))]);
    assert.equal(race, 'still hanging');
    await sim.close();
    assert.equal(await pending, 'ended');
  });

  it('answers 404 for the logs of missing-log nodes', async () => {
    const sim = await startSimulator({ scenario: 'statefulset-quorum-deadlock', faults: { missingNodeLogs: [NODE] } });
    try {
      assert.equal((await get(sim, `/api/v1/nodes/${NODE}/proxy/logs/kubelet.log`)).status, 404);
      assert.equal((await get(sim, `/api/v1/nodes/${NODE}/proxy/logs/?query=kubelet`)).status, 404);
    } finally {
      await sim.close();
    }
  });

  it('denies every request in a forbidden namespace with the RBAC message', async () => {
    const sim = await startSimulator({ scenario: 'statefulset-quorum-deadlock', faults: { forbiddenNamespaces: [NS] } });
    try {
      const list = await get(sim, `/api/v1/namespaces/${NS}/pods`);
      assert.equal(list.status, 403);
      assert.equal(JSON.parse(list.body).message, `pods is forbidden: User "logdump" cannot list resource "pods" in API group "" in the namespace "${NS}"`);
      const log = await get(sim, `/api/v1/namespaces/${NS}/pods/cockroachdb-0/log?container=cockroachdb`);
      assert.equal(JSON.parse(log.body).message, `pods "cockroachdb-0" is forbidden: User "logdump" cannot get resource "pods/log" in API group "" in the namespace "${NS}"`);
      const sts = await get(sim, `/apis/apps/v1/namespaces/${NS}/statefulsets`);
      assert.match(JSON.parse(sts.body).message, /statefulsets.apps is forbidden: .* in API group "apps" in the namespace/);
      const clusterWide = await get(sim, '/api/v1/pods');
      assert.equal(JSON.parse(clusterWide.body).message, 'pods is forbidden: User "logdump" cannot list resource "pods" in API group "" at the cluster scope');
      assert.equal((await get(sim, '/api/v1/namespaces/kube-system/pods')).status, 200);
      assert.equal((await get(sim, '/api/v1/namespaces')).status, 200);
    } finally {
      await sim.close();
    }
  });

  it('expires continue tokens after N pages with a 410 carrying a fresh token', async () => {
    const sim = await startSimulator({ scenario: 'generated', params: { nodes: 3, podsPerNode: 4 }, faults: { expireContinueAfterPages: 2 } });
    try {
      const page1 = JSON.parse((await get(sim, '/api/v1/pods?limit=3')).body);
      const page2 = JSON.parse((await get(sim, `/api/v1/pods?limit=3&continue=${page1.metadata.continue}`)).body);
      const expired = await get(sim, `/api/v1/pods?limit=3&continue=${page2.metadata.continue}`);
      assert.equal(expired.status, 410);
      const status = JSON.parse(expired.body);
      assert.equal(status.reason, 'Expired');
      assert.match(status.message, /^The provided continue parameter is too old to display a consistent list result\./);
      const resumed = JSON.parse((await get(sim, `/api/v1/pods?limit=3&continue=${status.metadata.continue}`)).body);
      assert.equal(resumed.kind, 'PodList');
      assert.notEqual(resumed.items[0].metadata.name, page2.items[0].metadata.name);
    } finally {
      await sim.close();
    }
  });
});
