/**
 * Turns a log line into its shape: what stays the same when the same error
 * happens again. Times, numbers, ids, addresses and generated name suffixes
 * become placeholders, so a thousand "connection refused" lines to different
 * pods cluster into one.
 */
const REPLACEMENTS: [RegExp, string][] = [
  // Leading time prefixes: journald, RFC3339, the klog header's date and pid.
  [/^[A-Z][a-z]{2} \d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)? \S+ [\w.-]+(?:\[\d+\])?: /, ''],
  [/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})\s+/, ''],
  [/^([IWEF])\d{4} \d{2}:\d{2}:\d{2}\.\d{6}\s+\d+ /, '$1 '],
  [/\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?/g, '<time>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uid>'],
  [/\b(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?\b/g, '<ip>'],
  [/\[[0-9a-f:]+\](?::\d+)?/gi, '<ip>'],
  [/\b0x[0-9a-f]+\b/gi, '<hex>'],
  [/\b[0-9a-f]{12,}\b/gi, '<hex>'],
  // ReplicaSet and pod suffixes: web-7d4b9c8f6d-x2k9p, cockroachdb-0 stays.
  [/\b([a-z][a-z0-9-]*?)-[0-9a-f]{8,10}-[a-z0-9]{5}\b/g, '$1-<hash>'],
  [/\b([a-z][a-z0-9-]*?)-[b-df-hj-np-tv-z2-9]{5}\b/g, '$1-<hash>'],
  [/\d+(?:\.\d+)?(?:ms|µs|us|ns|s|m|h)\b/g, '<duration>'],
  [/\d+/g, '<n>'],
];

/** Shapes longer than this are cut: the start of a line tells its kind. */
const MAX_SHAPE_LENGTH = 300;

export function normalizeLine(text: string): string {
  let shape = text.length > 4 * MAX_SHAPE_LENGTH ? text.slice(0, 4 * MAX_SHAPE_LENGTH) : text;
  for (const [pattern, replacement] of REPLACEMENTS) shape = shape.replace(pattern, replacement);
  return shape.trim().slice(0, MAX_SHAPE_LENGTH);
}

/**
 * Error-level lines: klog E/F (bare or behind a journald prefix), logfmt and
 * JSON levels, and plain `error:`/`ERROR`/`panic:`. Global, for chunk scans.
 */
export const ERROR_LINE = /(?:^|\n|\]: )[EF]\d{4} \d{2}:|level=(?:error|fatal|panic)\b|"level":\s*"(?:error|fatal|panic)"|\berror: |\bERROR\b|\bpanic: /g;

/** A level that says the line is not an error, whatever words it contains (`rpc error: ...` in a warning). */
const NON_ERROR_LEVEL = /^(?:[A-Z][a-z]{2} \d{2} [\d:.]+ \S+ [\w.-]+(?:\[\d+\])?: )?(?:[IWD]\d{4,6} |.*\blevel=(?:info|warn|warning|debug|trace)\b|.*"level":\s*"(?:info|warn|warning|debug|trace)")/;

/** The same test for a single line. */
export function isErrorLine(text: string): boolean {
  ERROR_LINE.lastIndex = 0;
  return ERROR_LINE.test(text) && !NON_ERROR_LEVEL.test(text);
}
