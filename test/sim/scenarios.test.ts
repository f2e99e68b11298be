import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UsageError } from '../../core/errors.js';
import { listScenarios, loadScenario, startSimulator } from '../../sim/index.js';
import { get } from '../support/http.js';

describe('scenarios', () => {
  it('lists the built-in scenarios', () => {
    assert.deepEqual(listScenarios().map((scenario) => scenario.name), ['statefulset-quorum-deadlock', 'healthy', 'generated']);
  });

  it('rejects unknown names and parameters with a UsageError naming the valid ones', () => {
    assert.throws(() => loadScenario('nope'), (error: Error) => error instanceof UsageError && /statefulset-quorum-deadlock, healthy, generated/.test(error.message));
    assert.throws(() => loadScenario('generated', { pods: 3 }), (error: Error) => error instanceof UsageError && /nodes, namespaces, podsPerNode/.test(error.message));
    assert.throws(() => loadScenario('generated', { nodes: -1 }), UsageError);
    assert.throws(() => loadScenario('healthy', { nodes: 1 }), /takes no parameters/);
  });

  it('reproduces the StatefulSet quorum deadlock', () => {
    const scenario = loadScenario('statefulset-quorum-deadlock');
    const pods = scenario.objects.filter((object) => object.kind === 'Pod' && object.metadata.namespace === 'e2e-tests-statefulset-vtc1w');
    assert.deepEqual(pods.map((pod) => pod.metadata.name), ['cockroachdb-0']);
    const sts = scenario.objects.find((object) => object.kind === 'StatefulSet');
    assert.equal((sts?.['spec'] as { podManagementPolicy: string }).podManagementPolicy, 'OrderedReady');
    // readyReplicas is omitempty: a real API server leaves out the zero.
    assert.equal('readyReplicas' in (sts?.['status'] as object), false);
    assert.equal((sts?.['status'] as { replicas: number }).replicas, 1);
    const unhealthy = scenario.objects.find((object) => object.kind === 'Event' && object['reason'] === 'Unhealthy');
    assert.equal(unhealthy?.['message'], 'Readiness probe failed: HTTP probe failed with statuscode: 404');
    assert.ok(scenario.objects.some((object) => object.kind === 'Secret'));
  });

  it('generates a cluster of the asked size with lazy, exact-size logs', async () => {
    const scenario = loadScenario('generated', { nodes: 200, podsPerNode: 10, logBytes: 600_000, restarts: 0.1 });
    assert.equal(scenario.objects.filter((object) => object.kind === 'Node').length, 200);
    const workloadLogs = scenario.containerLogs.filter((logs) => logs.namespace.startsWith('load-'));
    assert.equal(workloadLogs.length, 2000);
    assert.equal(workloadLogs.filter((logs) => logs.previous).length, 200);
    const sim = await startSimulator({ scenario });
    try {
      const log = await get(sim, '/api/v1/namespaces/load-000/pods/app-000000/log');
      assert.equal(log.body.length, 600_000);
      assert.equal(log.body, (await get(sim, '/api/v1/namespaces/load-000/pods/app-000000/log')).body, 'deterministic');
    } finally {
      await sim.close();
    }
  });

  it('is deterministic across loads', () => {
    assert.deepEqual(loadScenario('generated', { nodes: 5 }), loadScenario('generated', { nodes: 5 }));
  });

  it('streams a large generated log fast', async () => {
    const sim = await startSimulator({ scenario: 'generated', params: { nodes: 1, podsPerNode: 1, logBytes: 64 * 1024 * 1024 } });
    try {
      const started = Date.now();
      const log = await get(sim, '/api/v1/namespaces/load-000/pods/app-000000/log', { timeoutMs: 20_000 });
      assert.equal(log.body.length, 64 * 1024 * 1024);
      assert.ok(Date.now() - started < 8000, `took ${Date.now() - started} ms`);
    } finally {
      await sim.close();
    }
  });
});
