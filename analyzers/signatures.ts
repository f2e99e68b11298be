import type { Analyzer } from './analyzer.js';
import type { SignatureGroup } from './evidence.js';
import type { Finding } from './types.js';

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
    objects: [...group.objects.values()],
    count: group.count,
    ...times(group.firstSeen, group.lastSeen),
    samples: [...group.samples.values()],
  };
}

/** RFC3339 first/last-seen fields, present only when known. */
export function times(first: number | undefined, last: number | undefined): Pick<Finding, 'firstSeen' | 'lastSeen'> {
  return {
    ...(first !== undefined ? { firstSeen: new Date(first).toISOString() } : {}),
    ...(last !== undefined ? { lastSeen: new Date(last).toISOString() } : {}),
  };
}
