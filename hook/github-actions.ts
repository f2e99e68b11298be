/**
 * GitHub Actions: the job summary page ($GITHUB_STEP_SUMMARY, a file each step
 * appends markdown to) and annotations (workflow commands on stdout, shown on
 * the run's page and on the pull request's checks).
 */
import type { Finding } from '../analyzers/types.js';

/** Annotations made from the top findings; GitHub shows at most 10 errors and 10 warnings per step. */
export const MAX_ANNOTATIONS = 5;

/** What a GitHub Actions step offers, or undefined outside one. */
export interface GitHubActions {
  /** The file this step's summary markdown is appended to; unset when summaries are disabled. */
  readonly stepSummary: string | undefined;
}

export function githubActionsFromEnv(env: NodeJS.ProcessEnv): GitHubActions | undefined {
  if (env['GITHUB_ACTIONS'] !== 'true') return undefined;
  return { stepSummary: env['GITHUB_STEP_SUMMARY'] || undefined };
}

/**
 * `::error title=...::message` lines for the most important findings (they
 * come ranked): critical and error findings as errors, warnings as warnings;
 * info is not worth a red mark on a pull request.
 */
export function annotationsFor(findings: readonly Finding[], limit = MAX_ANNOTATIONS): string[] {
  return findings
    .filter((finding) => finding.severity !== 'info')
    .slice(0, limit)
    .map((finding) => {
      const level = finding.severity === 'warning' ? 'warning' : 'error';
      const sample = finding.samples[0];
      const where = sample ? `\n${sample.path}${sample.line > 0 ? `:${sample.line}` : ''}: ${sample.text.slice(0, 300)}` : '';
      const message = `${finding.explanation}\nWhat to do: ${finding.remedy}\nSeen ${finding.count} time${finding.count === 1 ? '' : 's'}.${where}`;
      return `::${level} title=${escapeProperty(`logdump: ${finding.title}`)}::${escapeData(message)}`;
    });
}

/** A workflow command's message: these three would end or corrupt the command. */
export function escapeData(text: string): string {
  return text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

/** A workflow command's property value, where `:` and `,` are separators too. */
export function escapeProperty(text: string): string {
  return escapeData(text).replaceAll(':', '%3A').replaceAll(',', '%2C');
}
