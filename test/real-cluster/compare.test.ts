/**
 * The same scenarios collected from the simulator and from a real kube-apiserver
 * (+ simulated kubelets) must give the same dump for what a user checks: file
 * paths, pod names, container log bytes, the kubelet's log, the events.
 *
 * Both runs use `--since 3h`: without it the collector reads node logs from the
 * Node's creationTimestamp, which a real server sets to the moment the loader
 * created the Node (a client cannot set it), while the scenario's kubelet logs
 * lie in the hour before the scenario's "now". With it, both backends ask for
 * the same span of the scenario's clock (the kubelets map the real clock onto
 * it; see sim/kubelet-server.ts).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Analysis } from '../../analyzers/types.js';
import { readArchiveToMap } from '../../archive/read-archive.js';
import type { Manifest } from '../../collectors/manifest.js';
import { startSimulator, type RunningSimulator } from '../../sim/index.js';
import { runLogdump, tempDir, type CliResult } from '../support/cli.js';
import { realClusterUnavailable } from './cluster.js';
import { startRealScenario, type RealScenario } from './real-scenario.js';

const COLLECT_ARGS = ['--since', '3h'];
const UNAVAILABLE = await realClusterUnavailable();

/** One collector run and its archive. */
interface Dump {
  result: CliResult;
  files: Map<string, string>;
  manifest: Manifest;
}

async function collect(kubeconfig: string, out: string): Promise<Dump> {
  const result = await runLogdump(['collect', '--kubeconfig', kubeconfig, '-o', out, ...COLLECT_ARGS], { timeoutMs: 120_000 });
  const files = await readArchiveToMap(out, { maxBytesPerEntry: 64 * 1024 * 1024 });
  const manifestText = files.get('manifest.json');
  assert.ok(manifestText, `the archive has a manifest.json (exit ${result.code}, stderr: ${result.stderr})`);
  return { result, files, manifest: JSON.parse(manifestText) as Manifest };
}

function names(list: string | undefined): string[] {
  assert.ok(list, 'the list file exists');
  return (JSON.parse(list) as { items: { metadata: { name: string } }[] }).items.map((item) => item.metadata.name);
}

/** The (reason, message) pairs of an events list, in a stable order. */
function eventSummary(list: string | undefined, messageField: 'message' | 'note'): string[] {
  assert.ok(list, 'the events file exists');
  const items = (JSON.parse(list) as { items: Record<string, unknown>[] }).items;
  return items.map((item) => `${String(item['reason'])}: ${String(item[messageField])}`).sort();
}

for (const scenario of ['statefulset-quorum-deadlock', 'healthy']) {
  describe(`${scenario}: simulator and real kube-apiserver give the same dump`, { skip: UNAVAILABLE }, () => {
    let sim: RunningSimulator;
    let real: RealScenario;
    let workdir: { dir: string; cleanup: () => Promise<void> };
    let simDump: Dump;
    let realDump: Dump;
    before(async () => {
      workdir = await tempDir('logdump-real-compare-');
      // Assigned one by one, so after() stops whichever started even when the other failed.
      sim = await startSimulator({ scenario });
      real = await startRealScenario(scenario, { authorizationMode: 'AlwaysAllow' });
      const simKubeconfig = join(workdir.dir, 'sim.kubeconfig');
      await sim.writeKubeconfig(simKubeconfig);
      [simDump, realDump] = await Promise.all([
        collect(simKubeconfig, join(workdir.dir, 'sim.tar.gz')),
        collect(real.cluster.kubeconfig, join(workdir.dir, 'real.tar.gz')),
      ]);
    });
    after(async () => {
      await Promise.all([sim?.close(), real?.close()]);
      await workdir?.cleanup();
    });

    it('both dumps are complete (exit 0)', () => {
      assert.equal(simDump.result.code, 0, simDump.result.stderr);
      assert.equal(realDump.result.code, 0, realDump.result.stderr);
    });

    it('holds the same files', () => {
      assert.deepEqual([...realDump.files.keys()].sort(), [...simDump.files.keys()].sort());
    });

    it('lists the same objects in the same order in every list', () => {
      const lists = [...simDump.files.keys()].filter((path) => path.endsWith('.json') && path !== 'manifest.json' && path !== 'cluster/version.json');
      assert.ok(lists.some((path) => path.endsWith('/pods.json')));
      for (const path of lists) assert.deepEqual(names(realDump.files.get(path)), names(simDump.files.get(path)), path);
    });

    it('has the same bytes in every container log', () => {
      const logs = [...simDump.files.keys()].filter((path) => path.startsWith('namespaces/') && path.endsWith('.log'));
      assert.ok(logs.length > 0);
      for (const path of logs) assert.equal(realDump.files.get(path), simDump.files.get(path), path);
    });

    it('has the same kubelet logs', () => {
      const logs = [...simDump.files.keys()].filter((path) => path.startsWith('nodes/'));
      assert.ok(logs.length > 0);
      for (const path of logs) {
        assert.ok((simDump.files.get(path) ?? '').length > 0, `${path} is not empty`);
        assert.equal(realDump.files.get(path), simDump.files.get(path), path);
      }
    });

    it('has the same events through both event APIs', () => {
      const eventFiles = [...simDump.files.keys()].filter((path) => /\/events(\.events\.k8s\.io)?\.json$/.test(path));
      assert.ok(eventFiles.length > 0);
      for (const path of eventFiles) {
        const field = path.endsWith('.events.k8s.io.json') ? 'note' : 'message';
        assert.deepEqual(eventSummary(realDump.files.get(path), field), eventSummary(simDump.files.get(path), field), path);
      }
    });

    it('analyzes to the same findings', async () => {
      const findings = async (name: string): Promise<string[]> => {
        const result = await runLogdump(['analyze', join(workdir.dir, name), '--format', 'json']);
        assert.equal(result.code, 0, result.stderr);
        // Times are left out: the real server stamps objects with its own clock.
        return (JSON.parse(result.stdout) as Analysis).findings.map(
          (finding) => `${finding.severity} ${finding.id} ${finding.title} ×${finding.count} ${finding.objects.map((object) => object.name).join(',')}`,
        );
      };
      const [fromSim, fromReal] = await Promise.all([findings('sim.tar.gz'), findings('real.tar.gz')]);
      assert.deepEqual(fromReal, fromSim);
      if (scenario === 'statefulset-quorum-deadlock') assert.match(fromReal[0] ?? '', /^error statefulset-ordered-start-stall /);
    });

    it('records the same items in the manifest', () => {
      const summary = (dump: Dump): string[] =>
        dump.manifest.items
          .map((item) => `${item.path} ${item.source} bytes=${item.bytes} truncated=${item.truncated} error=${item.error ?? ''} skipped=${item.skipped ?? ''}`)
          // List sizes differ: a real server adds managedFields, uids and times of its own.
          .map((line) => (/\.json /.test(line) ? line.replace(/ bytes=\d+/, '') : line))
          .sort();
      assert.deepEqual(summary(realDump), summary(simDump));
    });

    if (scenario === 'statefulset-quorum-deadlock') {
      it('keeps the kubelet line that swallowed the readiness event, from both backends', () => {
        for (const dump of [simDump, realDump]) {
          const line = [...dump.files]
            .filter(([path]) => /^nodes\/[^/]+\/kubelet\.log$/.test(path))
            .flatMap(([, text]) => text.split('\n'))
            .find((text) => text.includes('Could not construct reference to'));
          assert.ok(line, 'a kubelet log holds the event reference failure');
          assert.match(line, /Will not report event: 'Warning' 'Unhealthy' 'Readiness probe failed: HTTP probe failed with statuscode: 404'/);
        }
      });

      it('keeps the 404 readiness events in both event files, from both backends', () => {
        for (const dump of [simDump, realDump]) {
          for (const file of ['events.json', 'events.events.k8s.io.json']) {
            const text = dump.files.get(`namespaces/e2e-tests-statefulset-vtc1w/${file}`);
            assert.ok(text?.includes('Readiness probe failed: HTTP probe failed with statuscode: 404'), `${file} has the probe failure`);
          }
        }
      });
    }
  });
}
