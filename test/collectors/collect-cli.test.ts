import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readArchiveToMap } from '../../archive/read-archive.js';
import type { Manifest } from '../../collectors/manifest.js';
import { startSimulator, type RunningSimulator, type SimulatorOptions } from '../../sim/index.js';
import { runLogdump, tempDir, type CliResult } from '../support/cli.js';

const DEADLOCK_NS = 'e2e-tests-statefulset-vtc1w';

/** A simulator, its kubeconfig file, and a place for dumps; all gone after the suite. */
async function startFixture(options: SimulatorOptions): Promise<{ sim: RunningSimulator; kubeconfig: string; dir: string; stop: () => Promise<void> }> {
  const sim = await startSimulator(options);
  const { dir, cleanup } = await tempDir('logdump-collect-');
  const kubeconfig = join(dir, 'kubeconfig');
  await sim.writeKubeconfig(kubeconfig);
  return { sim, kubeconfig, dir, stop: async () => { await sim.close(); await cleanup(); } };
}

async function collectArchive(kubeconfig: string, out: string, extra: string[] = [], timeoutMs?: number): Promise<{ result: CliResult; files: Map<string, string>; manifest: Manifest }> {
  const result = await runLogdump(['collect', '--kubeconfig', kubeconfig, '-o', out, ...extra], { timeoutMs });
  const files = await readArchiveToMap(out, { maxBytesPerEntry: 64 * 1024 * 1024 });
  const manifestText = files.get('manifest.json');
  assert.ok(manifestText, `the archive has a manifest.json (stderr: ${result.stderr})`);
  return { result, files, manifest: JSON.parse(manifestText) as Manifest };
}

interface ListItem {
  metadata: { name: string; namespace?: string };
}

/** The items of a stored `*List` document. */
function items<T = ListItem>(list: string | undefined): T[] {
  assert.ok(list, 'the list file exists');
  return (JSON.parse(list) as { items: T[] }).items;
}

describe('logdump collect on the statefulset-quorum-deadlock scenario', () => {
  let fixture: Awaited<ReturnType<typeof startFixture>>;
  let run: Awaited<ReturnType<typeof collectArchive>>;
  before(async () => {
    fixture = await startFixture({ scenario: 'statefulset-quorum-deadlock' });
    run = await collectArchive(fixture.kubeconfig, join(fixture.dir, 'dump.tar.gz'), ['--node-log', 'kube-proxy']);
  });
  after(() => fixture.stop());

  it('exits 0 with one summary line on stderr', () => {
    assert.equal(run.result.code, 0, run.result.stderr);
    const summary = run.result.stderr.trim().split('\n').filter((line) => line.includes('written to'));
    assert.equal(summary.length, 1);
    assert.match(summary[0] ?? '', /^logdump: \d+ files \(.+\) written to .*dump\.tar\.gz/);
  });

  it('keeps the kubelet line that swallowed the readiness event', () => {
    const kubelets = [...run.files].filter(([path]) => /^nodes\/[^/]+\/kubelet\.log$/.test(path));
    assert.ok(kubelets.length >= 2, 'every node has a kubelet.log');
    const line = kubelets.flatMap(([, text]) => text.split('\n')).find((text) => text.includes('Could not construct reference to'));
    assert.ok(line, 'a kubelet log holds the event reference failure');
    assert.match(line, /Name:"cockroachdb-0"/);
    assert.match(line, /object does not implement the List interfaces'\. Will not report event: 'Warning' 'Unhealthy' 'Readiness probe failed: HTTP probe failed with statuscode: 404'/);
  });

  it('keeps the 404 readiness events from both event APIs', () => {
    for (const file of ['events.json', 'events.events.k8s.io.json']) {
      const text = run.files.get(`namespaces/${DEADLOCK_NS}/${file}`);
      assert.ok(text?.includes('Readiness probe failed: HTTP probe failed with statuscode: 404'), `${file} has the probe failure`);
    }
  });

  it("keeps pod-0's log and the StatefulSet that waits for it", () => {
    const log = run.files.get(`namespaces/${DEADLOCK_NS}/pods/cockroachdb-0/cockroachdb.log`);
    assert.ok(log && log.length > 0, 'cockroachdb-0 has a container log');
    const statefulsets = items(run.files.get(`namespaces/${DEADLOCK_NS}/statefulsets.json`));
    assert.deepEqual(statefulsets.map((item) => item.metadata.name), ['cockroachdb']);
    const pods = items(run.files.get(`namespaces/${DEADLOCK_NS}/pods.json`)).map((item) => item.metadata.name);
    assert.ok(pods.includes('cockroachdb-0') && !pods.includes('cockroachdb-1'));
  });

  it('collects extra node logs asked for with --node-log', () => {
    assert.ok([...run.files.keys()].some((path) => /^nodes\/[^/]+\/kube-proxy\.log$/.test(path)));
  });

  it('writes a manifest that accounts for every file', () => {
    const { manifest, files } = run;
    assert.equal(manifest.schemaVersion, 1);
    assert.equal(manifest.cluster.reachable, true);
    assert.equal(manifest.interrupted, undefined);
    assert.ok(Date.parse(manifest.startedAt) <= Date.parse(manifest.endedAt));
    for (const item of manifest.items) {
      if (item.bytes > 0) assert.equal(Buffer.byteLength(files.get(item.path) ?? ''), item.bytes, item.path);
    }
    const stored = new Set(manifest.items.filter((item) => item.bytes > 0).map((item) => item.path));
    for (const path of files.keys()) if (path !== 'manifest.json') assert.ok(stored.has(path), `${path} is in the manifest`);
    for (const path of ['cluster/version.json', 'cluster/nodes.json', 'cluster/namespaces.json', 'cluster/persistentvolumes.json']) {
      assert.ok(files.has(path), path);
    }
  });

  it('never asks for a Secret and never stores ConfigMap values', () => {
    const secretRequests = fixture.sim.requests.filter((request) => /secrets/.test(request.path));
    assert.deepEqual(secretRequests, []);
    for (const [path, text] of run.files) {
      if (!path.endsWith('/configmaps.json')) continue;
      for (const item of items<{ data?: Record<string, string> }>(text)) {
        for (const value of Object.values(item.data ?? {})) assert.match(value, /^\(\d+ bytes, value not collected\)$/);
      }
    }
  });
});

describe('logdump collect, paging and previous instances', () => {
  let fixture: Awaited<ReturnType<typeof startFixture>>;
  before(async () => {
    fixture = await startFixture({
      scenario: 'generated',
      params: { nodes: 4, namespaces: 2, podsPerNode: 10, containersPerPod: 2, logBytes: 20_000, restarts: 5 },
    });
  });
  after(() => fixture.stop());

  it('lists across several pages and logs every container, previous instances too', async () => {
    const { result, files, manifest } = await collectArchive(fixture.kubeconfig, join(fixture.dir, 'paged.tar.gz'), ['--chunk-size', '7']);
    assert.equal(result.code, 0, result.stderr);
    const podRequests = fixture.sim.requests.filter((request) => /^\/api\/v1\/namespaces\/[^/]+\/pods$/.test(request.path));
    assert.ok(podRequests.filter((request) => request.query.includes('continue=')).length >= 4, 'pods were listed in several pages');
    const pods = [...files].filter(([path]) => path.endsWith('/pods.json')).flatMap(([, text]) => items<PodItem>(text));
    assert.equal(pods.length, podCount(fixture.sim));
    let previous = 0;
    for (const pod of pods) {
      for (const container of pod.spec.containers) {
        const base = `namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}/${container.name}`;
        assert.ok((files.get(`${base}.log`)?.length ?? 0) > 0, `${base}.log`);
        const restarted = (pod.status.containerStatuses ?? []).some((status) => status.name === container.name && status.restartCount > 0);
        assert.equal(files.has(`${base}.previous.log`), restarted, `${base}.previous.log exists only after a restart`);
        if (restarted) previous += 1;
      }
    }
    assert.ok(previous > 0, 'the scenario has restarted containers');
    assert.equal(manifest.summary.failed, 0);
  });

  it('goes on with the offered token when a continue token expires', async () => {
    fixture.sim.setFaults({ expireContinueAfterPages: 1 });
    try {
      const { files, manifest } = await collectArchive(fixture.kubeconfig, join(fixture.dir, 'expired.tar.gz'), ['--chunk-size', '7']);
      const pods = [...files].filter(([path]) => path.endsWith('/pods.json')).flatMap(([, text]) => items(text));
      assert.equal(new Set(pods.map((pod) => `${pod.metadata.namespace}/${pod.metadata.name}`)).size, podCount(fixture.sim));
      assert.equal(pods.length, podCount(fixture.sim), 'no pod is stored twice');
      const noted = manifest.items.filter((item) => item.path.endsWith('/pods.json') && item.notes?.some((note) => /continue token expired/.test(note)));
      assert.ok(noted.length > 0, 'the manifest says the list was continued inconsistently');
    } finally {
      fixture.sim.setFaults({ expireContinueAfterPages: null });
    }
  });
});

function podCount(sim: RunningSimulator): number {
  return sim.scenario.objects.filter((object) => object.kind === 'Pod').length;
}

/** Container instances with a log: every container, plus each one that restarted. */
function containerLogCount(sim: RunningSimulator): number {
  return sim.scenario.objects
    .filter((object) => object.kind === 'Pod')
    .flatMap((pod) => {
      const { spec, status } = pod as unknown as PodItem;
      return spec.containers.map((container) => {
        const restarted = (status.containerStatuses ?? []).some((entry) => entry.name === container.name && entry.restartCount > 0);
        return restarted ? 2 : 1;
      });
    })
    .reduce((sum, count) => sum + count, 0);
}

interface PodItem {
  metadata: { name: string; namespace: string };
  spec: { containers: { name: string }[] };
  status: { containerStatuses?: { name: string; restartCount: number }[] };
}

describe('logdump collect when part of the cluster fails', () => {
  let fixture: Awaited<ReturnType<typeof startFixture>>;
  let namespaces: string[];
  let nodes: string[];
  before(async () => {
    fixture = await startFixture({ scenario: 'generated', params: { nodes: 3, namespaces: 3, podsPerNode: 4, containersPerPod: 1, logBytes: 5_000 } });
    namespaces = [...new Set(fixture.sim.scenario.objects.filter((object) => object.kind === 'Pod').map((object) => object.metadata.namespace ?? ''))];
    nodes = fixture.sim.scenario.objects.filter((object) => object.kind === 'Node').map((object) => object.metadata.name);
    assert.ok(namespaces.length >= 2 && nodes.length >= 2);
  });
  after(() => fixture.stop());

  it('records a forbidden namespace and keeps the others', async () => {
    const denied = namespaces[0] ?? '';
    fixture.sim.setFaults({ forbiddenNamespaces: [denied] });
    try {
      const { result, files, manifest } = await collectArchive(fixture.kubeconfig, join(fixture.dir, 'forbidden.tar.gz'));
      assert.equal(result.code, 1, 'a partial dump exits 1');
      const failed = manifest.items.filter((item) => item.path.startsWith(`namespaces/${denied}/`));
      assert.ok(failed.length > 0 && failed.every((item) => item.bytes === 0 && /403/.test(item.error ?? '')), 'the denied namespace is recorded as 403s');
      assert.match(result.stderr, /failed/);
      for (const namespace of namespaces.slice(1)) {
        assert.ok([...files.keys()].some((path) => path.startsWith(`namespaces/${namespace}/pods/`)), `${namespace} still has pod logs`);
      }
      assert.ok([...files.keys()].filter((path) => path.endsWith('/kubelet.log')).length === nodes.length);
    } finally {
      fixture.sim.setFaults({ forbiddenNamespaces: [] });
    }
  });

  it('gives up a hung node within the request timeout and keeps the rest', async () => {
    const hung = nodes[0] ?? '';
    fixture.sim.setFaults({ hangingNodes: [hung] });
    try {
      const { result, files, manifest } = await collectArchive(fixture.kubeconfig, join(fixture.dir, 'hung.tar.gz'), ['--request-timeout', '1s', '--timeout', '30s']);
      assert.equal(result.code, 1, result.stderr);
      assert.ok(result.durationMs < 20_000, `took ${result.durationMs} ms`);
      const item = manifest.items.find((entry) => entry.path === `nodes/${hung}/kubelet.log`);
      assert.ok(item?.error, 'the hung node is recorded with an error');
      for (const node of nodes.slice(1)) assert.ok(files.has(`nodes/${node}/kubelet.log`), node);
      assert.ok([...files.keys()].filter((path) => path.endsWith('.log') && path.startsWith('namespaces/')).length > 0);
    } finally {
      fixture.sim.setFaults({ hangingNodes: [] });
    }
  });

  it('retries through a 500 and reset rate and accounts for every item', async () => {
    fixture.sim.setFaults({ errorRate: 0.2, resetRate: 0.05, seed: 7 });
    try {
      const { result, files, manifest } = await collectArchive(fixture.kubeconfig, join(fixture.dir, 'flaky.tar.gz'));
      assert.ok(result.code === 0 || result.code === 1, result.stderr);
      const failures = fixture.sim.requests.filter((request) => request.status >= 500);
      assert.ok(failures.length > 0, 'the simulator did fail requests');
      const podLogs = manifest.items.filter((item) => item.source === 'pod-log');
      const expected = containerLogCount(fixture.sim);
      assert.equal(podLogs.length, expected, 'every container log is accounted for, stored or failed');
      const stored = podLogs.filter((item) => item.bytes > 0);
      assert.ok(stored.length >= expected - 2, `retries recovered most logs (${stored.length}/${expected})`);
      for (const item of stored) assert.equal(Buffer.byteLength(files.get(item.path) ?? ''), item.bytes);
    } finally {
      fixture.sim.setFaults({ errorRate: 0, resetRate: 0 });
    }
  });

  it('stops at the deadline with a valid archive and says so', async () => {
    fixture.sim.setFaults({ latencyMs: 400 });
    try {
      // --timeout counts from the start, resolving credentials (1 to 3 s on a busy machine) included.
      const { result, manifest } = await collectArchive(fixture.kubeconfig, join(fixture.dir, 'deadline.tar.gz'), ['--timeout', '4s', '--concurrency', '2']);
      assert.equal(result.code, 1, result.stderr);
      assert.equal(manifest.interrupted, 'deadline');
      assert.ok(result.durationMs < 10_000, `took ${result.durationMs} ms`);
      assert.ok(manifest.items.some((item) => item.bytes > 0), 'what came before the deadline is kept');
      assert.ok(manifest.items.some((item) => /deadline|abort/.test(item.error ?? '')), 'what did not is recorded');
    } finally {
      fixture.sim.setFaults({ latencyMs: 0 });
    }
  });

  it('closes a valid archive on SIGTERM and exits 143', async () => {
    fixture.sim.setFaults({ latencyMs: 300 });
    try {
      const out = join(fixture.dir, 'sigterm.tar.gz');
      // Signal once collection is under way, as a CI system's grace period would.
      const before = fixture.sim.requests.length;
      const result = await runLogdump(['collect', '--kubeconfig', fixture.kubeconfig, '-o', out, '--concurrency', '2'], {
        onSpawn: (pid) => {
          const poll = setInterval(() => {
            if (fixture.sim.requests.length < before + 6) return;
            clearInterval(poll);
            process.kill(pid, 'SIGTERM');
          }, 20);
        },
      });
      assert.equal(result.code, 143, result.stderr);
      const files = await readArchiveToMap(out);
      const manifest = JSON.parse(files.get('manifest.json') ?? '{}') as Manifest;
      assert.equal(manifest.interrupted, 'SIGTERM');
      assert.ok(files.has('cluster/version.json'));
    } finally {
      fixture.sim.setFaults({ latencyMs: 0 });
    }
  });

  it('writes the same layout with --out-dir', async () => {
    const outDir = join(fixture.dir, 'tree');
    const result = await runLogdump(['collect', '--kubeconfig', fixture.kubeconfig, '--out-dir', outDir, '-n', namespaces[1] ?? '']);
    assert.equal(result.code, 0, result.stderr);
    const { readFile } = await import('node:fs/promises');
    const manifest = JSON.parse(await readFile(join(outDir, 'manifest.json'), 'utf8')) as Manifest;
    assert.deepEqual(manifest.options['namespaces'], [namespaces[1]]);
    assert.ok(manifest.items.every((item) => !item.path.startsWith('namespaces/') || item.path.startsWith(`namespaces/${namespaces[1]}/`)));
    const pods = await readFile(join(outDir, 'namespaces', namespaces[1] ?? '', 'pods.json'), 'utf8');
    assert.ok(items(pods).length > 0);
  });
});

describe('logdump collect, bad input and no cluster', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  before(async () => ({ dir, cleanup } = await tempDir('logdump-usage-')));
  after(() => cleanup());

  const usageCases: [string, string[], RegExp][] = [
    ['conflicting namespace flags', ['-n', 'a', '-A'], /--namespace and --all-namespaces/],
    ['a zero concurrency', ['--concurrency', '0'], /--concurrency 0/],
    ['a gzip level out of range', ['--gzip-level', '0'], /--gzip-level 0 must be/],
    ['a bad duration', ['--since', 'yesterday'], /--since "yesterday" is not a duration/],
    ['a bad size', ['--max-log-bytes', 'lots'], /--max-log-bytes "lots"/],
    ['an archive name without .tar.gz', ['-o', 'dump.zip'], /--out/],
    ['a missing kubeconfig', ['--kubeconfig', '/nonexistent/kubeconfig'], /cannot load --kubeconfig \/nonexistent\/kubeconfig/],
    ['an unknown flag', ['--frobnicate'], /Unknown argument/],
  ];
  for (const [name, args, message] of usageCases) {
    it(`rejects ${name} with one line and exit 2`, async () => {
      const result = await runLogdump(['collect', ...args], { cwd: dir });
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, message);
      assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
    });
  }

  it('exits 3 and still writes a manifest when the cluster cannot be reached', async () => {
    const sim = await startSimulator({ scenario: 'healthy' });
    const kubeconfig = join(dir, 'gone.kubeconfig');
    await sim.writeKubeconfig(kubeconfig);
    await sim.close();
    const out = join(dir, 'gone.tar.gz');
    const result = await runLogdump(['collect', '--kubeconfig', kubeconfig, '-o', out, '--request-timeout', '2s']);
    assert.equal(result.code, 3, result.stderr);
    assert.match(result.stderr, /cluster unreachable/);
    const files = await readArchiveToMap(out);
    const manifest = JSON.parse(files.get('manifest.json') ?? '{}') as Manifest;
    assert.equal(manifest.cluster.reachable, false);
  });
});
