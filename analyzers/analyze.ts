import { crashLoopAnalyzer } from './crash-loop.js';
import type { Analyzer } from './analyzer.js';
import type { Evidence } from './evidence.js';
import { nodeNotReadyAnalyzer } from './node-not-ready.js';
import { pendingPodsAnalyzer } from './pending-pods.js';
import { signaturesAnalyzer } from './signatures.js';
import { statefulSetStallAnalyzer } from './statefulset-ordered-start-stall.js';
import { SEVERITIES, type Analysis, type Finding } from './types.js';
import { unclassifiedErrorsAnalyzer } from './unclassified-errors.js';

/** Every analyzer, read at a glance: correlating ones first, the catalog, then what nothing knows. */
export const ANALYZERS: readonly Analyzer[] = [
  statefulSetStallAnalyzer,
  crashLoopAnalyzer,
  pendingPodsAnalyzer,
  nodeNotReadyAnalyzer,
  signaturesAnalyzer,
  unclassifiedErrorsAnalyzer,
];

/** Runs every analyzer over the evidence and ranks what they found. */
export function analyzeEvidence(evidence: Evidence, toolVersion: string, analyzers: readonly Analyzer[] = ANALYZERS): Analysis {
  const findings = analyzers.flatMap((analyzer) => analyzer.analyze(evidence));
  return {
    schemaVersion: 1,
    tool: { name: 'kube-logdump', version: toolVersion },
    dump: evidence.dump,
    findings: rankFindings(findings),
    allowed: [...evidence.allowed.values()].sort((a, b) => b.count - a.count || a.rule.localeCompare(b.rule)),
    gaps: (evidence.manifest?.items ?? [])
      .filter((item) => item.error !== undefined)
      .map((item) => ({ path: item.path, error: `${item.bytes > 0 ? 'cut short: ' : ''}${item.error ?? ''}` })),
    unreadable: evidence.unreadable,
    stats: evidence.stats,
  };
}

/** Severity first, root causes before symptoms, then the weight of evidence; ties by id and title so output is stable. */
export function rankFindings(findings: Finding[]): Finding[] {
  const rank = (finding: Finding): number => SEVERITIES.indexOf(finding.severity);
  return [...findings].sort(
    (a, b) =>
      rank(a) - rank(b) ||
      Number(b.rootCause ?? false) - Number(a.rootCause ?? false) ||
      b.count - a.count ||
      a.id.localeCompare(b.id) ||
      a.title.localeCompare(b.title) ||
      JSON.stringify(a.key).localeCompare(JSON.stringify(b.key)),
  );
}
