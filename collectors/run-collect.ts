import { AnalyzingSink } from '../analyzers/analyzing-sink.js';
import { renderMarkdown } from '../analyzers/render/markdown.js';
import { loadRuleSet } from '../analyzers/rules/load-rules.js';
import { openSink, type SinkTarget } from '../archive/open-sink.js';
import { EXIT, UsageError, type ExitCode } from '../core/errors.js';
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

/**
 * The whole `collect` command: validate, connect, collect, report one summary
 * line, and choose the exit code. SIGINT/SIGTERM stop collection and still
 * close a valid archive; a second SIGINT quits at once.
 */
export async function runCollect(flags: CollectFlags, overrides: Partial<CollectOptions> = {}): Promise<ExitCode> {
  const resolved = resolveCollectOptions(flags, new Date());
  const options = { ...resolved.options, ...overrides };
  if (flags.rules.length > 0 && !flags.analyze) throw new UsageError('--rules only applies with --analyze');
  const rules = flags.analyze ? await loadRuleSet(flags.rules) : undefined;
  const kube = await KubeClient.connect({ kubeconfig: flags.kubeconfig, context: flags.context }, options.concurrency);
  const target = await openSink(resolved.target);
  const analyzing = rules ? new AnalyzingSink(target, rules, toolVersion()) : undefined;
  const sink = analyzing ?? target;
  const interrupt = new AbortController();
  const onSignal = (signal: NodeJS.Signals): void => {
    if (interrupt.signal.aborted) process.exit(signal === 'SIGTERM' ? EXIT.sigterm : EXIT.sigint);
    process.stderr.write(`logdump: ${signal}: stopping, closing ${sink.location} with what was collected\n`);
    interrupt.abort(signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const progress = createProgress(process.stderr, 'collecting');
  try {
    const manifest = await collect({ kube, sink, options, toolVersion: toolVersion(), interrupt: interrupt.signal, observer: progress });
    progress.stop();
    process.stderr.write(`${renderSummaryLine(manifest, sink.location)}\n`);
    if (analyzing?.analysis) process.stdout.write(renderMarkdown(analyzing.analysis));
    return exitCodeOf(manifest);
  } finally {
    progress.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    kube.close();
  }
}

/** The documented exit codes of `collect`. */
export function exitCodeOf(manifest: Manifest): ExitCode {
  if (manifest.interrupted === 'SIGINT') return EXIT.sigint;
  if (manifest.interrupted === 'SIGTERM') return EXIT.sigterm;
  const collected = manifest.items.some((item) => item.source !== 'cluster' && item.bytes > 0);
  if (!manifest.cluster.reachable || !collected) return EXIT.unreachable;
  return isComplete(manifest) ? EXIT.ok : EXIT.partial;
}
