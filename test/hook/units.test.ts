/**
 * The pure parts of the CI hooks: Prow's upload layout from a job's
 * environment, and GitHub Actions' workflow command escaping.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Finding } from '../../analyzers/types.js';
import { UsageError } from '../../core/errors.js';
import { annotationsFor, escapeData, escapeProperty, MAX_ANNOTATIONS } from '../../hook/github-actions.js';
import { prowDumpLocation, prowJobFromEnv, prowJobPath, type ProwJob } from '../../hook/prow.js';

function job(env: NodeJS.ProcessEnv): ProwJob {
  const found = prowJobFromEnv(env);
  assert.ok(found, 'a Prow job');
  return found;
}

function presubmit(org: string, repo: string, gcsConfiguration?: Record<string, string>): ProwJob {
  return job({
    JOB_NAME: 'pull-e2e',
    JOB_TYPE: 'presubmit',
    BUILD_ID: '99',
    REPO_OWNER: org,
    REPO_NAME: repo,
    PULL_NUMBER: '7',
    ...(gcsConfiguration ? { JOB_SPEC: JSON.stringify({ decoration_config: { gcs_configuration: gcsConfiguration } }) } : {}),
  });
}

describe("Prow's layout", () => {
  it('periodics and postsubmits: logs/JOB/BUILD', () => {
    assert.equal(prowJobPath(job({ JOB_NAME: 'ci-kubernetes-e2e-gce', JOB_TYPE: 'periodic', BUILD_ID: '1790' })), 'logs/ci-kubernetes-e2e-gce/1790');
    assert.equal(
      prowJobPath(job({ JOB_NAME: 'post-kubernetes-push', JOB_TYPE: 'postsubmit', BUILD_ID: '55', REPO_OWNER: 'kubernetes', REPO_NAME: 'kubernetes' })),
      'logs/post-kubernetes-push/55',
    );
  });

  it('batch runs: pr-logs/pull/batch/JOB/BUILD', () => {
    assert.equal(
      prowJobPath(job({ JOB_NAME: 'pull-kubernetes-e2e', JOB_TYPE: 'batch', BUILD_ID: '8', REPO_OWNER: 'kubernetes', REPO_NAME: 'kubernetes' })),
      'pr-logs/pull/batch/pull-kubernetes-e2e/8',
    );
  });

  it('presubmits, explicit strategy (and no JOB_SPEC): pr-logs/pull/ORG_REPO/PR/JOB/BUILD', () => {
    assert.equal(prowJobPath(presubmit('kubernetes', 'test-infra')), 'pr-logs/pull/kubernetes_test-infra/7/pull-e2e/99');
    assert.equal(prowJobPath(presubmit('kubernetes', 'kubernetes', { bucket: 'b', path_strategy: 'explicit', default_org: 'kubernetes', default_repo: 'kubernetes' })), 'pr-logs/pull/kubernetes_kubernetes/7/pull-e2e/99');
  });

  it('presubmits, legacy strategy: the default org drops the org, the default repo the whole segment', () => {
    const legacy = { bucket: 'kubernetes-jenkins', path_strategy: 'legacy', default_org: 'kubernetes', default_repo: 'kubernetes' };
    assert.equal(prowJobPath(presubmit('kubernetes', 'kubernetes', legacy)), 'pr-logs/pull/7/pull-e2e/99');
    assert.equal(prowJobPath(presubmit('kubernetes', 'test-infra', legacy)), 'pr-logs/pull/test-infra/7/pull-e2e/99');
    assert.equal(prowJobPath(presubmit('kubernetes-sigs', 'kind', legacy)), 'pr-logs/pull/kubernetes-sigs_kind/7/pull-e2e/99');
  });

  it('presubmits, single strategy: only the default org and repo drop the segment', () => {
    const single = { bucket: 'b', path_strategy: 'single', default_org: 'kubernetes', default_repo: 'kubernetes' };
    assert.equal(prowJobPath(presubmit('kubernetes', 'kubernetes', single)), 'pr-logs/pull/7/pull-e2e/99');
    assert.equal(prowJobPath(presubmit('kubernetes', 'test-infra', single)), 'pr-logs/pull/kubernetes_test-infra/7/pull-e2e/99');
  });

  it("a Gerrit repo's slashes become underscores", () => {
    assert.equal(prowJobPath(presubmit('android-review.googlesource.com', 'platform/build/soong')), 'pr-logs/pull/android-review.googlesource.com_platform_build_soong/7/pull-e2e/99');
  });

  it("the dump's folder is artifacts/logdump under the job's, in the bucket given", () => {
    assert.deepEqual(prowDumpLocation(presubmit('kubernetes', 'kubernetes'), 'logdump-ci'), {
      bucket: 'logdump-ci',
      prefix: 'pr-logs/pull/kubernetes_kubernetes/7/pull-e2e/99/artifacts/logdump',
    });
  });

  it("JOB_SPEC's bucket, also as a gs:// URL; another scheme is not ours", () => {
    const withBucket = (bucket: string): string | undefined =>
      job({ JOB_NAME: 'j', JOB_TYPE: 'periodic', BUILD_ID: '1', JOB_SPEC: JSON.stringify({ decoration_config: { gcs_configuration: { bucket } } }) }).bucket;
    assert.equal(withBucket('kubernetes-jenkins'), 'kubernetes-jenkins');
    assert.equal(withBucket('gs://kubernetes-ci-logs'), 'kubernetes-ci-logs');
    assert.equal(withBucket('s3://some-bucket'), undefined);
  });

  it('outside Prow (no JOB_NAME): undefined', () => {
    assert.equal(prowJobFromEnv({}), undefined);
    assert.equal(prowJobFromEnv({ JOB_NAME: '', JOB_TYPE: 'periodic', BUILD_ID: '1' }), undefined);
  });

  const broken: Array<[string, NodeJS.ProcessEnv, RegExp]> = [
    ['JOB_TYPE bogus', { JOB_NAME: 'j', JOB_TYPE: 'bogus', BUILD_ID: '1' }, /JOB_TYPE="bogus"/],
    ['no JOB_TYPE', { JOB_NAME: 'j', BUILD_ID: '1' }, /JOB_TYPE/],
    ['no BUILD_ID', { JOB_NAME: 'j', JOB_TYPE: 'periodic' }, /BUILD_ID/],
    ['a presubmit without PULL_NUMBER', { JOB_NAME: 'j', JOB_TYPE: 'presubmit', BUILD_ID: '1', REPO_OWNER: 'o', REPO_NAME: 'r' }, /PULL_NUMBER/],
    ['a presubmit with a PULL_NUMBER that is not a number', { JOB_NAME: 'j', JOB_TYPE: 'presubmit', BUILD_ID: '1', REPO_OWNER: 'o', REPO_NAME: 'r', PULL_NUMBER: '4/2' }, /PULL_NUMBER/],
    ['a presubmit without REPO_NAME', { JOB_NAME: 'j', JOB_TYPE: 'presubmit', BUILD_ID: '1', REPO_OWNER: 'o', PULL_NUMBER: '4' }, /REPO_NAME/],
    ["BUILD_ID with '/'", { JOB_NAME: 'j', JOB_TYPE: 'periodic', BUILD_ID: '1/../../x' }, /BUILD_ID/],
    ['JOB_NAME ..', { JOB_NAME: '..', JOB_TYPE: 'periodic', BUILD_ID: '1' }, /JOB_NAME/],
    ['JOB_SPEC not JSON', { JOB_NAME: 'j', JOB_TYPE: 'periodic', BUILD_ID: '1', JOB_SPEC: '{"decoration_config":' }, /JOB_SPEC/],
  ];
  for (const [name, env, says] of broken) {
    it(`${name}: a one-line UsageError naming the variable`, () => {
      assert.throws(
        () => prowJobFromEnv(env),
        (error: unknown) => error instanceof UsageError && says.test(error.message) && !error.message.includes('\n'),
      );
    });
  }
});

describe('GitHub Actions workflow commands', () => {
  it('escapeData escapes %, CR and LF, in that order', () => {
    assert.equal(escapeData('100% done\r\nnext'), '100%25 done%0D%0Anext');
    assert.equal(escapeData('%0A'), '%250A', 'an existing escape is not taken for one');
    assert.equal(escapeData('a: b, c'), 'a: b, c');
  });

  it('escapeProperty also escapes : and ,', () => {
    assert.equal(escapeProperty('logdump: a, b\n%'), 'logdump%3A a%2C b%0A%25');
  });

  function finding(severity: Finding['severity'], title: string, sample?: Partial<Finding['samples'][number]>): Finding {
    return {
      id: `rule-${title}`,
      severity,
      title,
      explanation: `Why ${title}.`,
      remedy: 'Fix it, 100%.',
      key: {},
      objects: [],
      count: 2,
      samples: sample ? [{ path: 'nodes/n1/kubelet.log', line: 3, text: 'line one', repeats: 1, ...sample }] : [],
    };
  }

  it('annotationsFor: errors and criticals as ::error, warnings as ::warning, info skipped, at most 5', () => {
    const findings = [
      finding('critical', 'c1'),
      finding('info', 'i1'),
      finding('error', 'e1', { text: 'boom\nsecond line' }),
      finding('warning', 'w1'),
      finding('info', 'i2'),
      finding('warning', 'w2'),
      finding('error', 'e2'),
      finding('warning', 'w3'),
    ];
    const lines = annotationsFor(findings);
    assert.equal(MAX_ANNOTATIONS, 5);
    assert.deepEqual(
      lines.map((line) => line.slice(0, line.indexOf('::', 2))),
      ['::error title=logdump%3A c1', '::error title=logdump%3A e1', '::warning title=logdump%3A w1', '::warning title=logdump%3A w2', '::error title=logdump%3A e2'],
    );
    for (const line of lines) assert.ok(!/[\r\n]/.test(line), line);
    assert.equal(lines[1], '::error title=logdump%3A e1::Why e1.%0AWhat to do: Fix it, 100%25.%0ASeen 2 times.%0Anodes/n1/kubelet.log:3: boom%0Asecond line');
    assert.deepEqual(annotationsFor([finding('info', 'only')]), []);
    assert.equal(annotationsFor(findings, 2).length, 2);
  });
});
