import type { EntrySource } from '../archive/sink.js';
import type { ClusterProbe, KubeClient, RequestOptions } from '../kube/client.js';
import type { RetryPolicy } from '../kube/list.js';

/** What `logdump collect` was asked to do, after flags were validated. */
export interface CollectOptions {
  /** Namespaces to collect; undefined means all of them (`-A`, the default). */
  namespaces: string[] | undefined;
  /** Only log lines newer than this many seconds (`--since`). */
  sinceSeconds: number | undefined;
  /** Cap per container log instance (`--max-log-bytes`); the item is marked truncated. */
  maxLogBytes: number | undefined;
  /** Node logs beyond the kubelet's (`--node-log`), e.g. `kube-proxy`, `containerd`. */
  extraNodeLogs: string[];
  /** Requests in flight at once (`--concurrency`). */
  concurrency: number;
  /** Overall deadline (`--timeout`); what was collected by then is kept. */
  timeoutMs: number | undefined;
  /** A request that sends nothing for this long is given up (`--request-timeout`). */
  requestTimeoutMs: number;
  /** Objects per list page. */
  pageSize: number;
  /** A kubelet ends a NodeLogQuery after this long without an error (30 s upstream). */
  nodeLogQueryLimitMs: number;
  /** Node journals are asked for in windows of this length, so no window hits that limit. */
  nodeLogWindowMs: number;
  retry: RetryPolicy;
}

/** Where an item came from; the manifest's `source`. */
export type ItemSource = 'cluster' | 'objects' | 'events' | 'pod-log' | 'node-log';

/** One entry of the manifest: one file of the dump, or one that could not be made. */
export interface ManifestItem {
  path: string;
  source: ItemSource;
  /** Bytes stored; 0 when nothing was. */
  bytes: number;
  /** Stored, but not all of it: a cap, a cut query, an error or the deadline ended it early. */
  truncated: boolean;
  /** Why the item failed or was cut short. */
  error?: string;
  /** Why there was nothing to store although nothing failed (a container that never started). */
  skipped?: string;
  /** Extra facts, e.g. "list continued inconsistently after its continue token expired". */
  notes?: string[];
  durationMs: number;
}

/**
 * What one item learns while it is produced. The item's source records errors
 * here and ends cleanly instead of throwing, so the bytes received so far are kept.
 */
export interface ItemState {
  truncated: boolean;
  error: unknown;
  skipped: string | undefined;
  notes: string[];
}

/** One file of the dump, planned by a collector and run by the orchestrator. */
export interface CollectUnit {
  path: string;
  source: ItemSource;
  /**
   * Starts producing the item. Throwing fails the item; resolving undefined means
   * there is nothing to store (with `state.skipped` saying why).
   */
  open(signal: AbortSignal, state: ItemState): Promise<EntrySource | undefined>;
}

/** A node as the collectors need it. */
export interface NodeSummary {
  name: string;
  createdAt: Date | undefined;
}

/** One container of a pod, and whether it has a previous instance to log. */
export interface ContainerSummary {
  name: string;
  kind: 'init' | 'regular' | 'ephemeral';
  hasPrevious: boolean;
}

/** A pod as the collectors need it. */
export interface PodSummary {
  namespace: string;
  name: string;
  containers: ContainerSummary[];
}

/** What is known about the cluster once the first lists are in. */
export interface Inventory {
  namespaces: string[];
  nodes: NodeSummary[];
  pods: PodSummary[];
}

/** What every collector is given. */
export interface CollectContext {
  kube: KubeClient;
  options: CollectOptions;
  inventory: Inventory;
  /** The API server's version and clock (which may differ from ours). */
  cluster: ClusterProbe;
  /** Aborts on the deadline or an interrupt. */
  signal: AbortSignal;
  request: RequestOptions;
  /** Runs one unit under the concurrency bound and records it in the manifest. */
  run(unit: CollectUnit): Promise<void>;
}

/** One source of evidence: pod logs, events, node logs, objects. */
export interface Collector {
  readonly name: string;
  collect(context: CollectContext): Promise<void>;
}
