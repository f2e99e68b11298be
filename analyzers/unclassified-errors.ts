import type { Analyzer } from './analyzer.js';
import { sortedObjects, times } from './signatures.js';
import type { Finding } from './types.js';

export const UNCLASSIFIED_ID = 'unclassified-error';

/** The most frequent shapes reported; the rest are in findings.json's counts. */
const TOP_SHAPES = 5;

/**
 * Error-level lines no rule knows, clustered by shape (numbers, ids, IPs,
 * times and name hashes normalized away), most frequent first, so a new
 * failure mode shows up before anyone writes a rule for it.
 */
export const unclassifiedErrorsAnalyzer: Analyzer = {
  id: UNCLASSIFIED_ID,
  analyze(evidence) {
    return [...evidence.errorShapes]
      .sort((a, b) => b.count - a.count || a.shape.localeCompare(b.shape))
      .slice(0, TOP_SHAPES)
      .map((shape): Finding => ({
        id: UNCLASSIFIED_ID,
        severity: 'info',
        title: `Unclassified error, ${shape.count} time${shape.count === 1 ? '' : 's'}: ${shape.shape.slice(0, 120)}`,
        explanation: 'Error-level lines of one shape that no rule in the catalog recognizes. They may be noise or a new failure mode.',
        remedy: 'If it matters, add a rule for it to a rules file (logdump analyze --rules FILE) with an explanation and remedy; if it is expected, add an allow entry with a reason.',
        key: { shape: shape.shape },
        objects: sortedObjects(shape.objects.values()),
        count: shape.count,
        ...times(shape.firstSeen, shape.lastSeen),
        samples: shape.samples,
      }));
  },
};
