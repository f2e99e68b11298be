import type { Analyzer } from './analyzer.js';
import { objectKey, type SignatureGroup } from './evidence.js';
import type { Finding, ObjectRef, Sample } from './types.js';

/**
 * The catalog's findings: one per rule and grouping key, with the objects it
 * touched, how often and when, and a few distinct sample lines.
 */
export const signaturesAnalyzer: Analyzer = {
  id: 'signatures',
  analyze(evidence) {
    return evidence.signatures.map(toFinding);
  },
};

function toFinding(group: SignatureGroup): Finding {
  const { rule } = group;
  const detail = Object.entries(group.key)
    .filter(([name, value]) => name !== 'object' && value !== '')
    .map(([name, value]) => `${name} ${value}`)
    .join(', ');
  return {
    id: rule.id,
    severity: rule.severity,
    title: detail ? `${rule.title} (${detail})` : rule.title,
    explanation: rule.explanation,
    remedy: rule.remedy,
    ...(rule.docsUrl ? { docsUrl: rule.docsUrl } : {}),
    key: group.key,
    objects: sortedObjects(group.objects.values()),
    count: group.count,
    ...times(group.firstSeen, group.lastSeen),
    samples: sortedSamples(group.samples.values()),
  };
}

/** RFC3339 first/last-seen fields, present only when known. */
export function times(first: number | undefined, last: number | undefined): Pick<Finding, 'firstSeen' | 'lastSeen'> {
  return {
    ...(first !== undefined ? { firstSeen: new Date(first).toISOString() } : {}),
    ...(last !== undefined ? { lastSeen: new Date(last).toISOString() } : {}),
  };
}

/** Objects in a stable order: the dump's file order must not show in the output. */
export function sortedObjects(objects: Iterable<ObjectRef>): ObjectRef[] {
  return [...objects].sort((a, b) => (objectKey(a) < objectKey(b) ? -1 : objectKey(a) > objectKey(b) ? 1 : 0));
}

/** Samples by file, then line. */
export function sortedSamples(samples: Iterable<Sample>): Sample[] {
  return [...samples].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
}
