import { formatBytes } from '../../collectors/manifest.js';
import { SEVERITIES, type Analysis, type Finding, type ObjectRef, type Sample } from '../types.js';

/** GitHub rejects comments over 65,536 characters; this leaves room for a wrapper. */
export const MAX_SUMMARY_CHARS = 60_000;
/** Kept for the sections after the findings, so gaps are never crowded out. */
const TAIL_RESERVE_CHARS = 8_000;
const MAX_SAMPLE_CHARS = 300;
const MAX_OBJECTS_SHOWN = 8;
const MAX_GAPS_SHOWN = 20;

/** How links to files of the dump are made, and what else the reader should know. */
export interface LinkOptions {
  /** Prefix for links to dump files (a GCS browse URL); relative paths when absent. */
  baseUrl?: string | undefined;
  /** Markdown lines shown under the verdict, e.g. where the dump is and how the test ended. */
  context?: readonly string[] | undefined;
}

/**
 * `summary.md`: a one-line verdict, the findings ranked with their evidence and
 * remedy, then what the dump is missing, in under MAX_SUMMARY_CHARS whatever
 * the dump's size, so it fits a PR comment or a CI summary page.
 */
export function renderMarkdown(analysis: Analysis, links: LinkOptions = {}): string {
  const head = [`## logdump: ${verdict(analysis)}`, '', ...(links.context?.length ? [...links.context, ''] : []), overview(analysis), ''];
  const tail = [...gapsSection(analysis, links), ...allowedSection(analysis), ...unreadableSection(analysis)];
  const budget = MAX_SUMMARY_CHARS - TAIL_RESERVE_CHARS - joined(head).length;
  const body: string[] = [];
  let used = 0;
  let shown = 0;
  for (const [index, finding] of analysis.findings.entries()) {
    const section = findingSection(index + 1, finding, links);
    const size = joined(section).length + 1;
    if (used + size > budget) break;
    body.push(...section);
    used += size;
    shown += 1;
  }
  if (shown < analysis.findings.length) {
    body.push(`_${analysis.findings.length - shown} more finding${analysis.findings.length - shown === 1 ? '' : 's'} in analysis/findings.json (this summary stays under ${MAX_SUMMARY_CHARS} characters)._`, '');
  }
  const text = joined([...head, ...body, ...tail]);
  return text.length <= MAX_SUMMARY_CHARS ? text : `${text.slice(0, MAX_SUMMARY_CHARS - 40)}\n\n_(summary cut at its size limit)_\n`;
}

/** The one line a person reads first. */
export function verdict(analysis: Analysis): string {
  const cause = analysis.findings.find((finding) => finding.rootCause);
  if (cause) return cause.title;
  const worst = analysis.findings[0];
  if (!worst || worst.severity === 'info') return 'no known problem found';
  return `${counts(analysis)}; most severe: ${worst.title}`;
}

function overview(analysis: Analysis): string {
  const gaps = analysis.gaps.length === 0 ? 'nothing missing from the dump' : `${analysis.gaps.length} item${analysis.gaps.length === 1 ? '' : 's'} could not be collected (see below)`;
  return `${counts(analysis) || 'No findings'} in ${analysis.stats.files} files (${formatBytes(analysis.stats.bytes)}, ${analysis.stats.lines} log lines) of \`${analysis.dump}\`; ${gaps}.`;
}

function counts(analysis: Analysis): string {
  return SEVERITIES.map((severity) => [severity, analysis.findings.filter((finding) => finding.severity === severity).length] as const)
    .filter(([, count]) => count > 0)
    .map(([severity, count]) => `${count} ${severity}${count === 1 || severity === 'info' ? '' : 's'}`)
    .join(', ');
}

function findingSection(number: number, finding: Finding, links: LinkOptions): string[] {
  const lines = [`### ${number}. ${finding.severity.toUpperCase()}${finding.rootCause ? ' (root cause)' : ''}: ${escapeInline(finding.title)}`, '', finding.explanation, ''];
  lines.push(`**What to do:** ${finding.remedy}${finding.docsUrl ? ` ([docs](${finding.docsUrl}))` : ''}`, '');
  const facts = [`**Seen:** ${finding.count} time${finding.count === 1 ? '' : 's'}${seenRange(finding)}`];
  if (finding.objects.length > 0) facts.push(`**Affected:** ${objectList(finding.objects)}`);
  if (finding.related && finding.related.length > 0) facts.push(`**Related:** ${finding.related.map((id) => `\`${id}\``).join(', ')}`);
  lines.push(facts.join(' · '), '');
  if (finding.samples.length > 0) {
    lines.push('**Evidence:**', '');
    for (const sample of finding.samples) lines.push(`- ${sampleLine(sample, links)}`);
    lines.push('');
  }
  return lines;
}

function seenRange(finding: Finding): string {
  if (!finding.firstSeen && !finding.lastSeen) return '';
  if (finding.firstSeen === finding.lastSeen || !finding.firstSeen || !finding.lastSeen) return `, at ${finding.lastSeen ?? finding.firstSeen}`;
  return `, ${finding.firstSeen} → ${finding.lastSeen}`;
}

function objectList(objects: ObjectRef[]): string {
  const shown = objects.slice(0, MAX_OBJECTS_SHOWN).map((object) => `\`${object.kind} ${object.namespace ? `${object.namespace}/` : ''}${object.name}\``);
  return objects.length > MAX_OBJECTS_SHOWN ? `${shown.join(', ')} and ${objects.length - MAX_OBJECTS_SHOWN} more` : shown.join(', ');
}

function sampleLine(sample: Sample, links: LinkOptions): string {
  const where = sample.line > 0 ? `${sample.path}:${sample.line}` : sample.path;
  const repeats = sample.repeats > 1 ? ` (×${sample.repeats})` : '';
  return `${fileLink(where, sample.path, links)}${repeats}: ${codeSpan(sample.text)}`;
}

function fileLink(label: string, path: string, links: LinkOptions): string {
  const target = links.baseUrl ? `${links.baseUrl.replace(/\/$/, '')}/${path}` : path;
  return `[\`${label}\`](${encodeURI(target)})`;
}

function gapsSection(analysis: Analysis, links: LinkOptions): string[] {
  if (analysis.gaps.length === 0) return [];
  const lines = ['### What the dump is missing', '', 'Do not read an absence of evidence here as an absence of the problem:', ''];
  for (const gap of analysis.gaps.slice(0, MAX_GAPS_SHOWN)) lines.push(`- ${fileLink(gap.path, gap.path, links)}: ${escapeInline(truncate(gap.error))}`);
  if (analysis.gaps.length > MAX_GAPS_SHOWN) lines.push(`- and ${analysis.gaps.length - MAX_GAPS_SHOWN} more in manifest.json`);
  lines.push('');
  return lines;
}

function allowedSection(analysis: Analysis): string[] {
  if (analysis.allowed.length === 0) return [];
  return ['### Allowed by rules files', '', ...analysis.allowed.slice(0, MAX_GAPS_SHOWN).map((entry) => `- \`${entry.rule}\` ×${entry.count}: ${escapeInline(entry.reason)}`), ''];
}

function unreadableSection(analysis: Analysis): string[] {
  if (analysis.unreadable.length === 0) return [];
  return ['### Files that could not be analyzed', '', ...analysis.unreadable.slice(0, MAX_GAPS_SHOWN).map((entry) => `- \`${escapeCode(entry.path)}\`: ${escapeInline(truncate(entry.error))}`), ''];
}

/** A sample as inline code: backticks and newlines cannot break out of it. */
function codeSpan(text: string): string {
  return `\`${escapeCode(truncate(text))}\``;
}

function escapeCode(text: string): string {
  return text.replace(/`/g, "'").replace(/[\r\n]+/g, ' ');
}

/** Plain text in markdown: no HTML, no accidental emphasis or links. */
function escapeInline(text: string): string {
  return text.replace(/[\\`*_[\]<>|]/g, (char) => `\\${char}`).replace(/[\r\n]+/g, ' ');
}

function truncate(text: string): string {
  return text.length > MAX_SAMPLE_CHARS ? `${text.slice(0, MAX_SAMPLE_CHARS)}…` : text;
}

function joined(lines: string[]): string {
  return `${lines.join('\n')}\n`;
}
