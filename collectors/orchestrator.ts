import { setMaxListeners } from 'node:events';
import { Readable } from 'node:stream';
import pLimit from 'p-limit';
import { MANIFEST_PATH, VERSION_PATH } from '../archive/layout.js';
import type { ArchiveSink } from '../archive/sink.js';
import { describeError } from '../core/errors.js';
import type { ClusterProbe, KubeClient, RequestOptions } from '../kube/client.js';
import { withRetry } from '../kube/list.js';
import { eventsCollector } from './events.js';
import { collectInventory } from './inventory.js';
import { summarize, type Interruption, type Manifest } from './manifest.js';
import { nodeLogsCollector } from './node-logs.js';
import { objectsCollector } from './objects.js';
import { podLogsCollector } from './pod-logs.js';
import type { CollectContext, CollectOptions, Collector, CollectUnit, ItemState, ManifestItem } from './types.js';

/** The collectors a dump runs once the inventory is in, in the order they are started. */
export const COLLECTORS: readonly Collector[] = [objectsCollector, eventsCollector, podLogsCollector, nodeLogsCollector];

/** Hears about progress; the CLI draws a bar or prints lines from it. */
export interface CollectObserver {
  /** A unit was planned. */
  planned(count: number): void;
  /** A unit finished, stored or not. */
  finished(item: ManifestItem): void;
}

/** What the caller gives a collection run. */
export interface CollectRun {
  kube: KubeClient;
  sink: ArchiveSink;
  options: CollectOptions;
  toolVersion: string;
  /** Aborted by the caller on SIGINT/SIGTERM, with the signal's name as reason. */
  interrupt: AbortSignal;
  observer?: CollectObserver;
}

/**
 * Collects everything into the sink and closes it with its manifest. Failures of
 * single items are recorded and never stop the rest; the deadline and interrupts
 * stop new requests and end running ones, and the archive is still closed
 * validly. Only a sink that cannot be written makes this throw.
 */
export async function collect(run: CollectRun): Promise<Manifest> {
  const startedAt = new Date();
  const deadline = run.options.timeoutMs === undefined ? undefined : AbortSignal.timeout(run.options.timeoutMs);
  const signal = deadline ? AbortSignal.any([run.interrupt, deadline]) : run.interrupt;
  // Every request in flight listens on it; Node warns past 10 listeners.
  setMaxListeners(run.options.concurrency * 2 + 16, signal);
  const request: RequestOptions = { signal, idleTimeoutMs: run.options.requestTimeoutMs };
  const items: ManifestItem[] = [];
  const limit = pLimit(run.options.concurrency);

  const runUnit = (unit: CollectUnit): Promise<void> => {
    run.observer?.planned(1);
    return limit(async () => {
      const item = await runOneUnit(run.sink, unit, signal);
      items.push(item);
      run.observer?.finished(item);
    });
  };

  let cluster: ClusterProbe | undefined;
  let unreachable: string | undefined;
  try {
    cluster = await withRetry(() => run.kube.probe(request), signal, run.options.retry);
  } catch (error) {
    unreachable = `asking ${run.kube.server}/version: ${describeError(error)}`;
  }

  if (cluster) {
    const probed = cluster;
    await runUnit({ path: VERSION_PATH, source: 'cluster', open: async () => jsonDocument(probed.version) });
    const base = { kube: run.kube, options: run.options, cluster: probed, signal, request, run: runUnit };
    const inventory = await collectInventory(base);
    const context: CollectContext = { ...base, inventory };
    await Promise.all(COLLECTORS.map((collector) => collector.collect(context)));
  }

  const manifest: Manifest = {
    schemaVersion: 1,
    tool: { name: 'kube-logdump', version: run.toolVersion },
    cluster: {
      server: run.kube.server,
      version: cluster?.version.gitVersion,
      reachable: cluster !== undefined,
      ...(unreachable ? { error: unreachable } : {}),
    },
    startedAt: startedAt.toISOString(),
    endedAt: new Date().toISOString(),
    options: describeOptions(run.options),
    interrupted: interruption(run.interrupt, deadline),
    summary: summarize(items),
    items: items.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
  };
  await run.sink.writeEntry(MANIFEST_PATH, jsonDocument(manifest));
  await run.sink.close();
  return manifest;
}

/** Runs one unit and says what became of it; never throws for the unit's own failures. */
async function runOneUnit(sink: ArchiveSink, unit: CollectUnit, signal: AbortSignal): Promise<ManifestItem> {
  const started = performance.now();
  const state: ItemState = { truncated: false, error: undefined, skipped: undefined, notes: [] };
  let bytes = 0;
  if (signal.aborted) {
    state.error = new Error(`not collected: stopped before it started (${reasonText(signal)})`);
  } else {
    try {
      const source = await unit.open(signal, state);
      if (source !== undefined) bytes = await sink.writeEntry(unit.path, source);
    } catch (error) {
      state.error = error;
    }
  }
  return {
    path: unit.path,
    source: unit.source,
    bytes,
    truncated: state.truncated,
    ...(state.error !== undefined ? { error: describeError(state.error) } : {}),
    ...(state.skipped !== undefined ? { skipped: state.skipped } : {}),
    ...(state.notes.length > 0 ? { notes: state.notes } : {}),
    durationMs: Math.round(performance.now() - started),
  };
}

function reasonText(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === 'TimeoutError') return 'deadline passed';
  return typeof reason === 'string' ? reason : describeError(reason);
}

function interruption(interrupt: AbortSignal, deadline: AbortSignal | undefined): Interruption | undefined {
  if (interrupt.aborted) return interrupt.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT';
  if (deadline?.aborted) return 'deadline';
  return undefined;
}

function describeOptions(options: CollectOptions): Record<string, unknown> {
  return {
    namespaces: options.namespaces ?? 'all',
    sinceSeconds: options.sinceSeconds,
    maxLogBytes: options.maxLogBytes,
    nodeLogs: ['kubelet', ...options.extraNodeLogs],
    concurrency: options.concurrency,
    timeoutMs: options.timeoutMs,
    requestTimeoutMs: options.requestTimeoutMs,
  };
}

/** A small JSON document as an entry source, indented for people. */
function jsonDocument(value: unknown): Readable {
  return Readable.from([`${JSON.stringify(value, null, 2)}\n`]);
}
