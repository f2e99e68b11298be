/**
 * `logdump run` inside a CI system, recognized from its environment: Prow's
 * upload layout, summary and links, and GitHub Actions' job summary and
 * annotations.
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { archiveContents, gcsServer } from '../gcs/fixtures.js';
import { startGcsTestServer, type GcsTestServer } from '../../gcs/test-server.js';
import { tempDir, type CliResult } from '../support/cli.js';
import { archivesIn, described, filesUnder, logdump, logdumpLines, scratch, stackLines } from './support.js';

const PRESUBMIT_ENV = {
  JOB_NAME: 'pull-kubernetes-e2e',
  JOB_TYPE: 'presubmit',
  BUILD_ID: '1234',
  REPO_OWNER: 'kubernetes',
  REPO_NAME: 'kubernetes',
  PULL_NUMBER: '42',
} as const;

const PRESUBMIT_FOLDER = 'pr-logs/pull/kubernetes_kubernetes/42/pull-kubernetes-e2e/1234';
const PRESUBMIT_PREFIX = `${PRESUBMIT_FOLDER}/artifacts/logdump/`;
const PRESUBMIT_BROWSE = `https://gcsweb.k8s.io/gcs/logdump-ci/${PRESUBMIT_PREFIX}`;

/** The markdown link targets in `text` that start with `base`. */
function linksUnder(text: string, base: string): string[] {
  return [...text.matchAll(/\]\((https?:\/\/[^)\s]+)\)/g)].map((match) => match[1] ?? '').filter((url) => url.startsWith(base));
}

describe('logdump run in a Prow presubmit with --gcs-bucket', () => {
  let server: GcsTestServer;
  let dir: string;
  let artifacts: string;
  let result: CliResult;
  const cleanups: Array<() => Promise<void>> = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });
  before(async () => {
    server = await startGcsTestServer();
    cleanups.push(() => server.close());
    const scratchDir = await tempDir('logdump-hook-prow-');
    cleanups.push(scratchDir.cleanup);
    dir = scratchDir.dir;
    artifacts = join(dir, 'artifacts');
    result = await logdump(['run', '--sim', 'statefulset-quorum-deadlock', '--gcs-bucket', 'logdump-ci', '--gcs-endpoint', server.endpoint, '--', 'false'], {
      cwd: dir,
      env: { ...PRESUBMIT_ENV, ARTIFACTS: artifacts },
    });
  });

  it("exits with the test's code", () => {
    assert.equal(result.code, 1, described(result));
    assert.deepEqual(stackLines(result.stderr), []);
  });

  it("uploads the dump, file by file, to the job's artifacts/logdump/ folder", async () => {
    const objects = server.objects('logdump-ci');
    const names = objects.map((object) => object.name);
    assert.ok(names.length > 0, described(result));
    const outside = names.filter((name) => !name.startsWith(PRESUBMIT_PREFIX));
    assert.deepEqual(outside, [], 'every object is under the Prow folder');
    for (const path of ['manifest.json', 'analysis/summary.md', 'analysis/findings.json', 'cluster/version.json']) {
      assert.ok(names.includes(`${PRESUBMIT_PREFIX}${path}`), `${path} was uploaded`);
    }
    const log = objects.find((object) => object.name.endsWith('.log'));
    assert.ok(log, 'a container or node log was uploaded');
    assert.equal(log.contentType, 'text/plain; charset=utf-8');

    // The local copy stays, in the working directory, and holds the same files.
    const local = await archivesIn(dir);
    assert.equal(local.length, 1, `one local dump: ${local.join(', ')}`);
    assert.match(local[0] ?? '', /^logdump-\d{8}T\d{6}Z\.tar\.gz$/);
    const contents = await archiveContents(join(dir, local[0] ?? ''));
    assert.deepEqual(names.map((name) => name.slice(PRESUBMIT_PREFIX.length)).sort(), [...contents.keys()].sort());
  });

  it('writes logdump-summary.md to $ARTIFACTS with the gcsweb folder and links to the uploaded files', async () => {
    const summary = await readFile(join(artifacts, 'logdump-summary.md'), 'utf8');
    assert.match(summary, /^## logdump: StatefulSet e2e-tests-statefulset-vtc1w\/cockroachdb is stuck/);
    assert.ok(summary.includes(PRESUBMIT_BROWSE), `the summary has ${PRESUBMIT_BROWSE}`);
    assert.ok(summary.includes(`https://prow.k8s.io/view/gs/logdump-ci/${PRESUBMIT_FOLDER}`), 'the summary links the job');
    const fileLinks = linksUnder(summary, PRESUBMIT_BROWSE).filter((url) => url !== PRESUBMIT_BROWSE);
    assert.ok(fileLinks.length > 0, 'evidence is linked to its uploaded file');
    const names = new Set(server.objects('logdump-ci').map((object) => object.name));
    for (const url of fileLinks) {
      const object = `${PRESUBMIT_PREFIX}${decodeURI(url.slice(PRESUBMIT_BROWSE.length)).replace(/#.*$/, '')}`;
      assert.ok(names.has(object), `${url} opens an uploaded object`);
    }
  });

  it('writes logdump-findings.json to $ARTIFACTS', async () => {
    const findings = JSON.parse(await readFile(join(artifacts, 'logdump-findings.json'), 'utf8')) as { findings: Array<{ id: string; severity: string }> };
    assert.ok(findings.findings.length > 0);
    assert.equal(findings.findings[0]?.id, 'statefulset-ordered-start-stall');
    assert.equal(findings.findings[0]?.severity, 'error');
  });

  it("prints the browse URL and the job's Spyglass URL on stderr", () => {
    const lines = logdumpLines(result.stderr);
    assert.ok(lines.some((line) => line.includes(PRESUBMIT_BROWSE)), described(result));
    assert.ok(lines.includes(`logdump: the job: https://prow.k8s.io/view/gs/logdump-ci/${PRESUBMIT_FOLDER}`), described(result));
  });
});

describe('logdump run in other Prow jobs', () => {
  it('a periodic uploads to logs/JOB/BUILD/artifacts/logdump/', async (t) => {
    const dir = await scratch(t);
    const server = await gcsServer(t);
    const result = await logdump(['run', '--sim', 'healthy', '--gcs-bucket', 'logdump-ci', '--gcs-endpoint', server.endpoint, '--out', join(dir, 'D.tar.gz'), '--', 'false'], {
      cwd: dir,
      env: { JOB_NAME: 'ci-kubernetes-e2e-gce', JOB_TYPE: 'periodic', BUILD_ID: '1790000000000000000' },
    });
    assert.equal(result.code, 1, described(result));
    const prefix = 'logs/ci-kubernetes-e2e-gce/1790000000000000000/artifacts/logdump/';
    const names = server.objects('logdump-ci').map((object) => object.name);
    assert.ok(names.includes(`${prefix}manifest.json`), `uploaded: ${names.slice(0, 5).join(', ')}`);
    assert.deepEqual(names.filter((name) => !name.startsWith(prefix)), []);
    assert.ok(result.stderr.includes(`logdump: the job: https://prow.k8s.io/view/gs/logdump-ci/logs/ci-kubernetes-e2e-gce/1790000000000000000\n`), described(result));
  });

  const periodicWithSpec = (artifacts: string): NodeJS.ProcessEnv => ({
    JOB_NAME: 'ci-kubernetes-e2e-gce',
    JOB_TYPE: 'periodic',
    BUILD_ID: '77',
    ARTIFACTS: artifacts,
    JOB_SPEC: JSON.stringify({ type: 'periodic', job: 'ci-kubernetes-e2e-gce', buildid: '77', decoration_config: { gcs_configuration: { bucket: 'kubernetes-jenkins', path_strategy: 'explicit' } } }),
  });

  it('without --gcs-bucket, the dump goes to $ARTIFACTS/logdump/ for Prow to upload, with the URL it will have', async (t) => {
    const dir = await scratch(t);
    const artifacts = join(dir, 'artifacts');
    await mkdir(artifacts);
    const result = await logdump(['run', '--sim', 'statefulset-quorum-deadlock', '--', 'false'], {
      cwd: dir,
      env: periodicWithSpec(artifacts),
    });
    assert.equal(result.code, 1, described(result));
    assert.deepEqual(await archivesIn(dir), [], 'no .tar.gz in the working directory');
    const files = await filesUnder(join(artifacts, 'logdump'));
    for (const path of ['manifest.json', 'analysis/summary.md', 'cluster/version.json']) assert.ok(files.includes(path), `$ARTIFACTS/logdump/${path}`);
    assert.ok(files.some((path) => path.endsWith('.log')), 'logs too');

    const browse = 'https://gcsweb.k8s.io/gcs/kubernetes-jenkins/logs/ci-kubernetes-e2e-gce/77/artifacts/logdump/';
    assert.ok(logdumpLines(result.stderr).includes(`logdump: browse the dump: ${browse}`), described(result));
    assert.ok(logdumpLines(result.stderr).includes('logdump: the job: https://prow.k8s.io/view/gs/kubernetes-jenkins/logs/ci-kubernetes-e2e-gce/77'), described(result));
    const summary = await readFile(join(artifacts, 'logdump-summary.md'), 'utf8');
    assert.match(summary, /^## logdump: /);
    assert.ok(summary.includes(browse), 'the summary gives the URL');
    const fileLinks = linksUnder(summary, browse).filter((url) => url !== browse);
    assert.ok(fileLinks.length > 0, 'evidence is linked where Prow will upload it');
    for (const url of fileLinks) {
      const path = decodeURI(url.slice(browse.length)).replace(/#.*$/, '');
      assert.ok(files.includes(path), `${url} is a file of $ARTIFACTS/logdump`);
    }
    JSON.parse(await readFile(join(artifacts, 'logdump-findings.json'), 'utf8'));
  });

  it('a $ARTIFACTS that does not exist yet still gets the dump, as it gets the summary', async (t) => {
    const dir = await scratch(t);
    const artifacts = join(dir, 'not-yet', 'artifacts');
    const result = await logdump(['run', '--sim', 'healthy', '--', 'false'], { cwd: dir, env: periodicWithSpec(artifacts) });
    assert.equal(result.code, 1, described(result));
    const files = await filesUnder(artifacts);
    assert.ok(files.includes('logdump-summary.md'), `the summary was written: ${files.join(', ')}`);
    assert.ok(files.includes('logdump/manifest.json'), `the dump was written to $ARTIFACTS/logdump too:\n${logdumpLines(result.stderr).join('\n')}`);
    assert.doesNotMatch(await readFile(join(artifacts, 'logdump-summary.md'), 'utf8'), /the dump failed/);
  });
});

describe('logdump run in GitHub Actions', () => {
  it('appends the summary to $GITHUB_STEP_SUMMARY and annotates the top findings', async (t) => {
    const dir = await scratch(t);
    const stepSummary = join(dir, 'step-summary.md');
    await writeFile(stepSummary, 'previous step\n');
    const result = await logdump(['run', '--sim', 'statefulset-quorum-deadlock', '--out', join(dir, 'D.tar.gz'), '--', 'false'], {
      cwd: dir,
      env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: stepSummary },
    });
    assert.equal(result.code, 1, described(result));

    const summary = await readFile(stepSummary, 'utf8');
    assert.ok(summary.startsWith('previous step\n'), 'what earlier steps wrote is kept');
    assert.match(summary.slice('previous step\n'.length), /^\n*## logdump: StatefulSet e2e-tests-statefulset-vtc1w\/cockroachdb is stuck/);
    assert.match(summary, /\*\*Test:\*\* `false` exited with 1\./);

    const commands = result.stdout.split('\n').filter((line) => line.startsWith('::'));
    assert.ok(commands.length >= 1 && commands.length <= 5, `1 to 5 annotations, not ${commands.length}:\n${result.stdout}`);
    for (const line of commands) {
      // A raw newline would have cut a command in two; the rest would not start with `::`.
      assert.match(line, /^::(error|warning) title=logdump%3A [^:\r]*::\S.*$/, line.slice(0, 200));
      assert.ok(!line.includes('\r'));
    }
    const otherLines = result.stdout.split('\n').filter((line) => line !== '' && !line.startsWith('::'));
    assert.deepEqual(otherLines, [], 'no annotation spills onto a second line');
    assert.ok(commands[0]?.startsWith('::error title=logdump%3A StatefulSet e2e-tests-statefulset-vtc1w/cockroachdb is stuck%3A '), commands[0]?.slice(0, 200));
    assert.ok(commands[0]?.includes('%0AWhat to do: '), 'the message keeps its lines, escaped');
    assert.ok(commands.some((line) => line.startsWith('::warning title=logdump%3A Readiness probe gets an HTTP error status')), 'warnings are ::warning');
    assert.ok(!commands.some((line) => line.includes('Unclassified error')), 'info findings are not annotated');
    // Errors come before warnings, as ranked.
    const levels = commands.map((line) => (line.startsWith('::error') ? 'error' : 'warning'));
    assert.deepEqual(levels, [...levels].sort());
  });

  it('with GITHUB_ACTIONS unset, nothing is written for GitHub', async (t) => {
    const dir = await scratch(t);
    const stepSummary = join(dir, 'step-summary.md');
    await writeFile(stepSummary, 'previous step\n');
    const result = await logdump(['run', '--sim', 'statefulset-quorum-deadlock', '--out', join(dir, 'D.tar.gz'), '--', 'false'], {
      cwd: dir,
      env: { GITHUB_STEP_SUMMARY: stepSummary },
    });
    assert.equal(result.code, 1, described(result));
    assert.equal(await readFile(stepSummary, 'utf8'), 'previous step\n');
    assert.doesNotMatch(result.stdout, /^::/m);
  });
});
