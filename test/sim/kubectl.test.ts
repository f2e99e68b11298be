import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { startSimulator, type RunningSimulator } from '../../sim/index.js';
import { findKubectls, type KubectlCandidate } from '../support/kubectl.js';

const run = promisify(execFile);
const NS = 'e2e-tests-statefulset-vtc1w';
const NODE = 'bootstrap-e2e-minion-group-6n2k';
const KUBECTL_TIMEOUT_MS = 30_000;

const candidates: KubectlCandidate[] = await findKubectls();

for (const candidate of candidates) {
  describe(`real ${candidate.label} against the simulator`, () => {
    let sim: RunningSimulator;
    let dir: string;
    let kubeconfig: string;
    before(async () => {
      // https: kubectl sends no bearer token over plain http (kubernetes/kubectl#744).
      sim = await startSimulator({ scenario: 'statefulset-quorum-deadlock', tls: true });
      dir = await mkdtemp(join(tmpdir(), 'logdump-sim-kubectl-'));
      kubeconfig = join(dir, 'kubeconfig');
      await sim.writeKubeconfig(kubeconfig);
    });
    after(async () => {
      await sim.close();
      await rm(dir, { recursive: true, force: true });
    });

    const kubectl = async (args: string[]): Promise<string> => {
      if (!('path' in candidate)) throw new Error(candidate.missing);
      // A private cache dir so discovery is really asked, not read from ~/.kube/cache.
      const { stdout } = await run(candidate.path, ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'cache'), ...args], {
        timeout: KUBECTL_TIMEOUT_MS,
        maxBuffer: 64 * 1024 * 1024,
      });
      return stdout;
    };

    it('get pods -A', async (t) => {
      if (!('path' in candidate)) return t.skip(candidate.missing);
      const out = await kubectl(['get', 'pods', '-A']);
      assert.match(out, new RegExp(`${NS}\\s+cockroachdb-0`));
      assert.match(out, /kube-system\s+coredns-/);
    });

    it('get events -A', async (t) => {
      if (!('path' in candidate)) return t.skip(candidate.missing);
      const out = await kubectl(['get', 'events', '-A']);
      assert.match(out, new RegExp(`${NS}\\s+cockroachdb-0\\.`));
    });

    it('logs -c', async (t) => {
      if (!('path' in candidate)) return t.skip(candidate.missing);
      const out = await kubectl(['logs', '-n', NS, 'cockroachdb-0', '-c', 'cockroachdb']);
      assert.match(out, /not enough live nodes/);
    });

    it('get --raw a node log through the proxy', async (t) => {
      if (!('path' in candidate)) return t.skip(candidate.missing);
      const out = await kubectl(['get', '--raw', `/api/v1/nodes/${NODE}/proxy/logs/kubelet.log`]);
      assert.match(out, /object does not implement the List interfaces/);
    });

    it('cluster-info dump --all-namespaces', async (t) => {
      if (!('path' in candidate)) return t.skip(candidate.missing);
      const output = join(dir, 'dump');
      await kubectl(['cluster-info', 'dump', '--all-namespaces', '--output-directory', output]);
      assert.deepEqual((await readdir(output)).sort(), ['default', NS, 'kube-node-lease', 'kube-public', 'kube-system', 'nodes.json'].sort());
      const pods = JSON.parse(await readFile(join(output, NS, 'pods.json'), 'utf8')) as { kind: string; items: unknown[] };
      assert.deepEqual([pods.kind, pods.items.length], ['PodList', 1]);
      const logs = await readFile(join(output, NS, 'cockroachdb-0', 'logs.txt'), 'utf8');
      assert.match(logs, /==== START logs for container cockroachdb of pod e2e-tests-statefulset-vtc1w\/cockroachdb-0 ====/);
      assert.match(logs, /range unavailable/);
      assert.ok(sim.requests.every((request) => !request.path.includes('/secrets')));
    });
  });
}
