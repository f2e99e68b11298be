import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderJson } from '../analyzers/render/json.js';
import { renderMarkdown } from '../analyzers/render/markdown.js';
import { renderText } from '../analyzers/render/text.js';
import { describeError } from '../core/errors.js';
import { formatGcsUrl, spyglassUrl } from '../gcs/gcs-url.js';
import { annotationsFor } from './github-actions.js';
import type { HookPlan } from './plan.js';
import { prowJobPath } from './prow.js';
import type { PublishReport } from './publish.js';

/** What `run`/`ci` leave in the artifacts directory, beside the dump itself. */
export const ARTIFACT_FILES = { summary: 'logdump-summary.md', findings: 'logdump-findings.json' } as const;

/**
 * Tells everyone who looks: the terminal or build log (stderr), the CI
 * system's artifacts, GitHub's job summary and annotations. A failure to write
 * one of them is reported and does not stop the others.
 */
export async function writeHookOutputs(plan: HookPlan, report: PublishReport, testLine: string): Promise<void> {
  const jobUrl = prowJobUrl(plan);
  const markdown = summaryMarkdown(plan, report, testLine, jobUrl);
  const analysis = report.dump?.analysis;
  if (analysis) process.stderr.write(`\n${renderText(analysis)}\n`);
  for (const problem of report.problems) process.stderr.write(`logdump: ${problem}\n`);
  if (report.browseUrl) process.stderr.write(`logdump: browse the dump: ${report.browseUrl}\n`);
  if (jobUrl) process.stderr.write(`logdump: the job: ${jobUrl}\n`);

  const writes: Array<[string, () => Promise<void>]> = [];
  if (plan.artifactsDir) {
    const dir = plan.artifactsDir;
    writes.push([join(dir, ARTIFACT_FILES.summary), () => writeInto(dir, ARTIFACT_FILES.summary, markdown)]);
    if (analysis) writes.push([join(dir, ARTIFACT_FILES.findings), () => writeInto(dir, ARTIFACT_FILES.findings, renderJson(analysis))]);
  }
  const stepSummary = plan.github?.stepSummary;
  if (stepSummary) writes.push([stepSummary, () => appendFile(stepSummary, `${markdown}\n`)]);
  for (const [path, write] of writes) {
    try {
      await write();
    } catch (error: unknown) {
      process.stderr.write(`logdump: writing ${path}: ${describeError(error)}\n`);
    }
  }
  if (plan.github && analysis) {
    for (const line of annotationsFor(analysis.findings)) process.stdout.write(`${line}\n`);
  }
}

/**
 * The markdown a person reads on the CI page or a pull request: how the test
 * ended and where the dump is, above the analysis; file links open the
 * uploaded files when they were uploaded one by one.
 */
export function summaryMarkdown(plan: HookPlan, report: PublishReport, testLine: string, jobUrl: string | undefined): string {
  const context = [`**Test:** ${testLine}.`, `**Dump:** ${whereIsTheDump(plan, report)}`];
  if (jobUrl) context.push(`**Job:** [${jobUrl}](${jobUrl})`);
  for (const problem of report.problems) context.push(`**Problem:** ${problem}`);
  const analysis = report.dump?.analysis;
  if (!analysis) return `## logdump: no analysis, the dump failed\n\n${context.join('  \n')}\n`;
  // An empty dump has no findings, which must not read as "no known problem".
  if (report.dump?.manifest.cluster.reachable === false) return `## logdump: nothing collected, the cluster could not be reached\n\n${context.join('  \n')}\n`;
  const filesUrl = plan.upload?.mode === 'archive' ? undefined : report.browseUrl;
  return renderMarkdown(analysis, { baseUrl: filesUrl, context: [context.join('  \n')] });
}

function whereIsTheDump(plan: HookPlan, report: PublishReport): string {
  if (!report.dump) return 'none';
  const local = `\`${report.dump.local}\``;
  if (report.browseUrl && report.upload) return `[${formatGcsUrl(report.upload.location)}](${report.browseUrl}) (local copy ${local})`;
  if (report.browseUrl) return `[${report.browseUrl}](${report.browseUrl}) (once Prow has uploaded ${local})`;
  if (plan.upload) return `not uploaded; the local copy is ${local}`;
  return local;
}

/** Spyglass's view of the job run, when its bucket is known (from --gcs-bucket or the job spec). */
function prowJobUrl(plan: HookPlan): string | undefined {
  if (!plan.prow) return undefined;
  const prowFolder = prowJobPath(plan.prow);
  const bucket = plan.upload?.target.prefix.startsWith(`${prowFolder}/`) ? plan.upload.target.bucket : plan.prow.bucket;
  return bucket ? spyglassUrl({ bucket, prefix: prowFolder }, plan.spyglassUrl) : undefined;
}

async function writeInto(dir: string, name: string, text: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, name), text);
}
