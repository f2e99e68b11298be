/**
 * bench/collect: `logdump collect` beside `kubectl cluster-info dump` on the same
 * simulated cluster, in one run, with the ratio and logdump's peak memory.
 *
 *   npm run bench:collect -- [--nodes 200] [--pods-per-node 10] [--log-bytes 540000]
 *                            [--latency-ms 20] [--kubectl kubectl] [--skip-kubectl]
 *
 * The defaults are the issue's: 200 nodes, 2,000 pods, 20 ms per request, and
 * just over 1 GiB of container logs. The simulator runs in its own process so
 * that neither tool shares an event loop with it.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { readArchiveEntries } from '../archive/read-archive.js';
import type { Manifest } from '../collectors/manifest.js';
import { GENERATED_SIZE_FLAGS, generatedSize, LOGDUMP, measure, mib, seconds, startSimulatorProcess, treeSize, type Measurement } from './measure.js';


const { values: flags } = parseArgs({
  options: {
    ...GENERATED_SIZE_FLAGS,
    'latency-ms': { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '32' },
    kubectl: { type: 'string', default: 'kubectl' },
    'skip-kubectl': { type: 'boolean', default: false },
  },
});

/** Files and bytes in a logdump archive, from its manifest. */
async function archiveContents(file: string): Promise<{ files: number; bytes: number }> {
  for await (const entry of readArchiveEntries(file)) {
    if (entry.path !== 'manifest.json') continue;
    const chunks: Buffer[] = [];
    for await (const chunk of entry.body) chunks.push(chunk as Buffer);
    const manifest = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Manifest;
    return { files: manifest.summary.stored, bytes: manifest.summary.bytes };
  }
  throw new Error(`${file} has no manifest.json`);
}

function row(name: string, run: Measurement, contents: { files: number; bytes: number }): string {
  return `${name.padEnd(28)} ${seconds(run.wallMs).padStart(9)} ${String(run.exitCode).padStart(5)} ${String(contents.files).padStart(7)} ${mib(contents.bytes).padStart(12)} ${mib(run.peakRssBytes).padStart(11)}`;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'logdump-bench-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const simulator = await startSimulatorProcess(kubeconfig, generatedSize(flags, flags['latency-ms']));
  try {
    const pods = Number(flags.nodes) * Number(flags['pods-per-node']);
    process.stdout.write(`bench/collect: ${flags.nodes} nodes, ${pods} pods, ${mib(pods * Number(flags['log-bytes']))} of container logs, ${flags['latency-ms']} ms per request\n\n`);
    const common = ['collect', '--kubeconfig', kubeconfig, '--concurrency', flags.concurrency, '--node-log', 'kube-proxy'];
    process.stdout.write(`${'tool'.padEnd(28)} ${'wall'.padStart(9)} ${'exit'.padStart(5)} ${'files'.padStart(7)} ${'bytes'.padStart(12)} ${'peak RSS'.padStart(11)}\n`);
    // The bin itself, as a user runs it, so its shebang's V8 flags apply.
    const archive = join(dir, 'dump.tar.gz');
    const logdump = await measure(LOGDUMP, [...common, '-o', archive]);
    const logdumpContents = await archiveContents(archive);
    process.stdout.write(`${row('logdump collect -o .tar.gz', logdump, logdumpContents)}   (archive ${mib((await stat(archive)).size)})\n`);
    if (logdump.exitCode !== 0) process.stdout.write(`  logdump: ${logdump.stderrTail}\n`);
    const tree = join(dir, 'logdump-tree');
    const logdumpTree = await measure(LOGDUMP, [...common, '--out-dir', tree]);
    process.stdout.write(`${row('logdump collect --out-dir', logdumpTree, await treeSize(tree))}\n`);
    await rm(tree, { recursive: true, force: true });
    if (flags['skip-kubectl']) return;
    const outDir = join(dir, 'kubectl-dump');
    const kubectl = await measure(flags.kubectl, ['--kubeconfig', kubeconfig, 'cluster-info', 'dump', '--all-namespaces', '--output-directory', outDir]);
    const kubectlContents = await treeSize(outDir).catch(() => ({ files: 0, bytes: 0 }));
    process.stdout.write(`${row('kubectl cluster-info dump', kubectl, kubectlContents)}\n`);
    if (kubectl.exitCode !== 0) process.stdout.write(`  kubectl: ${kubectl.stderrTail}\n`);
    const ratio = (run: Measurement): string => (kubectl.wallMs / run.wallMs).toFixed(1);
    process.stdout.write(`\nratio: kubectl cluster-info dump took ${ratio(logdump)}x as long as logdump -o .tar.gz and ${ratio(logdumpTree)}x as long as logdump --out-dir (which, like kubectl, writes a directory tree)\n`);
    process.stdout.write(`logdump stored ${logdumpContents.files} files to kubectl's ${kubectlContents.files}: kubectl reads no node logs, no events.k8s.io events, no statefulsets, jobs or PVCs\n`);
    process.stdout.write(`logdump peak RSS: ${mib(Math.max(logdump.peakRssBytes ?? 0, logdumpTree.peakRssBytes ?? 0))} while collecting ${mib(logdumpContents.bytes)}\n`);
  } finally {
    simulator.kill('SIGTERM');
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
