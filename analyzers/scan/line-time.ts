/**
 * When a log line was written, from its own prefix. Logs carry no year (klog:
 * `E0210 19:12:45.046912`, journald: `Feb 10 19:12:45.046912`), so the year
 * comes from the dump (when it was collected); a date after that moment
 * belongs to the year before, as around New Year.
 */

const MONTHS: Record<string, number> = { Jan: 0, Feb: 1, Mar: 2, Apr: 3, May: 4, Jun: 5, Jul: 6, Aug: 7, Sep: 8, Oct: 9, Nov: 10, Dec: 11 };

const RFC3339 = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2}))\s/;
const JOURNAL = /^([A-Z][a-z]{2}) (\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))? /;
const KLOG = /^[IWEF](\d{2})(\d{2}) (\d{2}):(\d{2}):(\d{2})\.(\d{6}) /;

/** Milliseconds since the epoch, or undefined when the line has no recognised time prefix. */
export function lineTime(text: string, collectedAt: Date): number | undefined {
  const rfc = RFC3339.exec(text);
  if (rfc) {
    const parsed = Date.parse(rfc[1] ?? '');
    return Number.isNaN(parsed) ? undefined : parsed;
  }
  const journal = JOURNAL.exec(text);
  if (journal) return withYear(collectedAt, MONTHS[journal[1] ?? ''], journal.slice(2, 7));
  const klog = KLOG.exec(text);
  if (klog) return withYear(collectedAt, Number(klog[1]) - 1, klog.slice(2, 7));
  return undefined;
}

function withYear(collectedAt: Date, month: number | undefined, [day, hour, minute, second, fraction]: (string | undefined)[]): number | undefined {
  if (month === undefined || month < 0 || month > 11) return undefined;
  const millis = Math.floor(Number((fraction ?? '0').padEnd(6, '0')) / 1000);
  const at = (year: number): number => Date.UTC(year, month, Number(day), Number(hour), Number(minute), Number(second), millis);
  const year = collectedAt.getUTCFullYear();
  const sameYear = at(year);
  if (Number.isNaN(sameYear)) return undefined;
  // A day's slack for clock skew between the nodes and the collector.
  return sameYear > collectedAt.getTime() + 86_400_000 ? at(year - 1) : sameYear;
}
