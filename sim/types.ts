/**
 * The cluster simulator's data model. A scenario is plain data (objects as the
 * API server would serve them, plus what only kubelets know: container logs and
 * node logs), so the same scenario can later be loaded into a real API server.
 */

/** Any Kubernetes object as JSON; the simulator fills defaults it needs. */
export type KubeObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; [key: string]: unknown };
  [key: string]: unknown;
};

/**
 * Log text of one container instance or one node log. `lines` are served as
 * given (each gets a newline); `generated` produces deterministic lines lazily so
 * a scenario can hold gigabytes without holding them in memory.
 */
export type LogSource =
  | {
      lines: string[];
      /**
       * RFC3339 time of each line (what the container runtime or journald
       * stamped), parallel to `lines`; without it the lines are one second apart
       * and the last one is at the end of the instance (scenario `now`, or the
       * `finishedAt` of the terminated instance).
       */
      times?: string[];
    }
  | { generated: { bytes: number; seed: string } };

/** Logs of one container of one pod; `previous` is the last terminated instance. */
export interface ContainerLogs {
  namespace: string;
  pod: string;
  container: string;
  current?: LogSource;
  previous?: LogSource;
}

/** A node's kubelet-side view: its log files and whether NodeLogQuery is enabled. */
export interface NodeLogs {
  node: string;
  /** False reproduces a kubelet whose NodeLogQuery feature gate is off. */
  nodeLogQuery: boolean;
  /** Keyed by service/file stem: `kubelet`, `kube-proxy`, `containerd`... */
  logs: Record<string, LogSource>;
  /**
   * Which stems are journald units (answered by a NodeLogQuery with journalctl
   * output); the others only exist as `/var/log/{stem}.log` files, as kube-proxy
   * does on GCE nodes. Every stem is also served as a file. Default: all stems.
   */
  journalUnits?: string[];
}

/** Faults the simulator injects; each one has a real-world counterpart. */
export interface Faults {
  /** Added before every response. */
  latencyMs: number;
  /** Fraction (0..1) of requests answered with a 500 Status. */
  errorRate: number;
  /** Fraction (0..1) of requests whose connection is destroyed without an answer. */
  resetRate: number;
  /** Nodes whose proxy (kubelet) requests never answer. */
  hangingNodes: string[];
  /** Nodes whose proxy log requests answer 404. */
  missingNodeLogs: string[];
  /** Namespaces where every request is denied with 403 (RBAC). */
  forbiddenNamespaces: string[];
  /** After this many pages of a paged list, its continue token expires (410). */
  expireContinueAfterPages: number | null;
  /** A real kubelet ends a NodeLogQuery after 30 s without error; this is that cut. */
  nodeLogQueryCutMs: number;
  /**
   * Pause before each chunk (about 16 KiB) of NodeLogQuery output: journalctl
   * is slow on a big journal, and this makes `nodeLogQueryCutMs` reachable.
   */
  nodeLogQueryChunkDelayMs: number;
  /** Seed for the random choices of errorRate/resetRate, so a test is repeatable. */
  seed: number;
}

/** A whole simulated cluster. */
export interface Scenario {
  name: string;
  description: string;
  /** The moment the scenario's clock reads "now"; timestamps are built around it. */
  now: string;
  objects: KubeObject[];
  containerLogs: ContainerLogs[];
  nodeLogs: NodeLogs[];
  faults?: Partial<Faults>;
}
