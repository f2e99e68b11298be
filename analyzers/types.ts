/**
 * The analyzers' data model. Findings are plain data: analyzers produce them,
 * renderers (markdown, JSON, text) only read them.
 */

/** How bad a finding is, most severe first. */
export const SEVERITIES = ['critical', 'error', 'warning', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Where a line of evidence came from. */
export type LineSource = 'container-log' | 'node-log' | 'event';

/** A Kubernetes object a finding is about. */
export interface ObjectRef {
  kind: string;
  namespace?: string;
  name: string;
}

/** One line of evidence, pointing into the dump. */
export interface Sample {
  /** Path inside the dump, e.g. `nodes/n1/kubelet.log`. */
  path: string;
  /** 1-based line number in that file. */
  line: number;
  text: string;
  /** How many times this exact line (after normalization) was seen. */
  repeats: number;
}

/** What an analyzer found. */
export interface Finding {
  /** The rule or analyzer id, e.g. `readiness-probe-http-status`. */
  id: string;
  severity: Severity;
  title: string;
  explanation: string;
  remedy: string;
  docsUrl?: string;
  /** Marks the finding that explains the others: a root cause, not a symptom. */
  rootCause?: boolean;
  /** Values of the grouping key, e.g. `{ status: '404' }`. */
  key: Record<string, string>;
  objects: ObjectRef[];
  /** Occurrences, counting event `count`s and repeated lines. */
  count: number;
  /** RFC3339 times of the first and last occurrence, when the evidence has times. */
  firstSeen?: string;
  lastSeen?: string;
  samples: Sample[];
  /** Ids of other findings this one explains or relies on. */
  related?: string[];
}

/** The result of analyzing one dump. */
export interface Analysis {
  schemaVersion: 1;
  tool: { name: 'kube-logdump'; version: string };
  /** Where the dump was read from. */
  dump: string;
  /** Findings ranked: severity, root causes first, then evidence count. */
  findings: Finding[];
  /** Hits a user's allow-list suppressed, by entry, so nobody wonders where they went. */
  allowed: { rule: string; reason: string; count: number }[];
  /** What the dump could not collect (from its manifest), so a silent absence is not trusted. */
  gaps: { path: string; error: string }[];
  /** Files that could not be read whole (corrupt, too long a line), with why. */
  unreadable: { path: string; error: string }[];
  stats: { files: number; lines: number; bytes: number };
}
