import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openSink } from '../../archive/open-sink.js';
import type { Manifest } from '../../collectors/manifest.js';
import { collect } from '../../collectors/orchestrator.js';
import { resolveCollectOptions, type CollectFlags } from '../../collectors/run-collect.js';
import type { CollectOptions } from '../../collectors/types.js';
import { KubeClient } from '../../kube/client.js';
import { loadScenario, startSimulator, type Faults, type RunningSimulator, type Scenario } from '../../sim/index.js';
import { tempDir } from '../support/cli.js';

const FLAGS: CollectFlags = { namespace: [], allNamespaces: false, nodeLog: [], concurrency: 8, chunkSize: 500, gzipLevel: 6, requestTimeout: '10s', analyze: false, rules: [] };

/** Collects a simulated cluster in-process into a directory and returns the manifest and the directory. */
async function collectInto(dir: string, sim: RunningSimulator, flags: Partial<CollectFlags>, options: Partial<CollectOptions> = {}): Promise<Manifest> {
  await mkdir(dir, { recursive: true });
  const kubeconfig = join(dir, 'kubeconfig');
  await sim.writeKubeconfig(kubeconfig);
  const resolved = resolveCollectOptions({ ...FLAGS, ...flags }, new Date());
  const kube = await KubeClient.connect({ kubeconfig }, 8);
  try {
    const sink = await openSink({ kind: 'directory', dir: join(dir, 'dump') });
    return await collect({ kube, sink, options: { ...resolved.options, ...options }, toolVersion: 'test', interrupt: new AbortController().signal });
  } finally {
    kube.close();
  }
}

function item(manifest: Manifest, path: string): Manifest['items'][number] {
  const found = manifest.items.find((entry) => entry.path === path);
  assert.ok(found, `${path} is in the manifest`);
  return found;
}

describe('node logs', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  before(async () => ({ dir, cleanup } = await tempDir('logdump-node-logs-')));
  after(() => cleanup());

  it('reads the plain file when a node has no NodeLogQuery, and files that are no journal unit', async () => {
    const scenario: Scenario = loadScenario('generated', { nodes: 2, podsPerNode: 1, nodeLogBytes: 30_000 });
    const [first, second] = scenario.nodeLogs;
    assert.ok(first && second);
    scenario.nodeLogs = [{ ...first, nodeLogQuery: false }, second];
    const sim = await startSimulator({ scenario });
    try {
      const out = join(dir, 'fallback');
      const manifest = await collectInto(out, sim, { nodeLog: ['kube-proxy', 'no-such-log'] });
      const legacy = item(manifest, `nodes/${first.node}/kubelet.log`);
      assert.ok(legacy.bytes > 0 && legacy.notes?.some((note) => /NodeLogQuery is not enabled/.test(note)), JSON.stringify(legacy));
      assert.ok(sim.requests.some((request) => request.path === `/api/v1/nodes/${first.node}/proxy/logs/kubelet.log`));
      const journal = item(manifest, `nodes/${second.node}/kubelet.log`);
      assert.ok(journal.bytes > 0 && !journal.notes, JSON.stringify(journal));
      const text = await readFile(join(out, 'dump', 'nodes', second.node, 'kubelet.log'), 'utf8');
      assert.match(text.split('\n')[0] ?? '', /^[A-Z][a-z]{2} \d{2} \d{2}:\d{2}:\d{2}\.\d{6} \S+ kubelet\[\d+\]: /, 'journal lines, not an HTML listing');
      const proxy = item(manifest, `nodes/${second.node}/kube-proxy.log`);
      assert.ok(proxy.bytes > 0 && proxy.notes?.some((note) => /is a file, not a journal unit/.test(note)), JSON.stringify(proxy));
      const missing = item(manifest, `nodes/${second.node}/no-such-log.log`);
      assert.equal(missing.bytes, 0);
      assert.match(missing.skipped ?? '', /has no log named no-such-log/);
      assert.equal(missing.error, undefined, 'a log the node does not have is no failure');
    } finally {
      await sim.close();
    }
  });

  it('marks a window the kubelet cut at its time limit as truncated and keeps what came', async () => {
    const faults: Partial<Faults> = { nodeLogQueryCutMs: 300, nodeLogQueryChunkDelayMs: 40 };
    const sim = await startSimulator({ scenario: 'generated', params: { nodes: 1, podsPerNode: 1, nodeLogBytes: 2_000_000 }, faults });
    try {
      const node = sim.scenario.nodeLogs[0]?.node ?? '';
      const manifest = await collectInto(join(dir, 'cut'), sim, {}, { nodeLogQueryLimitMs: 300, nodeLogWindowMs: 30 * 60 * 1000 });
      const kubelet = item(manifest, `nodes/${node}/kubelet.log`);
      assert.equal(kubelet.truncated, true);
      assert.ok(kubelet.bytes > 0 && kubelet.bytes < 2_000_000, `kept ${kubelet.bytes} bytes`);
      assert.ok(kubelet.notes?.some((note) => /the kubelet cut the query .* at its 300 ms limit/.test(note)), JSON.stringify(kubelet.notes));
      const queries = sim.requests.filter((request) => request.path === `/api/v1/nodes/${node}/proxy/logs/` && request.query.includes('query=kubelet'));
      assert.ok(queries.length >= 2, `asked in ${queries.length} windows`);
      assert.ok(queries.every((request) => /sinceTime=/.test(request.query) && /untilTime=/.test(request.query)));
    } finally {
      await sim.close();
    }
  });

  it('asks for the journal in one window when it is short, and starts at --since', async () => {
    const sim = await startSimulator({ scenario: 'statefulset-quorum-deadlock' });
    try {
      const node = sim.scenario.nodeLogs[0]?.node ?? '';
      const manifest = await collectInto(join(dir, 'since'), sim, { since: '10m' });
      const queries = sim.requests.filter((request) => request.path === `/api/v1/nodes/${node}/proxy/logs/` && request.query.includes('query=kubelet'));
      assert.equal(queries.length, 1);
      const since = new URLSearchParams(queries[0]?.query).get('sinceTime') ?? '';
      const clusterNow = Date.parse(sim.scenario.now);
      assert.ok(Math.abs(Date.parse(since) - (clusterNow - 600_000)) < 120_000, `sinceTime ${since} is 10 minutes before the cluster's clock ${sim.scenario.now}`);
      assert.equal(item(manifest, `nodes/${node}/kubelet.log`).truncated, false);
    } finally {
      await sim.close();
    }
  });
});
