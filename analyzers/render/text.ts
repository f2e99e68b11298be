import { verdict } from './markdown.js';
import type { Analysis } from '../types.js';

/** For a terminal: the verdict, then one block per finding with its best evidence. */
export function renderText(analysis: Analysis): string {
  const lines = [`verdict: ${verdict(analysis)}`, ''];
  for (const [index, finding] of analysis.findings.entries()) {
    lines.push(`${index + 1}. [${finding.severity}] ${finding.title} (${finding.count}x)`);
    lines.push(`   do: ${finding.remedy}`);
    for (const sample of finding.samples.slice(0, 2)) {
      lines.push(`   ${sample.path}${sample.line > 0 ? `:${sample.line}` : ''}: ${sample.text.slice(0, 200)}`);
    }
  }
  if (analysis.gaps.length > 0) lines.push('', `not collected: ${analysis.gaps.length} item(s), e.g. ${analysis.gaps[0]?.path} (${analysis.gaps[0]?.error})`);
  if (analysis.unreadable.length > 0) lines.push(`not analyzed: ${analysis.unreadable.map((entry) => entry.path).join(', ')}`);
  return `${lines.join('\n')}\n`;
}
