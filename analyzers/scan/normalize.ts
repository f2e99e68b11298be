/**
 * Turns a log line into its shape: what stays the same when the same error
 * happens again. Times, numbers, ids, addresses and generated name suffixes
 * become placeholders, so a thousand "connection refused" lines to different
 * pods cluster into one.
 */
/** Leading time prefixes: journald, RFC3339, and the klog header's date and pid (its level letter stays). */
const PREFIXES: [RegExp, string][] = [
  [/^[A-Z][a-z]{2} \d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)? \S+ [\w.-]+(?:\[\d+\])?: /, ''],
  [/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})\s+/, ''],
  [/^([IWEF])\d{4} \d{2}:\d{2}:\d{2}\.\d{6}\s+\d+ /, '$1 '],
];

/**
 * Everything else that varies, in one pass: at each position the first
 * alternative that matches wins, so the order is the priority (a time before
 * its numbers, a UUID before its hex, a ReplicaSet hash before a pod suffix).
 */
const VARYING = new RegExp(
  [
    String.raw`(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?)`,
    String.raw`(\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b)`,
    String.raw`(\b(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?\b|\[[0-9a-fA-F:]+\](?::\d+)?)`,
    String.raw`(\b0x[0-9a-fA-F]+\b|\b[0-9a-fA-F]{12,}\b)`,
    String.raw`\b([a-z][a-z0-9-]*?)-(?:[0-9a-f]{8,10}-[a-z0-9]{5}|[b-df-hj-np-tv-z2-9]{5})\b`,
    String.raw`(\d+(?:\.\d+)?(?:ms|µs|us|ns|s|m|h)\b)`,
    String.raw`(\d+)`,
  ].join('|'),
  'g',
);

function placeholder(match: string, time?: string, uid?: string, ip?: string, hex?: string, named?: string, duration?: string): string {
  if (time) return '<time>';
  if (uid) return '<uid>';
  if (ip) return '<ip>';
  if (hex) return '<hex>';
  if (named) return `${named}-<hash>`;
  if (duration) return '<duration>';
  return match === '' ? match : '<n>';
}

/** Shapes longer than this are cut: the start of a line tells its kind. */
const MAX_SHAPE_LENGTH = 300;

export function normalizeLine(text: string): string {
  let shape = text.length > 4 * MAX_SHAPE_LENGTH ? text.slice(0, 4 * MAX_SHAPE_LENGTH) : text;
  for (const [pattern, replacement] of PREFIXES) shape = shape.replace(pattern, replacement);
  // Repeats of one error differ mostly in their digits: lines equal without them share a shape,
  // which spares the full pass for nearly every line of a noisy log.
  const key = shape.replace(DIGITS, '');
  const known = SHAPE_CACHE.get(key);
  if (known !== undefined) return known;
  const normalized = shape.replace(VARYING, placeholder).trim().slice(0, MAX_SHAPE_LENGTH);
  if (SHAPE_CACHE.size >= MAX_CACHED_SHAPES) SHAPE_CACHE.clear();
  SHAPE_CACHE.set(key, normalized);
  return normalized;
}

const DIGITS = /\d+/g;
/** Bounded: a log of all-different lines must not grow it without end. */
const MAX_CACHED_SHAPES = 10_000;
const SHAPE_CACHE = new Map<string, string>();

/**
 * Error-level lines: klog E/F (bare or behind a journald prefix), logfmt and
 * JSON levels, and plain `error:`/`ERROR`/`panic:`. Global, for chunk scans.
 */
export const ERROR_LINE = /(?:^|\n|\]: )[EF]\d{4} \d{2}:|level=(?:error|fatal|panic)\b|"level":\s*"(?:error|fatal|panic)"|\berror: |\bERROR\b|\bpanic: /g;

/** A klog level letter (with or without a journald prefix) that says the line is not an error. */
const NON_ERROR_KLOG = /^(?:[A-Z][a-z]{2} \d{2} [\d:.]+ \S+ [\w.-]+(?:\[\d+\])?: )?[IWD]\d{4,6} /;
const NON_ERROR_FIELD = /\blevel=(?:info|warn|warning|debug|trace)\b|"level":\s*"(?:info|warn|warning|debug|trace)"/;

/** The same test for a single line; a line whose own level says otherwise (`rpc error: ...` in a warning) is not one. */
export function isErrorLine(text: string): boolean {
  ERROR_LINE.lastIndex = 0;
  if (!ERROR_LINE.test(text) || NON_ERROR_KLOG.test(text)) return false;
  return !(text.includes('level') && NON_ERROR_FIELD.test(text));
}
