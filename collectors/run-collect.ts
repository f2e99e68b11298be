import { AnalyzingSink } from '../analyzers/analyzing-sink.js';
import { renderMarkdown } from '../analyzers/render/markdown.js';
import { loadRuleSet, type RuleSet } from '../analyzers/rules/load-rules.js';
import type { Analysis } from '../analyzers/types.js';
import { checkSinkTarget, openSink, type SinkTarget } from '../archive/open-sink.js';
import { EXIT, UsageError, type ExitCode } from '../core/errors.js';
import { interruptScope } from '../core/interrupts.js';
import { createProgress } from '../core/progress.js';
import { parseBytes, parseDurationMs } from '../core/units.js';
import { toolVersion } from '../core/version.js';
import { KubeClient } from '../kube/client.js';
import { DEFAULT_RETRY } from '../kube/list.js';
import { renderSummaryLine, isComplete, type Manifest } from './manifest.js';
import { collect } from './orchestrator.js';
import { COLLECT_DEFAULTS } from './defaults.js';
import type { CollectOptions } from './types.js';

/** `logdump collect`'s flags as parsed, before validation. */
export interface CollectFlags {
  kubeconfig?: string | undefined;
  context?: string | undefined;
  namespace: string[];
  allNamespaces: boolean;
  out?: string | undefined;
  outDir?: string | undefined;
  since?: string | undefined;
  maxLogBytes?: string | undefined;
  nodeLog: string[];
  concurrency: number;
  chunkSize: number;
  gzipLevel: number;
  timeout?: string | undefined;
  requestTimeout: string;
  /** Analyze while collecting and add analysis/ to the dump. */
  analyze: boolean;
  /** Extra rule files for --analyze. */
  rules: string[];
}

/** `collect`'s flags for uploading the finished dump. */
export interface CollectUploadFlags {
  /** gs://BUCKET/PREFIX to upload the finished dump to. */
  upload?: string | undefined;
  uploadMode: 'expanded' | 'archive';
  /** A GCS-compatible endpoint (a test server) for --upload. */
  gcsEndpoint?: string | undefined;
}


/** Validates every flag before any I/O, so a typo costs a second, not a dump. */
export function resolveCollectOptions(flags: CollectFlags, now: Date): { options: CollectOptions; target: SinkTarget } {
  if (flags.allNamespaces && flags.namespace.length > 0) {
    throw new UsageError('--namespace and --all-namespaces cannot be used together');
  }
  if (flags.out !== undefined && flags.outDir !== undefined) {
    throw new UsageError('--out and --out-dir cannot be used together');
  }
  if (!Number.isInteger(flags.concurrency) || flags.concurrency < 1 || flags.concurrency > 1024) {
    throw new UsageError(`--concurrency ${flags.concurrency} must be a whole number from 1 to 1024`);
  }
  if (!Number.isInteger(flags.gzipLevel) || flags.gzipLevel < 1 || flags.gzipLevel > 9) {
    throw new UsageError(`--gzip-level ${flags.gzipLevel} must be a whole number from 1 (fastest) to 9 (smallest)`);
  }
  if (flags.outDir !== undefined && flags.gzipLevel !== COLLECT_DEFAULTS.gzipLevel) {
    throw new UsageError('--gzip-level applies to --out archives, not to --out-dir');
  }
  if (!Number.isInteger(flags.chunkSize) || flags.chunkSize < 1) {
    throw new UsageError(`--chunk-size ${flags.chunkSize} must be a whole number above 0`);
  }
  for (const name of [...flags.namespace, ...flags.nodeLog]) {
    if (!/^[a-zA-Z0-9][a-zA-Z0-9._-]*$/.test(name)) throw new UsageError(`"${name}" is not a valid namespace or node log name`);
  }
  const target: SinkTarget = flags.outDir !== undefined
    ? { kind: 'directory', dir: flags.outDir }
    : { kind: 'tar.gz', file: flags.out ?? defaultArchiveName(now), gzipLevel: flags.gzipLevel };
  const options: CollectOptions = {
    namespaces: flags.namespace.length > 0 ? [...new Set(flags.namespace)] : undefined,
    sinceSeconds: flags.since === undefined ? undefined : Math.ceil(parseDurationMs(flags.since, '--since') / 1000),
    maxLogBytes: flags.maxLogBytes === undefined ? undefined : parseBytes(flags.maxLogBytes, '--max-log-bytes'),
    extraNodeLogs: [...new Set(flags.nodeLog)],
    concurrency: flags.concurrency,
    timeoutMs: flags.timeout === undefined ? undefined : parseDurationMs(flags.timeout, '--timeout'),
    requestTimeoutMs: parseDurationMs(flags.requestTimeout, '--request-timeout'),
    pageSize: flags.chunkSize,
    nodeLogQueryLimitMs: COLLECT_DEFAULTS.nodeLogQueryLimitMs,
    nodeLogWindowMs: COLLECT_DEFAULTS.nodeLogWindowMs,
    retry: DEFAULT_RETRY,
  };
  return { options, target };
}

/** `logdump-20260210T191245Z.tar.gz` in the working directory. */
export function defaultArchiveName(now: Date): string {
  return `logdump-${now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}.tar.gz`;
}

/** A validated `collect`: what to collect, where to, with which rules; no I/O done on the cluster yet. */
export interface CollectPlan {
  readonly options: CollectOptions;
  readonly target: SinkTarget;
  /** Set when the dump is analyzed while it is collected. */
  readonly rules: RuleSet | undefined;
  readonly kubeconfig: string | undefined;
  readonly context: string | undefined;
}

/** What one collection left: the manifest, the analysis if asked for, and where the local dump is. */
export interface CollectedDump {
  readonly manifest: Manifest;
  readonly analysis: Analysis | undefined;
  /** The local `.tar.gz` or directory. */
  readonly local: string;
  readonly exitCode: ExitCode;
}

/** Validates the flags, the output path and the rule files, so every mistake shows before the cluster is touched. */
export async function planCollect(flags: CollectFlags, now: Date): Promise<CollectPlan> {
  const { options, target } = resolveCollectOptions(flags, now);
  if (flags.rules.length > 0 && !flags.analyze) throw new UsageError('--rules only applies with --analyze');
  const rules = flags.analyze ? await loadRuleSet(flags.rules) : undefined;
  await checkSinkTarget(target);
  return { options, target, rules, kubeconfig: flags.kubeconfig, context: flags.context };
}

/**
 * Connects, collects into the plan's sink (analyzing on the way when asked),
 * and reports one summary line on stderr. `interrupt` stops collection early;
 * the archive is still closed with what was collected.
 */
export async function collectDump(plan: CollectPlan, interrupt: AbortSignal): Promise<CollectedDump> {
  const started = Date.now();
  const kube = await KubeClient.connect({ kubeconfig: plan.kubeconfig, context: plan.context }, plan.options.concurrency);
  // The deadline is the whole command's: resolving credentials (an exec plugin may be slow) counts too.
  const timeoutMs = plan.options.timeoutMs === undefined ? undefined : Math.max(1, plan.options.timeoutMs - (Date.now() - started));
  const options = { ...plan.options, timeoutMs };
  const progress = createProgress(process.stderr, 'collecting');
  try {
    const target = await openSink(plan.target);
    const analyzing = plan.rules ? new AnalyzingSink(target, plan.rules, toolVersion()) : undefined;
    const sink = analyzing ?? target;
    const manifest = await collect({ kube, sink, options, toolVersion: toolVersion(), interrupt, observer: progress });
    progress.stop();
    process.stderr.write(`${renderSummaryLine(manifest, sink.location)}\n`);
    return { manifest, analysis: analyzing?.analysis, local: localPathOf(plan.target), exitCode: exitCodeOf(manifest) };
  } finally {
    progress.stop();
    kube.close();
  }
}

/** The file or directory a sink target writes. */
export function localPathOf(target: SinkTarget): string {
  return target.kind === 'directory' ? target.dir : target.file;
}

/**
 * The whole `collect` command: validate, connect, collect, report one summary
 * line, print the summary with --analyze, upload with --upload, and choose the
 * exit code. SIGINT/SIGTERM stop collection and still close a valid archive
 * (which is then not uploaded); a second SIGINT quits at once.
 */
export async function runCollect(flags: CollectFlags & CollectUploadFlags, overrides: Partial<CollectOptions> = {}): Promise<ExitCode> {
  const plan = await planCollect(flags, new Date());
  const upload = flags.upload === undefined ? undefined : await planUpload(flags);
  const interrupt = interruptScope(() => `stopping, closing ${localPathOf(plan.target)} with what was collected`);
  try {
    const dump = await collectDump({ ...plan, options: { ...plan.options, ...overrides } }, interrupt.signal);
    if (dump.analysis) process.stdout.write(renderMarkdown(dump.analysis));
    if (!upload || dump.manifest.interrupted === 'SIGINT' || dump.manifest.interrupted === 'SIGTERM') return dump.exitCode;
    return worseExitCode(dump.exitCode, await upload(dump.local));
  } finally {
    interrupt.dispose();
  }
}

/** Checks `--upload`'s target before collecting; returns the step that uploads the finished dump. */
async function planUpload(flags: CollectUploadFlags): Promise<(local: string) => Promise<ExitCode>> {
  // Loaded only when asked for: the GCS client takes a while to import.
  const { parseGcsUrl } = await import('../gcs/gcs-url.js');
  const { uploadAndReport, uploadExitCode } = await import('../gcs/run-upload.js');
  const target = parseGcsUrl(flags.upload ?? '', '--upload');
  return async (local) => uploadExitCode(await uploadAndReport(local, target, { mode: flags.uploadMode, endpoint: flags.gcsEndpoint }, (line) => process.stderr.write(`logdump: ${line}\n`)));
}

/** Of two exit codes of one command, the one that tells the user more is wrong. */
export function worseExitCode(a: ExitCode, b: ExitCode): ExitCode {
  const rank = (code: ExitCode): number => [EXIT.ok, EXIT.partial, EXIT.unreachable, EXIT.usage, EXIT.internal, EXIT.sigint, EXIT.sigterm].indexOf(code);
  return rank(a) >= rank(b) ? a : b;
}

/** The documented exit codes of `collect`. */
export function exitCodeOf(manifest: Manifest): ExitCode {
  if (manifest.interrupted === 'SIGINT') return EXIT.sigint;
  if (manifest.interrupted === 'SIGTERM') return EXIT.sigterm;
  const collected = manifest.items.some((item) => item.source !== 'cluster' && item.bytes > 0);
  if (!manifest.cluster.reachable || !collected) return EXIT.unreachable;
  return isComplete(manifest) ? EXIT.ok : EXIT.partial;
}
