import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { planCollect, type CollectFlags, type CollectPlan } from '../collectors/run-collect.js';
import { describeError, UsageError } from '../core/errors.js';
import { parseDurationMs } from '../core/units.js';
import { GCSWEB_BASE, parseGcsUrl, SPYGLASS_BASE, type GcsLocation } from '../gcs/gcs-url.js';
import { githubActionsFromEnv, type GitHubActions } from './github-actions.js';
import { prowDumpLocation, prowJobFromEnv, type ProwJob } from './prow.js';

/** Flags shared by `logdump run` and `logdump ci`, as parsed. */
export interface HookFlags extends Omit<CollectFlags, 'timeout' | 'analyze'> {
  /** Collect, analyze and upload even when the test passed. */
  always: boolean;
  /** One deadline for the whole dump: collect, analyze and upload. */
  timeout: string;
  /** gs://BUCKET/PREFIX to upload to. */
  upload?: string | undefined;
  /** Upload to Prow's folder for this job run in this bucket. */
  gcsBucket?: string | undefined;
  uploadMode: 'expanded' | 'archive';
  gcsEndpoint?: string | undefined;
  /** Where the summary and findings are written for the CI system to keep (default: $ARTIFACTS). */
  artifacts?: string | undefined;
  gcswebUrl: string;
  spyglassUrl: string;
}

export const HOOK_DEFAULTS = { timeout: '10m', gcswebUrl: GCSWEB_BASE, spyglassUrl: SPYGLASS_BASE } as const;

/** Where and how the finished dump is uploaded. */
export interface UploadPlan {
  readonly target: GcsLocation;
  readonly mode: 'expanded' | 'archive';
  readonly endpoint: string | undefined;
}

/** Everything a CI hook will do after the test, decided (and checked) before the test runs. */
export interface HookPlan {
  readonly collect: CollectPlan;
  readonly upload: UploadPlan | undefined;
  readonly always: boolean;
  readonly timeoutMs: number;
  readonly gcswebUrl: string;
  readonly spyglassUrl: string;
  readonly prow: ProwJob | undefined;
  readonly github: GitHubActions | undefined;
  /** $ARTIFACTS or --artifacts. */
  readonly artifactsDir: string | undefined;
}

/** Under $ARTIFACTS, Prow's uploader puts the dump beside the job's other artifacts, file by file. */
export const ARTIFACTS_DUMP_DIR = 'logdump';

/**
 * Turns flags and the CI environment into a plan, failing with a UsageError
 * on anything wrong before the test has run: a typo must not cost a test run.
 *
 * Without an explicit --out/--out-dir, a job with an artifacts directory and
 * no upload of its own writes the dump there as a directory, so Prow's
 * uploader publishes it file by file; otherwise it is a .tar.gz in the working
 * directory, as `collect` makes.
 */
export async function planHook(flags: HookFlags, env: NodeJS.ProcessEnv, now: Date): Promise<HookPlan> {
  const prow = prowJobFromEnv(env);
  const artifactsDir = flags.artifacts ?? (env['ARTIFACTS'] || undefined);
  const upload = planUpload(flags, prow);
  const intoArtifacts = flags.out === undefined && flags.outDir === undefined && upload === undefined && artifactsDir !== undefined;
  // A CI system may create its artifacts directory only for what lands in it.
  if (intoArtifacts) await makeArtifactsDir(artifactsDir);
  const outDir = intoArtifacts ? join(artifactsDir, ARTIFACTS_DUMP_DIR) : flags.outDir;
  const collect = await planCollect({ ...flags, outDir, analyze: true, timeout: undefined }, now);
  const timeoutMs = parseDurationMs(flags.timeout, '--timeout');
  return {
    collect,
    upload,
    always: flags.always,
    timeoutMs,
    gcswebUrl: checkedUrl(flags.gcswebUrl, '--gcsweb-url'),
    spyglassUrl: checkedUrl(flags.spyglassUrl, '--spyglass-url'),
    prow,
    github: githubActionsFromEnv(env),
    artifactsDir: artifactsDir === undefined ? undefined : resolve(artifactsDir),
  };
}

function planUpload(flags: HookFlags, prow: ProwJob | undefined): UploadPlan | undefined {
  if (flags.upload !== undefined && flags.gcsBucket !== undefined) throw new UsageError('--upload and --gcs-bucket cannot be used together');
  const endpoint = flags.gcsEndpoint;
  if (flags.upload !== undefined) return { target: parseGcsUrl(flags.upload, '--upload'), mode: flags.uploadMode, endpoint };
  if (flags.gcsBucket === undefined) return undefined;
  if (!prow) throw new UsageError('--gcs-bucket lays the dump out as Prow does, which needs JOB_NAME, JOB_TYPE and BUILD_ID; elsewhere use --upload gs://BUCKET/PREFIX');
  const bucket = parseGcsUrl(`gs://${flags.gcsBucket.replace(/^gs:\/\//, '')}`, '--gcs-bucket');
  if (bucket.prefix !== '') throw new UsageError(`--gcs-bucket "${flags.gcsBucket}" names a bucket only; the folder follows Prow's layout (use --upload for your own)`);
  return { target: prowDumpLocation(prow, bucket.bucket), mode: flags.uploadMode, endpoint };
}

async function makeArtifactsDir(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (error: unknown) {
    throw new UsageError(`the artifacts directory ${dir} cannot be created: ${describeError(error)}`, { cause: error });
  }
}

function checkedUrl(text: string, flag: string): string {
  if (!/^https?:\/\/[^/\s]+/.test(text)) throw new UsageError(`${flag} "${text}" is not an http(s) URL`);
  return text;
}
