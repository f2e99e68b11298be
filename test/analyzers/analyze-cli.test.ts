import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { mkdir, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { STALL_ID } from '../../analyzers/statefulset-ordered-start-stall.js';
import type { Analysis } from '../../analyzers/types.js';
import { readArchiveToMap } from '../../archive/read-archive.js';
import { loadScenario, startSimulator, type Scenario } from '../../sim/index.js';
import { writeArchiveFixture } from '../support/archive-builder.js';
import { runLogdump, tempDir } from '../support/cli.js';

const DEADLOCK_NS = 'e2e-tests-statefulset-vtc1w';
const run = promisify(execFile);

/** Collects a scenario (by name or as data) with the CLI, into `out`. */
async function collectScenario(dir: string, scenario: string | Scenario, out: string[], extra: string[] = []): Promise<Awaited<ReturnType<typeof runLogdump>>> {
  if (typeof scenario === 'string') return runLogdump(['collect', '--sim', scenario, ...out, ...extra]);
  const sim = await startSimulator({ scenario });
  try {
    const kubeconfig = join(dir, `${scenario.name}.kubeconfig`);
    await sim.writeKubeconfig(kubeconfig);
    return await runLogdump(['collect', '--kubeconfig', kubeconfig, ...out, ...extra]);
  } finally {
    await sim.close();
  }
}

async function analyzeJson(dump: string, extra: string[] = []): Promise<{ analysis: Analysis; code: number | null; stderr: string }> {
  const result = await runLogdump(['analyze', dump, '--format', 'json', ...extra]);
  return { analysis: JSON.parse(result.stdout) as Analysis, code: result.code, stderr: result.stderr };
}

/** What a reader compares between two analyses of the same dump. */
function digest(analysis: Analysis): string[] {
  return analysis.findings.map((finding) => `${finding.severity} ${finding.id} ${finding.title} ×${finding.count}`);
}

describe('logdump collect --analyze and analyze on the deadlock scenario', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let archive: string;
  let collected: Awaited<ReturnType<typeof runLogdump>>;
  before(async () => {
    ({ dir, cleanup } = await tempDir('logdump-analyze-'));
    archive = join(dir, 'deadlock.tar.gz');
    collected = await collectScenario(dir, 'statefulset-quorum-deadlock', ['-o', archive], ['--analyze']);
  });
  after(() => cleanup());

  it('prints a summary whose verdict names the stall, with the 404 probe and the swallowed events as evidence', () => {
    assert.equal(collected.code, 0, collected.stderr);
    const [verdict] = collected.stdout.split('\n');
    assert.equal(verdict, `## logdump: StatefulSet ${DEADLOCK_NS}/cockroachdb is stuck: cockroachdb-0 never turns Ready, so cockroachdb-1..2 are never created`);
    const stall = collected.stdout.slice(0, collected.stdout.indexOf('### 2.'));
    assert.match(stall, /\(root cause\)/);
    assert.match(stall, /Readiness probe failed: HTTP probe failed with statuscode: 404/);
    assert.match(stall, /never reported: Warning Unhealthy/);
    assert.match(stall, /podManagementPolicy: Parallel/);
    assert.match(stall, /\*\*Related:\*\* .*`event-reference-failed`.*`readiness-probe-http-status`/);
  });

  it('stores analysis/findings.json and analysis/summary.md in the dump', async () => {
    const files = await readArchiveToMap(archive);
    const analysis = JSON.parse(files.get('analysis/findings.json') ?? '{}') as Analysis;
    assert.equal(analysis.schemaVersion, 1);
    assert.equal(analysis.findings[0]?.id, STALL_ID);
    assert.equal(analysis.findings[0]?.rootCause, true);
    assert.equal(files.get('analysis/summary.md'), collected.stdout);
    const reference = analysis.findings.find((finding) => finding.id === 'event-reference-failed');
    assert.ok(reference, 'the kubelet line is a finding of its own');
    assert.ok(reference.samples.some((sample) => /^nodes\/[^/]+\/kubelet\.log$/.test(sample.path) && sample.line > 0));
  });

  it('finds the same on the stored archive, on a directory dump, and gates with --fail-on', async () => {
    const files = await readArchiveToMap(archive);
    const inline = JSON.parse(files.get('analysis/findings.json') ?? '{}') as Analysis;
    const stored = await analyzeJson(archive);
    assert.equal(stored.code, 0);
    assert.deepEqual(digest(stored.analysis), digest(inline));
    // The same files as a directory (extracted by the system tar) give the same findings.
    const tree = join(dir, 'tree');
    await mkdir(tree);
    await run('tar', ['-xzf', archive, '-C', tree, '--exclude', 'analysis']);
    assert.deepEqual(digest((await analyzeJson(tree)).analysis), digest(inline));
    assert.equal((await runLogdump(['analyze', archive, '--fail-on', 'error'])).code, 1);
    assert.equal((await runLogdump(['analyze', archive, '--fail-on', 'critical'])).code, 0);
  });

  it('prints a terminal-friendly text form', async () => {
    const result = await runLogdump(['analyze', archive, '--format', 'text']);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /^verdict: StatefulSet e2e-tests-statefulset-vtc1w\/cockroachdb is stuck/);
    assert.match(result.stdout, /^1\. \[error\] StatefulSet/m);
  });

  it('takes a user rule file: a new signature, and an allow entry that needs a reason', async () => {
    const rules = join(dir, 'rules.yaml');
    await writeFile(rules, [
      'rules:',
      '  - id: cockroach-gossip-unreachable',
      '    title: CockroachDB cannot reach a peer for gossip',
      '    severity: warning',
      '    sources: [container-log]',
      "    pattern: 'failed to start gossip client: .*unable to connect to (?<peer>[\\w.-]+):'",
      '    groupBy: [peer]',
      '    explanation: The node looks for peers that do not exist yet.',
      '    remedy: Start the peers.',
      '    examples:',
      "      match: ['W170210 19:11:05.153471 87 gossip/client.go:124  [n1] failed to start gossip client: rpc error: code = 14 desc = unable to connect to cockroachdb-1.cockroachdb:26257: no such host']",
      "      noMatch: ['I170210 gossip client started']",
      'allow:',
      '  - rule: readiness-probe-http-status',
      '    reason: this suite breaks the probe on purpose',
    ].join('\n'));
    const { analysis, code } = await analyzeJson(archive, ['--rules', rules]);
    assert.equal(code, 0);
    const gossip = analysis.findings.filter((finding) => finding.id === 'cockroach-gossip-unreachable');
    assert.deepEqual(gossip.map((finding) => finding.key['peer']).sort(), ['cockroachdb-1.cockroachdb', 'cockroachdb-2.cockroachdb']);
    assert.equal(analysis.findings.some((finding) => finding.id === 'readiness-probe-http-status'), false);
    assert.deepEqual(analysis.allowed.map((entry) => [entry.rule, entry.reason]), [['readiness-probe-http-status', 'this suite breaks the probe on purpose']]);
    await writeFile(rules, 'allow:\n  - rule: readiness-probe-http-status\n');
    const bad = await runLogdump(['analyze', archive, '--rules', rules]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /allow\[0\]: "reason" is required/);
    assert.doesNotMatch(bad.stderr, /\n\s+at /);
  });
});

describe('the stall analyzer stays quiet where nothing is stuck', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  before(async () => ({ dir, cleanup } = await tempDir('logdump-analyze-quiet-')));
  after(() => cleanup());

  it('finds no error on the healthy scenario', async () => {
    const out = join(dir, 'healthy.tar.gz');
    const collected = await collectScenario(dir, 'healthy', ['-o', out]);
    assert.equal(collected.code, 0, collected.stderr);
    const { analysis } = await analyzeJson(out);
    assert.deepEqual(analysis.findings.filter((finding) => finding.severity === 'error' || finding.severity === 'critical').map((finding) => finding.title), []);
    assert.equal((await runLogdump(['analyze', out, '--fail-on', 'error'])).code, 0);
  });

  it('does not call a Parallel StatefulSet that is scaling up a stall', async () => {
    const scenario = loadScenario('statefulset-quorum-deadlock');
    const set = scenario.objects.find((object) => object.kind === 'StatefulSet' && object.metadata.name === 'cockroachdb');
    assert.ok(set);
    (set['spec'] as Record<string, unknown>)['podManagementPolicy'] = 'Parallel';
    scenario.name = 'parallel-scaling';
    const out = join(dir, 'parallel.tar.gz');
    const collected = await collectScenario(dir, scenario, ['-o', out]);
    assert.equal(collected.code, 0, collected.stderr);
    const { analysis } = await analyzeJson(out);
    assert.equal(analysis.findings.some((finding) => finding.id === STALL_ID), false);
    assert.ok(analysis.findings.some((finding) => finding.id === 'readiness-probe-http-status'), 'the probe failures are still reported');
  });
});

describe('logdump analyze on damaged and hostile dumps', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  before(async () => ({ dir, cleanup } = await tempDir('logdump-analyze-bad-')));
  after(() => cleanup());

  it('rejects a file that is not gzip with one line and exit 2', async () => {
    const file = join(dir, 'garbage.tar.gz');
    await writeFile(file, Buffer.from('this is not gzip at all\n'.repeat(100)));
    const result = await runLogdump(['analyze', file]);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /^logdump: DUMP .*garbage\.tar\.gz cannot be read: /);
    assert.equal(result.stderr.trim().split('\n').length, 1);
  });

  it('analyzes what a truncated archive holds and says what it could not read', async () => {
    const file = join(dir, 'cut.tar.gz');
    const collected = await runLogdump(['collect', '--sim', 'statefulset-quorum-deadlock', '-o', file]);
    assert.equal(collected.code, 0, collected.stderr);
    await truncate(file, Math.floor((await stat(file)).size * 0.6));
    const result = await runLogdump(['analyze', file, '--format', 'json']);
    assert.equal(result.code, 0, result.stderr);
    const analysis = JSON.parse(result.stdout) as Analysis;
    assert.ok(analysis.stats.files > 0, 'what came before the cut was analyzed');
    assert.ok(analysis.unreadable.some((entry) => entry.path === file), JSON.stringify(analysis.unreadable));
    assert.match(result.stderr, /not analyzed: .*cut\.tar\.gz/);
  });

  it('ignores entries that would climb out of the dump, and copes with huge lines, binary bytes and invalid UTF-8', async () => {
    const file = join(dir, 'hostile.tar.gz');
    const crashLine = 'E0210 19:12:45.046912    1353 pod_workers.go:191] Error syncing pod 1 ("p_ns(1)"), skipping: failed to "StartContainer" for "app" with CrashLoopBackOff: "back-off 5m0s restarting failed container=app pod=p_ns(1)" ';
    const hugeLine = Buffer.concat([Buffer.from(crashLine), Buffer.alloc(50 * 1024 * 1024, 'a')]);
    await writeArchiveFixture(file, [
      { name: '../evil.log', body: 'Back-off restarting failed container\n' },
      { name: '/abs/evil.log', body: 'x\n' },
      { name: 'nodes/n1/kubelet.log', body: hugeLine },
      { name: 'namespaces/ns/pods/p/binary.log', body: Buffer.from([0, 1, 2, 0xff, 0xfe, 10, 0xc3, 0x28, 10]) },
      { name: 'namespaces/ns/pods/p/app.log', body: Buffer.from('I0210 ok\nE0210 19:12:46.000000    1 x.go:2] caf\xe9 failed: boom \xff\n', 'latin1') },
    ]);
    const result = await runLogdump(['analyze', file, '--format', 'json'], { cwd: dir });
    assert.equal(result.code, 0, result.stderr);
    const analysis = JSON.parse(result.stdout) as Analysis;
    assert.deepEqual(analysis.unreadable.map((entry) => entry.path).sort(), ['../evil.log', '/abs/evil.log']);
    assert.equal(existsSync(join(dir, '..', 'evil.log')), false);
    const crash = analysis.findings.find((finding) => finding.id === 'crash-loop-backoff');
    assert.ok(crash, 'the needle at the start of the 50 MB line is found');
    assert.equal(crash.samples[0]?.path, 'nodes/n1/kubelet.log');
    assert.ok((crash.samples[0]?.text.length ?? 0) <= 64 * 1024 + 1);
    const unknown = analysis.findings.find((finding) => finding.id === 'unclassified-error' && finding.samples.some((sample) => sample.path.endsWith('app.log')));
    assert.ok(unknown, 'the error line with invalid UTF-8 is still analyzed');
    assert.equal(unknown.samples[0]?.line, 2);
  });
});
