import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Analysis } from '../../analyzers/types.js';
import { readArchiveToMap } from '../../archive/read-archive.js';
import type { Manifest } from '../../collectors/manifest.js';
import { loadScenario, startSimulator, type KubeObject } from '../../sim/index.js';
import { runLogdump, tempDir } from '../support/cli.js';

const SCHEDULER_MESSAGE =
  '0/2 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 1 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.';

/** A copy of a running pod that no node took: no nodeName, PodScheduled False. */
function unscheduled(template: KubeObject): KubeObject {
  const pod = structuredClone(template);
  pod.metadata = { ...pod.metadata, name: 'big-job-0', uid: '00000000-0000-4000-8000-00000000b16b' };
  delete (pod['spec'] as Record<string, unknown>)['nodeName'];
  pod['status'] = {
    phase: 'Pending',
    qosClass: 'Burstable',
    conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: SCHEDULER_MESSAGE, lastTransitionTime: '2017-02-10T19:00:00Z' }],
  };
  return pod;
}

describe('a pod no node would take', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let manifest: Manifest;
  let archive: string;
  before(async () => {
    ({ dir, cleanup } = await tempDir('logdump-unscheduled-'));
    const scenario = loadScenario('healthy');
    const template = scenario.objects.find((object) => object.kind === 'Pod' && object.metadata.namespace !== 'kube-system');
    assert.ok(template);
    scenario.objects.push(unscheduled(template));
    const sim = await startSimulator({ scenario });
    try {
      const kubeconfig = join(dir, 'kubeconfig');
      await sim.writeKubeconfig(kubeconfig);
      archive = join(dir, 'dump.tar.gz');
      const result = await runLogdump(['collect', '--kubeconfig', kubeconfig, '-o', archive]);
      assert.equal(result.code, 0, result.stderr);
      manifest = JSON.parse((await readArchiveToMap(archive)).get('manifest.json') ?? '{}') as Manifest;
    } finally {
      await sim.close();
    }
  });
  after(() => cleanup());

  it('has no log to collect, which is recorded as skipped rather than stored empty or failed', () => {
    const logs = manifest.items.filter((item) => item.path.includes('/pods/big-job-0/'));
    assert.ok(logs.length > 0);
    for (const item of logs) {
      assert.equal(item.bytes, 0);
      assert.equal(item.error, undefined);
      assert.match(item.skipped ?? '', /not scheduled to a node/);
    }
  });

  it('is reported by analyze with the scheduler\'s reasons counted', async () => {
    const result = await runLogdump(['analyze', archive, '--format', 'json']);
    assert.equal(result.code, 0, result.stderr);
    const pending = (JSON.parse(result.stdout) as Analysis).findings.find((finding) => finding.id === 'pods-pending-unschedulable');
    assert.ok(pending);
    assert.equal(pending.title, '1 pod could not be scheduled: Insufficient cpu');
    assert.match(pending.explanation, /Insufficient cpu \(1\); node\(s\) had untolerated taint \{node-role\.kubernetes\.io\/control-plane: \} \(1\)/);
    assert.deepEqual(pending.objects.map((object) => object.name), ['big-job-0']);
  });
});
