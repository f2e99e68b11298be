/**
 * Log lines with the time each was written, served lazily. A generated log is
 * never held in memory: every line has the same length (LINE_BYTES) and a time
 * that is a linear function of its index, so a byte count gives the line count,
 * a time gives an index by binary search, and `tailLines`/`sinceTime` become
 * index ranges computed without reading a byte.
 */
import type { LogSource } from './types.js';
import { hashString, mix } from './prng.js';

/** Lines of one log, addressed by index. */
export interface LineStore {
  readonly count: number;
  /** Microseconds since the epoch at which line `index` was written (non-decreasing). */
  timeMicros(index: number): number;
  /** Line `index` without its newline. */
  line(index: number): string;
  /** Lines [from, to), each followed by "\n", as fresh buffers of about `chunkBytes`. */
  chunks(from: number, to: number, chunkBytes: number): Generator<Buffer>;
}

/** Who writes the generated lines: an application container or the kubelet. */
export type GeneratedFlavor = 'app' | 'kubelet';

/** Every generated line is this long, newline included (the last one may be shorter). */
export const LINE_BYTES = 128;

/** Generated lines are spread over the hour before the log's end. */
const GENERATED_WINDOW_MICROS = 3_600_000_000;

/** Literal lines without times are this far apart. */
const LITERAL_SPACING_MICROS = 1_000_000;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const MESSAGES: Record<GeneratedFlavor, string[]> = {
  app: [
    'I|server.go:118] "handled request" method="GET" path="/api/items" status=200',
    'I|worker.go:64] "processed batch" queue="default" items=32',
    'I|cache.go:211] "cache refreshed" entries=1024 durationMs=12',
    'W|client.go:87] "slow upstream response" upstream="db" durationMs=840',
    'I|health.go:40] "health check passed" component="storage"',
    'E|retry.go:52] "request failed, retrying" attempt=2 error="connection reset by peer"',
    'I|metrics.go:99] "flushed metrics" series=311',
    'I|server.go:131] "handled request" method="POST" path="/api/items" status=201',
  ],
  kubelet: [
    'I|kubelet.go:2440] "SyncLoop (PLEG): event for pod" event="ContainerStarted"',
    'I|prober.go:107] "Probe succeeded" probeType="Readiness" containerName="app"',
    'I|kubelet_node_status.go:76] "Successfully registered node"',
    'I|reconciler.go:357] "operationExecutor.VerifyControllerAttachedVolume started"',
    'W|container_manager_linux.go:850] "CPUAccounting not enabled for process" pid=1353',
    'I|kuberuntime_manager.go:1029] "computePodActions got for pod"',
    'E|pod_workers.go:1298] "Error syncing pod, skipping" err="failed to \\"StartContainer\\""',
    'I|eviction_manager.go:366] "Eviction manager: attempting to reclaim" resourceName="ephemeral-storage"',
  ],
};

/** `2017-02-10T19:12:45.046912Z`: Go's RFC3339Nano, trailing zeros of the fraction trimmed. */
export function formatRfc3339Nano(micros: number): string {
  const seconds = Math.floor(micros / 1_000_000);
  const fraction = micros - seconds * 1_000_000;
  const base = new Date(seconds * 1000).toISOString().slice(0, 19);
  if (fraction === 0) return `${base}Z`;
  return `${base}.${String(fraction).padStart(6, '0').replace(/0+$/, '')}Z`;
}

/** `Feb 10 19:12:45.046912`: journalctl `--output=short-precise --utc`. */
export function formatJournalTime(micros: number): string {
  const seconds = Math.floor(micros / 1_000_000);
  const date = new Date(seconds * 1000);
  const day = String(date.getUTCDate()).padStart(2, '0');
  const clock = date.toISOString().slice(11, 19);
  return `${MONTHS[date.getUTCMonth()]} ${day} ${clock}.${String(micros - seconds * 1_000_000).padStart(6, '0')}`;
}

/** `0210 19:12:45.046912`: the time in a klog header, after the level letter. */
export function formatKlogTime(micros: number): string {
  const iso = formatRfc3339Nano(Math.floor(micros / 1_000_000) * 1_000_000);
  const fraction = String(micros % 1_000_000).padStart(6, '0');
  return `${iso.slice(5, 7)}${iso.slice(8, 10)} ${iso.slice(11, 19)}.${fraction}`;
}

/** Parses an RFC3339 time to microseconds, or undefined when it is not one. */
export function parseRfc3339Micros(text: string): number | undefined {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.exec(text);
  if (!match) return undefined;
  const millis = Date.parse(`${match[1]}${match[3]}`);
  if (Number.isNaN(millis)) return undefined;
  const fraction = (match[2] ?? '.').slice(1).padEnd(6, '0').slice(0, 6);
  return millis * 1000 + Number(fraction);
}

/** The first index whose time is >= `micros` (count when none). */
export function firstIndexAtOrAfter(store: LineStore, micros: number): number {
  let low = 0;
  let high = store.count;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (store.timeMicros(middle) < micros) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The first index whose time is > `micros` (so [0, result) is "until micros"). */
export function firstIndexAfter(store: LineStore, micros: number): number {
  let low = 0;
  let high = store.count;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (store.timeMicros(middle) <= micros) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Lines given in the scenario, kept as they are. */
class LiteralLines implements LineStore {
  readonly count: number;
  private readonly times: number[];

  constructor(
    private readonly lines: string[],
    times: string[] | undefined,
    endMicros: number,
  ) {
    this.count = lines.length;
    this.times = lines.map((_, index) => {
      const given = times?.[index];
      const parsed = given === undefined ? undefined : parseRfc3339Micros(given);
      return parsed ?? endMicros - (lines.length - 1 - index) * LITERAL_SPACING_MICROS;
    });
  }

  timeMicros(index: number): number {
    return this.times[index] ?? 0;
  }

  line(index: number): string {
    return this.lines[index] ?? '';
  }

  *chunks(from: number, to: number, chunkBytes: number): Generator<Buffer> {
    let pending = '';
    for (let index = from; index < to; index++) {
      pending += `${this.lines[index] ?? ''}\n`;
      if (pending.length >= chunkBytes) {
        yield Buffer.from(pending);
        pending = '';
      }
    }
    if (pending) yield Buffer.from(pending);
  }
}

/** One template per message: the full line with blanks where the time and index go. */
interface LineTemplate {
  bytes: Buffer;
  indexOffset: number;
}

const TIME_OFFSET = 1; // after the klog level letter
const TIME_LENGTH = 20; // "MMDD HH:MM:SS.uuuuuu"
const INDEX_DIGITS = 10;

function buildTemplates(flavor: GeneratedFlavor, seed: string, pid: number): LineTemplate[] {
  const filler = `seed=${seed} `.repeat(LINE_BYTES).replace(/[^\x20-\x7e]/g, '_');
  return MESSAGES[flavor].map((message) => {
    const [level, text] = message.split('|') as [string, string];
    const prefix = `${level}${' '.repeat(TIME_LENGTH)} ${String(pid).padStart(7, ' ')} `;
    // The index digits and at least one filler byte must fit before the newline.
    const room = LINE_BYTES - 1 - prefix.length - ' line='.length - INDEX_DIGITS - 1;
    const head = `${prefix}${text.slice(0, room)} line=`;
    const indexOffset = head.length;
    const body = `${head}${'0'.repeat(INDEX_DIGITS)} ${filler}`.slice(0, LINE_BYTES - 1);
    return { bytes: Buffer.from(`${body}\n`, 'latin1'), indexOffset };
  });
}

function writeDigits(target: Buffer, offset: number, value: number, width: number): void {
  let rest = value;
  for (let position = offset + width - 1; position >= offset; position--) {
    target[position] = 48 + (rest % 10);
    rest = Math.floor(rest / 10);
  }
}

/** A log of `bytes` bytes of deterministic klog-style lines, rendered on demand. */
class GeneratedLines implements LineStore {
  readonly count: number;
  private readonly lastLength: number;
  private readonly stepMicros: number;
  private readonly startMicros: number;
  private readonly templates: LineTemplate[];
  private readonly seedHash: number;
  private cachedDay = Number.NaN;
  private readonly cachedDate = Buffer.alloc(4);
  private readonly scratch = Buffer.alloc(LINE_BYTES);

  constructor(bytes: number, seed: string, endMicros: number, flavor: GeneratedFlavor, pid: number) {
    this.count = Math.ceil(Math.max(0, bytes) / LINE_BYTES);
    this.lastLength = bytes - (this.count - 1) * LINE_BYTES;
    this.stepMicros = Math.max(1, Math.floor(GENERATED_WINDOW_MICROS / Math.max(1, this.count)));
    this.startMicros = endMicros - Math.max(0, this.count - 1) * this.stepMicros;
    this.templates = buildTemplates(flavor, seed, pid);
    this.seedHash = hashString(seed);
  }

  timeMicros(index: number): number {
    return this.startMicros + index * this.stepMicros;
  }

  line(index: number): string {
    const length = this.render(index, this.scratch, 0);
    return this.scratch.toString('latin1', 0, length - 1);
  }

  *chunks(from: number, to: number, chunkBytes: number): Generator<Buffer> {
    const linesPerChunk = Math.max(1, Math.floor(chunkBytes / LINE_BYTES));
    for (let first = from; first < to; first += linesPerChunk) {
      const last = Math.min(to, first + linesPerChunk);
      const chunk = Buffer.allocUnsafe((last - first) * LINE_BYTES);
      let offset = 0;
      for (let index = first; index < last; index++) offset += this.render(index, chunk, offset);
      yield offset === chunk.length ? chunk : chunk.subarray(0, offset);
    }
  }

  /** Writes line `index` with its newline at `offset`; returns its length. */
  private render(index: number, target: Buffer, offset: number): number {
    const template = this.templates[mix(this.seedHash, index) % this.templates.length] as LineTemplate;
    const isLast = index === this.count - 1 && this.lastLength < LINE_BYTES;
    const destination = isLast ? this.scratch : target;
    const at = isLast ? 0 : offset;
    template.bytes.copy(destination, at);
    this.writeTime(destination, at + TIME_OFFSET, this.timeMicros(index));
    writeDigits(destination, at + template.indexOffset, index, INDEX_DIGITS);
    if (!isLast) return LINE_BYTES;
    // The last line is cut to make the byte count exact; it keeps its newline.
    this.scratch[this.lastLength - 1] = 10;
    if (target !== this.scratch) this.scratch.copy(target, offset, 0, this.lastLength);
    return this.lastLength;
  }

  /**
   * `MMDD HH:MM:SS.uuuuuu` with arithmetic only: lines a second apart would
   * otherwise cost a Date and a string per line, which dominated the benchmark.
   * Only the date part (MMDD) needs a calendar, once per day.
   */
  private writeTime(target: Buffer, offset: number, micros: number): void {
    const second = Math.floor(micros / 1_000_000);
    const day = Math.floor(second / 86_400);
    if (day !== this.cachedDay) {
      this.cachedDay = day;
      this.cachedDate.write(formatKlogTime(day * 86_400_000_000).slice(0, 4), 'latin1');
    }
    this.cachedDate.copy(target, offset);
    const secondOfDay = second - day * 86_400;
    target[offset + 4] = 32; // ' '
    writeDigits(target, offset + 5, Math.floor(secondOfDay / 3600), 2);
    target[offset + 7] = 58; // ':'
    writeDigits(target, offset + 8, Math.floor((secondOfDay % 3600) / 60), 2);
    target[offset + 10] = 58;
    writeDigits(target, offset + 11, secondOfDay % 60, 2);
    target[offset + 13] = 46; // '.'
    writeDigits(target, offset + 14, micros - second * 1_000_000, 6);
  }
}

/** Options for the lines a generated source produces. */
export interface StoreOptions {
  /** When the log ends: the last line is written at this time. */
  endMicros: number;
  flavor: GeneratedFlavor;
  /** The pid in klog headers (1 in a container, the daemon's pid on a node). */
  pid: number;
}

/** The line store of one log source. */
export function createLineStore(source: LogSource, options: StoreOptions): LineStore {
  if ('lines' in source) return new LiteralLines(source.lines, source.times, options.endMicros);
  const { bytes, seed } = source.generated;
  return new GeneratedLines(bytes, seed, options.endMicros, options.flavor, options.pid);
}
