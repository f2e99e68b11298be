/**
 * Prow's view of a job, from the environment its pod utilities give every test
 * container (JOB_NAME, JOB_TYPE, BUILD_ID, REPO_OWNER, REPO_NAME, PULL_NUMBER,
 * ARTIFACTS, and JOB_SPEC as JSON), and the GCS layout its uploader and
 * Spyglass use for a job's results.
 */
import { UsageError } from '../core/errors.js';
import type { GcsLocation } from '../gcs/gcs-url.js';

export const PROW_JOB_TYPES = ['presubmit', 'postsubmit', 'periodic', 'batch'] as const;
export type ProwJobType = (typeof PROW_JOB_TYPES)[number];

/** How Prow names the org/repo folder of presubmits; `explicit` unless the job's decoration config says otherwise. */
export type PathStrategy =
  | { readonly kind: 'explicit' }
  | { readonly kind: 'legacy' | 'single'; readonly defaultOrg: string; readonly defaultRepo: string };

/** One run of a Prow job. */
export interface ProwJob {
  readonly job: string;
  readonly buildId: string;
  readonly type: ProwJobType;
  readonly org: string | undefined;
  readonly repo: string | undefined;
  /** The (first) pull request of a presubmit. */
  readonly pull: string | undefined;
  /** The bucket Prow's uploader writes the job's results to, from JOB_SPEC's decoration config. */
  readonly bucket: string | undefined;
  readonly pathStrategy: PathStrategy;
}

/** Where logdump puts its dump under a job's folder, beside what Prow's uploader puts in `artifacts/`. */
export const PROW_DUMP_FOLDER = 'artifacts/logdump';

/**
 * The Prow job this process runs in, or undefined outside Prow (no JOB_NAME).
 * An environment that claims to be Prow but lacks what the layout needs is a
 * UsageError naming the variable, not a silently wrong upload path.
 */
export function prowJobFromEnv(env: NodeJS.ProcessEnv): ProwJob | undefined {
  const job = env['JOB_NAME'];
  if (!job) return undefined;
  const type = required(env, 'JOB_TYPE');
  if (!(PROW_JOB_TYPES as readonly string[]).includes(type)) {
    throw new UsageError(`JOB_TYPE="${type}" is not one of Prow's job types (${PROW_JOB_TYPES.join(', ')})`);
  }
  const spec = parseJobSpec(env['JOB_SPEC']);
  const prow: ProwJob = {
    job: segment('JOB_NAME', job),
    buildId: segment('BUILD_ID', required(env, 'BUILD_ID')),
    type: type as ProwJobType,
    org: env['REPO_OWNER'] || undefined,
    repo: env['REPO_NAME'] || undefined,
    pull: env['PULL_NUMBER'] || undefined,
    ...spec,
  };
  if (prow.type === 'presubmit') {
    if (!prow.org || !prow.repo) throw new UsageError('a presubmit (JOB_TYPE=presubmit) needs REPO_OWNER and REPO_NAME for its upload path');
    if (!prow.pull || !/^\d+$/.test(prow.pull)) throw new UsageError(`a presubmit (JOB_TYPE=presubmit) needs a numeric PULL_NUMBER, not "${prow.pull ?? ''}"`);
  }
  return prow;
}

/**
 * The job run's folder in its bucket, as Prow's uploader computes it:
 * `logs/JOB/BUILD` for periodics and postsubmits,
 * `pr-logs/pull/ORG_REPO/PR/JOB/BUILD` for presubmits,
 * `pr-logs/pull/batch/JOB/BUILD` for batch runs.
 */
export function prowJobPath(prow: ProwJob): string {
  switch (prow.type) {
    case 'periodic':
    case 'postsubmit':
      return `logs/${prow.job}/${prow.buildId}`;
    case 'batch':
      return `pr-logs/pull/batch/${prow.job}/${prow.buildId}`;
    case 'presubmit': {
      const repoSegment = repoPathSegment(prow.pathStrategy, prow.org ?? '', prow.repo ?? '');
      return ['pr-logs', 'pull', repoSegment, prow.pull ?? '', prow.job, prow.buildId].filter((part) => part !== '').join('/');
    }
  }
}

/** Where the dump goes in `bucket` for this job run. */
export function prowDumpLocation(prow: ProwJob, bucket: string): GcsLocation {
  return { bucket, prefix: `${prowJobPath(prow)}/${PROW_DUMP_FOLDER}` };
}

/** Prow's org/repo folder: `org_repo`, left out (legacy, single) for the default repo. A Gerrit repo's slashes become `_`. */
function repoPathSegment(strategy: PathStrategy, org: string, repo: string): string {
  const explicit = `${org}_${repo.replaceAll('/', '_')}`;
  if (strategy.kind === 'explicit') return explicit;
  if (org === strategy.defaultOrg && repo === strategy.defaultRepo) return '';
  if (strategy.kind === 'legacy' && org === strategy.defaultOrg) return repo;
  return explicit;
}

interface JobSpecFacts {
  bucket: string | undefined;
  pathStrategy: PathStrategy;
}

/** The parts of JOB_SPEC the layout needs; an absent JOB_SPEC means Prow's defaults. */
function parseJobSpec(text: string | undefined): JobSpecFacts {
  if (!text) return { bucket: undefined, pathStrategy: { kind: 'explicit' } };
  let spec: unknown;
  try {
    spec = JSON.parse(text);
  } catch (error: unknown) {
    throw new UsageError(`JOB_SPEC is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
  const gcs = pick(pick(spec, 'decoration_config'), 'gcs_configuration');
  const bucketText = stringAt(gcs, 'bucket');
  // Newer Prow writes the bucket as a URL (gs://, s3://); only gs:// is ours to browse.
  const bucket = bucketText?.startsWith('gs://') ? bucketText.slice('gs://'.length).replace(/\/+$/, '') : bucketText?.includes('://') ? undefined : bucketText;
  const kind = stringAt(gcs, 'path_strategy') ?? 'explicit';
  if (kind !== 'legacy' && kind !== 'single') return { bucket, pathStrategy: { kind: 'explicit' } };
  return { bucket, pathStrategy: { kind, defaultOrg: stringAt(gcs, 'default_org') ?? '', defaultRepo: stringAt(gcs, 'default_repo') ?? '' } };
}

function pick(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function stringAt(value: unknown, key: string): string | undefined {
  const found = pick(value, key);
  return typeof found === 'string' && found !== '' ? found : undefined;
}

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (!value) throw new UsageError(`JOB_NAME is set, so this looks like a Prow job, but ${name} is not`);
  return value;
}

/** A value that becomes one path segment must not add segments or climb out. */
function segment(name: string, value: string): string {
  if (value.includes('/') || value === '.' || value === '..') throw new UsageError(`${name}="${value}" cannot be a path segment`);
  return value;
}
