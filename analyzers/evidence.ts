import type { Manifest } from '../collectors/manifest.js';
import type { Rule } from './rules/rule.js';
import type { ObjectRef, Sample } from './types.js';

/** A Kubernetes object as stored in the dump. */
export type StoredObject = Record<string, unknown> & {
  metadata?: { name?: string; namespace?: string; uid?: string; [key: string]: unknown };
};

/** One event, whichever API stored it, or one the kubelet failed to report. */
export interface EventRecord {
  type: string;
  reason: string;
  message: string;
  object: ObjectRef;
  /** Occurrences, from `count` / `series.count`. */
  count: number;
  firstSeen: number | undefined;
  lastSeen: number | undefined;
  /** Where it is in the dump. */
  path: string;
  line: number;
  /** Reconstructed from a kubelet line that says it could not report it. */
  swallowed: boolean;
}

/** All hits of one rule with one grouping key. */
export interface SignatureGroup {
  rule: Rule;
  key: Record<string, string>;
  count: number;
  firstSeen: number | undefined;
  lastSeen: number | undefined;
  objects: Map<string, ObjectRef>;
  /** Normalized text → sample, at most a few per group. */
  samples: Map<string, Sample>;
}

/** Error lines no rule knows, clustered by their shape. */
export interface ErrorShape {
  /** The line with numbers, ids, addresses and times replaced by placeholders. */
  shape: string;
  count: number;
  firstSeen: number | undefined;
  lastSeen: number | undefined;
  samples: Sample[];
  objects: Map<string, ObjectRef>;
}

/** The last lines of a container's previous instance: usually why it died. */
export interface PreviousTail {
  namespace: string;
  pod: string;
  container: string;
  path: string;
  lines: { number: number; text: string }[];
}

/** Everything the analyzers get: read once from the dump, no I/O after. */
export interface Evidence {
  /** Where the dump was read from. */
  dump: string;
  /** When the dump was collected (its manifest), else the newest time seen. */
  collectedAt: Date;
  manifest: Manifest | undefined;
  pods: StoredObject[];
  statefulSets: StoredObject[];
  nodes: StoredObject[];
  events: EventRecord[];
  signatures: SignatureGroup[];
  errorShapes: ErrorShape[];
  previousTails: PreviousTail[];
  allowed: Map<string, { rule: string; reason: string; count: number }>;
  unreadable: { path: string; error: string }[];
  stats: { files: number; lines: number; bytes: number };
}

/** `Pod/ns/name`: the key objects are deduplicated by; remembered, because every line of a log asks for it. */
export function objectKey(object: ObjectRef): string {
  let key = OBJECT_KEYS.get(object);
  if (key === undefined) {
    key = `${object.kind}/${object.namespace ?? ''}/${object.name}`;
    OBJECT_KEYS.set(object, key);
  }
  return key;
}

const OBJECT_KEYS = new WeakMap<ObjectRef, string>();
