import type { LineSource, Severity } from '../types.js';

/**
 * A known error signature, as data. The built-in catalog (builtin.ts) and a
 * user's `--rules FILE` (YAML) hold the same shape.
 *
 * What a pattern is matched against depends on the source:
 * - `container-log`, `node-log`: one line of the log, as written (klog header,
 *   journald prefix and all).
 * - `event`: one event rendered as `TYPE REASON: MESSAGE`, e.g.
 *   `Warning Unhealthy: Readiness probe failed: HTTP probe failed with statuscode: 404`,
 *   whichever API (core/v1 or events.k8s.io/v1) it was stored from.
 */
export interface Rule {
  /** kebab-case, unique across the catalog and user files. */
  id: string;
  title: string;
  severity: Severity;
  sources: LineSource[];
  /**
   * A JavaScript regular expression (no slashes, no flags; `(?i)` at the start
   * makes it case-insensitive). Named groups are captures; `namespace`, `pod`,
   * `kind`, `name` and `node` name the object a line is about when the file's
   * path does not.
   */
  pattern: string;
  /**
   * Captures whose values split hits into separate findings (e.g. `status` for
   * an HTTP status code); `object` splits by the object the line is about.
   * Without it, all hits of the rule make one finding listing every object.
   */
  groupBy?: string[];
  /** What it means, for a person who has not seen it before. */
  explanation: string;
  /** What to do about it. */
  remedy: string;
  docsUrl?: string;
  /**
   * The line reports an event the kubelet failed to send (`Will not report
   * event: 'Warning' 'Unhealthy' '...'`): the captures `eventType`,
   * `eventReason` and `eventMessage` (and `kind`, `namespace`, `name` of its
   * object) are analyzed again as if that event had been stored, so what it
   * swallowed still counts.
   */
  reemitsEvent?: boolean;
  /** Lines this rule must match and near misses it must not; the tests run them all. */
  examples: { match: string[]; noMatch: string[] };
}

/**
 * An allow-list entry: hits of `rule` (optionally only lines matching `match`,
 * or only in `namespace`) are expected, e.g. an e2e test that kills containers
 * on purpose, and are left out of the findings. A reason is required, so the
 * summary can say why they were dropped.
 */
export interface AllowEntry {
  rule: string;
  match?: string;
  namespace?: string;
  reason: string;
}

/** A user's rules file: `rules:` and `allow:` lists, both optional. */
export interface RuleFile {
  rules?: Rule[];
  allow?: AllowEntry[];
}
