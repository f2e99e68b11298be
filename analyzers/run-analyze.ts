import { EXIT, UsageError, type ExitCode } from '../core/errors.js';
import { toolVersion } from '../core/version.js';
import { analyzeEvidence } from './analyze.js';
import { openDump } from './dump/open-dump.js';
import { renderJson } from './render/json.js';
import { renderMarkdown } from './render/markdown.js';
import { renderText } from './render/text.js';
import { loadRuleSet } from './rules/load-rules.js';
import { readEvidence } from './scan/read-evidence.js';
import { SignatureIndex } from './scan/signature-index.js';
import { SEVERITIES, type Analysis, type Severity } from './types.js';

/** Output formats of `logdump analyze`. */
export const FORMATS = ['md', 'json', 'text'] as const;
export type Format = (typeof FORMATS)[number];

/** `--fail-on` values: a severity, or never (the default: analysis informs, it does not gate). */
export const FAIL_ON = [...SEVERITIES, 'never'] as const;
export type FailOn = (typeof FAIL_ON)[number];

/** `logdump analyze`'s flags, as parsed. */
export interface AnalyzeFlags {
  dump: string;
  rules: string[];
  format: Format;
  failOn: FailOn;
  /** Prefix for links to the dump's files in the summary (a GCS browse URL). */
  linkBase?: string | undefined;
  /** For a gs:// dump: a GCS-compatible endpoint (a test server). */
  gcsEndpoint?: string | undefined;
}

/**
 * The `analyze` command: read the dump once, run the analyzers, print the
 * rendering on stdout. Exit 1 when a finding is at least as severe as
 * `--fail-on`; a dump that cannot be read at all is a usage error.
 */
export async function runAnalyze(flags: AnalyzeFlags): Promise<ExitCode> {
  const rules = await loadRuleSet(flags.rules);
  const dump = await openDump(flags.dump, { gcsEndpoint: flags.gcsEndpoint });
  const evidence = await readEvidence(dump, new SignatureIndex(rules.rules, rules.allow));
  if (evidence.stats.files === 0 && evidence.unreadable.length > 0) {
    throw new UsageError(`DUMP ${flags.dump} cannot be read: ${evidence.unreadable[0]?.error ?? 'no files'}`);
  }
  const analysis = analyzeEvidence(evidence, toolVersion());
  process.stdout.write(render(analysis, flags.format, flags.linkBase));
  for (const entry of analysis.unreadable) process.stderr.write(`logdump: not analyzed: ${entry.path}: ${entry.error}\n`);
  return failsGate(analysis, flags.failOn) ? EXIT.partial : EXIT.ok;
}

export function render(analysis: Analysis, format: Format, linkBase?: string): string {
  if (format === 'json') return renderJson(analysis);
  if (format === 'text') return renderText(analysis);
  return renderMarkdown(analysis, { baseUrl: linkBase });
}

/** Whether a finding is at least as severe as the gate. */
export function failsGate(analysis: Analysis, failOn: FailOn): boolean {
  if (failOn === 'never') return false;
  const threshold = SEVERITIES.indexOf(failOn as Severity);
  return analysis.findings.some((finding) => SEVERITIES.indexOf(finding.severity) <= threshold);
}
