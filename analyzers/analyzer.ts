import type { Evidence } from './evidence.js';
import type { Finding } from './types.js';

/**
 * One analyzer: a pure function of the evidence, synchronous and
 * deterministic, so `analyze` runs offline on a saved dump and tests need no
 * cluster.
 */
export interface Analyzer {
  /** kebab-case; also the id of the findings it makes, unless it reports catalog rules. */
  readonly id: string;
  analyze(evidence: Evidence): Finding[];
}
