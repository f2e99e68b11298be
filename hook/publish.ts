import { isAbsolute, relative, sep } from 'node:path';
import type { Manifest } from '../collectors/manifest.js';
import { collectDump, type CollectedDump } from '../collectors/run-collect.js';
import { describeError } from '../core/errors.js';
import { gcswebUrl } from '../gcs/gcs-url.js';
import type { UploadResult } from '../gcs/upload-dump.js';
import type { HookPlan } from './plan.js';
import { prowJobPath } from './prow.js';

/** What the dump phase of a CI hook achieved; every failure is a line in `problems`, never a throw. */
export interface PublishReport {
  readonly dump: CollectedDump | undefined;
  readonly upload: UploadResult | undefined;
  /** Where a person browses the dump (the upload, or where Prow's uploader will put $ARTIFACTS), if anywhere. */
  readonly browseUrl: string | undefined;
  /** One line per thing that went wrong, for stderr and the summary. */
  readonly problems: readonly string[];
}

/**
 * Share of `--timeout` that collection may use when an upload follows: the
 * upload gets what collection leaves, and at least the other 40%, since a
 * dump that never leaves the CI machine is lost with it.
 */
export const COLLECT_SHARE_WITH_UPLOAD = 0.6;
/** Without an upload, collection leaves a little time to close the archive and write the summaries. */
export const COLLECT_SHARE_ALONE = 0.9;

/**
 * Collects (analyzing on the way) and uploads within the plan's deadline.
 * `interrupt` (a SIGINT/SIGTERM) ends collection early; what was collected is
 * still closed and uploaded. Never throws: the caller's exit code is the
 * test's, and the dump's troubles are reported, not raised.
 */
export async function collectAndUpload(plan: HookPlan, interrupt: AbortSignal): Promise<PublishReport> {
  const problems: string[] = [];
  const deadline = Date.now() + plan.timeoutMs;
  const collectBudget = Math.max(1000, Math.floor(plan.timeoutMs * (plan.upload ? COLLECT_SHARE_WITH_UPLOAD : COLLECT_SHARE_ALONE)));
  let dump: CollectedDump | undefined;
  try {
    dump = await collectDump({ ...plan.collect, options: { ...plan.collect.options, timeoutMs: collectBudget } }, interrupt);
  } catch (error: unknown) {
    problems.push(`collecting: ${describeError(error)}`);
  }
  if (dump) problems.push(...collectionProblems(dump.manifest));
  if (!dump || !plan.upload) return { dump, upload: undefined, browseUrl: dump ? artifactsBrowseUrl(plan, dump.local) : undefined, problems };

  // Loaded only when needed: the GCS client takes a while to import.
  const { uploadAndReport } = await import('../gcs/run-upload.js');
  const browseUrl = gcswebUrl(plan.upload.target, plan.gcswebUrl);
  try {
    const options = { mode: plan.upload.mode, endpoint: plan.upload.endpoint, timeoutMs: Math.max(1000, deadline - Date.now()) };
    const upload = await uploadAndReport(dump.local, plan.upload.target, options, (line) => process.stderr.write(`logdump: ${line}\n`), browseUrl);
    if (upload.failed.length > 0) problems.push(`uploading: ${upload.failed.length} of ${upload.failed.length + upload.uploaded.length} objects failed; the local dump ${dump.local} is intact`);
    return { dump, upload, browseUrl: upload.uploaded.length > 0 ? browseUrl : undefined, problems };
  } catch (error: unknown) {
    problems.push(`uploading: ${describeError(error)}`);
    return { dump, upload: undefined, browseUrl: undefined, problems };
  }
}

/** What a person reading the summary must know about a dump that is not whole; the manifest has the details. */
export function collectionProblems(manifest: Manifest): string[] {
  const problems: string[] = [];
  if (!manifest.cluster.reachable) problems.push(`collecting: the cluster could not be reached (${manifest.cluster.error ?? 'no answer'}), so the dump holds nothing from it`);
  if (manifest.interrupted === 'deadline') problems.push('collecting: --timeout passed first; the dump holds what was collected by then');
  else if (manifest.interrupted) problems.push(`collecting: stopped by ${manifest.interrupted}; the dump holds what was collected by then`);
  const { failed } = manifest.summary;
  if (manifest.cluster.reachable && failed > 0) problems.push(`collecting: ${failed} item${failed === 1 ? '' : 's'} could not be collected (see manifest.json)`);
  return problems;
}

/**
 * A dump written under $ARTIFACTS in a Prow job is published by Prow's own
 * uploader to the job's `artifacts/` folder; its browse URL is known when the
 * job spec names the bucket.
 */
function artifactsBrowseUrl(plan: HookPlan, local: string): string | undefined {
  if (!plan.prow?.bucket || !plan.artifactsDir) return undefined;
  const inside = relative(plan.artifactsDir, local);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return undefined;
  const folder = gcswebUrl({ bucket: plan.prow.bucket, prefix: [prowJobPath(plan.prow), 'artifacts', ...inside.split(sep)].join('/') }, plan.gcswebUrl);
  return plan.collect.target.kind === 'directory' ? folder : folder.replace(/\/$/, '');
}
