import type { Manifest } from '../../collectors/manifest.js';
import { describeError } from '../../core/errors.js';
import { isSafeDumpPath, type DumpEntry, type DumpSource } from '../dump/open-dump.js';
import type { EventRecord, Evidence, PreviousTail, StoredObject } from '../evidence.js';
import type { LineSource, ObjectRef } from '../types.js';
import { LineScanner } from './line-scanner.js';
import { lineTime } from './line-time.js';
import type { SignatureIndex } from './signature-index.js';

/** JSON files larger than this are not parsed (a list that size is not from a test cluster). */
const MAX_JSON_BYTES = 256 * 1024 * 1024;
/** Lines kept from the end of a previous instance's log. */
const TAIL_LINES = 10;
/** Bytes of a previous log's end kept to find its last lines. */
const TAIL_BYTES = 16 * 1024;

/** What a path in the dump holds, by the archive layout (archive/layout.ts). */
type DumpFile =
  | { kind: 'manifest' }
  | { kind: 'list'; resource: string; namespace: string | undefined }
  | { kind: 'container-log'; namespace: string; pod: string; container: string; previous: boolean }
  | { kind: 'node-log'; node: string; name: string }
  | { kind: 'other' };

export function classifyPath(path: string): DumpFile {
  if (path === 'manifest.json') return { kind: 'manifest' };
  const cluster = /^cluster\/([^/]+)\.json$/.exec(path);
  if (cluster) return { kind: 'list', resource: cluster[1] ?? '', namespace: undefined };
  const list = /^namespaces\/([^/]+)\/([^/]+)\.json$/.exec(path);
  if (list) return { kind: 'list', resource: list[2] ?? '', namespace: list[1] };
  const log = /^namespaces\/([^/]+)\/pods\/([^/]+)\/([^/]+?)(\.previous)?\.log$/.exec(path);
  if (log) return { kind: 'container-log', namespace: log[1] ?? '', pod: log[2] ?? '', container: log[3] ?? '', previous: log[4] !== undefined };
  const node = /^nodes\/([^/]+)\/([^/]+)\.log$/.exec(path);
  if (node) return { kind: 'node-log', node: node[1] ?? '', name: node[2] ?? '' };
  return { kind: 'other' };
}

/** The lists analyzers read; the rest of the dump's lists are for people. */
const LISTS_READ = new Set(['pods', 'statefulsets', 'nodes', 'events', 'events.events.k8s.io']);

/** Takes one file's bytes as they come. */
export interface EntryConsumer {
  push(chunk: Buffer): void;
  /** The file ended; throws when it could not be understood (it is then recorded as unreadable). */
  end(): void;
}

/**
 * Gathers the evidence of a dump from its files, in whatever order they come:
 * objects and events whole (they are small), logs as a stream of candidate
 * lines matched against the rules. Push-based, so it serves both reading a
 * stored dump and `collect --analyze`, which analyzes entries as they are
 * written. A file that cannot be understood is recorded; the rest still counts.
 */
export class EvidenceBuilder {
  private readonly state = new EvidenceState();

  constructor(
    private readonly location: string,
    private readonly index: SignatureIndex,
  ) {}

  /** Starts a file; its consumer must be fed and ended before `finish`. */
  addEntry(path: string): EntryConsumer {
    this.state.stats.files += 1;
    const file = isSafeDumpPath(path) ? classifyPath(path) : undefined;
    if (file === undefined) {
      this.state.unreadable.push({ path, error: 'not a relative path inside the dump; ignored' });
      return this.counting(undefined);
    }
    if (file.kind === 'manifest') {
      return this.counting(wholeJson(MAX_JSON_BYTES, (value) => (this.state.manifest = value as Manifest)));
    }
    if (file.kind === 'list' && LISTS_READ.has(file.resource)) {
      return this.counting(listItems(path, (item, line) => this.state.addObject(file.resource, item, path, line)));
    }
    if (file.kind === 'container-log' || file.kind === 'node-log') return this.counting(this.logConsumer(path, file));
    return this.counting(undefined);
  }

  /** Records a file that failed while being read. */
  recordUnreadable(path: string, error: unknown): void {
    this.state.unreadable.push({ path, error: describeError(error) });
  }

  /** Matches the events (known only once every file was read) and returns the evidence. */
  finish(): Evidence {
    const { state, index } = this;
    const events = [...state.mergedEvents(), ...index.swallowedEvents];
    for (const event of events) {
      index.observe({
        source: 'event',
        text: `${event.type} ${event.reason}: ${event.message}`,
        path: event.path,
        line: event.line,
        object: event.object,
        time: event.lastSeen,
        firstTime: event.firstSeen,
        count: event.count,
      });
    }
    return {
      dump: this.location,
      collectedAt: state.collectedAt(),
      manifest: state.manifest,
      pods: state.pods,
      statefulSets: state.statefulSets,
      nodes: state.nodes,
      events,
      signatures: index.signatureGroups(),
      errorShapes: index.errorShapes(),
      previousTails: state.tails,
      allowed: index.allowed,
      unreadable: state.unreadable,
      stats: state.stats,
    };
  }

  private counting(inner: EntryConsumer | undefined): EntryConsumer {
    const { stats } = this.state;
    return {
      push(chunk) {
        stats.bytes += chunk.byteLength;
        inner?.push(chunk);
      },
      end() {
        inner?.end();
      },
    };
  }

  private logConsumer(path: string, file: Extract<DumpFile, { kind: 'container-log' | 'node-log' }>): EntryConsumer {
    const { state, index } = this;
    const source: LineSource = file.kind === 'container-log' ? 'container-log' : 'node-log';
    const object: ObjectRef = file.kind === 'container-log' ? { kind: 'Pod', namespace: file.namespace, name: file.pod } : { kind: 'Node', name: file.node };
    const collectedAt = state.collectedAt();
    const scanner = new LineScanner(index.candidateFilter(source), (line) => {
      index.observe({
        source,
        text: line.text,
        path,
        line: line.number,
        object,
        // Parsed only for lines that are recorded: most candidates are not.
        get time() {
          return lineTime(line.text, collectedAt);
        },
        count: 1,
      });
    });
    const tail = file.kind === 'container-log' && file.previous ? new TailKeeper() : undefined;
    return {
      push(chunk) {
        scanner.push(chunk);
        tail?.push(chunk);
      },
      end() {
        scanner.end();
        state.stats.lines += scanner.lineCount;
        if (tail && file.kind === 'container-log') {
          state.tails.push({ namespace: file.namespace, pod: file.pod, container: file.container, path, lines: tail.lastLines(TAIL_LINES, scanner.lineCount) });
        }
      },
    };
  }
}

/** Reads a stored dump file by file into the evidence. */
export async function readEvidence(dump: DumpSource, index: SignatureIndex): Promise<Evidence> {
  const builder = new EvidenceBuilder(dump.location, index);
  const entries = dump.entries();
  for (;;) {
    let next: IteratorResult<DumpEntry>;
    try {
      next = await entries.next();
    } catch (error) {
      // A truncated or corrupt archive: what was read before still counts.
      builder.recordUnreadable(dump.location, error);
      break;
    }
    if (next.done) break;
    const entry = next.value;
    const consumer = builder.addEntry(entry.path);
    try {
      for await (const chunk of entry.body) consumer.push(chunk as Buffer);
      consumer.end();
    } catch (error) {
      builder.recordUnreadable(entry.path, error);
      entry.body.destroy();
    }
  }
  return builder.finish();
}

/** What the pass accumulates. */
class EvidenceState {
  manifest: Manifest | undefined;
  readonly pods: StoredObject[] = [];
  readonly statefulSets: StoredObject[] = [];
  readonly nodes: StoredObject[] = [];
  private readonly coreEvents: EventRecord[] = [];
  private readonly coreUids = new Set<string>();
  private readonly newApiEvents: { uid: string | undefined; record: EventRecord }[] = [];
  readonly tails: PreviousTail[] = [];
  readonly unreadable: { path: string; error: string }[] = [];
  readonly stats = { files: 0, lines: 0, bytes: 0 };
  /** The newest RFC3339 time seen in objects, for when the manifest comes last. */
  private newestObjectTime: number | undefined;

  /**
   * Log lines carry no year; it comes from when the dump was collected. The
   * manifest is the last file of an archive, so until it is read the newest
   * object time stands in (the inventory lists come first).
   */
  collectedAt(): Date {
    const fromManifest = this.manifest?.startedAt ? Date.parse(this.manifest.startedAt) : Number.NaN;
    if (!Number.isNaN(fromManifest)) return new Date(fromManifest);
    return new Date(this.newestObjectTime ?? Date.now());
  }

  addObject(resource: string, item: StoredObject, path: string, line: number): void {
    const created = Date.parse(String(item.metadata?.['creationTimestamp'] ?? ''));
    if (!Number.isNaN(created) && (this.newestObjectTime === undefined || created > this.newestObjectTime)) this.newestObjectTime = created;
    if (resource === 'pods') this.pods.push(item);
    else if (resource === 'statefulsets') this.statefulSets.push(item);
    else if (resource === 'nodes') this.nodes.push(item);
    else if (resource === 'events') this.addCoreEvent(item, path, line);
    else if (resource === 'events.events.k8s.io') this.newApiEvents.push({ uid: item.metadata?.uid, record: eventsApiRecord(item, path, line) });
  }

  private addCoreEvent(item: StoredObject, path: string, line: number): void {
    if (item.metadata?.uid) this.coreUids.add(item.metadata.uid);
    this.coreEvents.push(coreEventRecord(item, path, line));
  }

  /** Both APIs serve the same events; an events.k8s.io one counts only when core/v1 lacks it. */
  mergedEvents(): EventRecord[] {
    return [...this.coreEvents, ...this.newApiEvents.filter(({ uid }) => uid === undefined || !this.coreUids.has(uid)).map(({ record }) => record)];
  }
}

/** Keeps the last TAIL_BYTES of a stream. */
class TailKeeper {
  private kept = Buffer.alloc(0);

  push(chunk: Buffer): void {
    const joined = Buffer.concat([this.kept, chunk.subarray(Math.max(0, chunk.byteLength - TAIL_BYTES))]);
    this.kept = Buffer.from(joined.subarray(Math.max(0, joined.byteLength - TAIL_BYTES)));
  }

  /** The last `count` complete lines, numbered from the file's line count. */
  lastLines(count: number, totalLines: number): { number: number; text: string }[] {
    const lines = this.kept.toString('utf8').replace(/\n$/, '').split('\n');
    // The first piece may be a line cut by the byte window.
    const whole = this.kept.byteLength >= TAIL_BYTES ? lines.slice(1) : lines;
    const last = whole.slice(-count);
    return last.map((text, position) => ({ number: totalLines - last.length + position + 1, text: text.replace(/\r$/, '') }));
  }
}

/**
 * A stored list. `collect` writes one object per line (a header line, then
 * `{...},` lines, then `]}`), which streams and gives each object its line
 * number; any other JSON list is parsed whole, up to MAX_JSON_BYTES.
 */
function listItems(path: string, onItem: (item: StoredObject, line: number) => void): EntryConsumer {
  let number = 0;
  let whole: EntryConsumer | undefined;
  const lines = new LineSplitter(MAX_JSON_BYTES, (line) => {
    number += 1;
    if (number === 1 && !COLLECT_LIST_HEADER.test(line)) {
      whole = wholeJson(MAX_JSON_BYTES, (value) => {
        for (const item of (value as { items?: StoredObject[] }).items ?? []) onItem(item, 1);
      });
    }
    if (whole) {
      whole.push(Buffer.from(`${line}\n`));
      return;
    }
    if (number === 1 || line === ']}' || line === '') return;
    onItem(JSON.parse(line.endsWith(',') ? line.slice(0, -1) : line) as StoredObject, number);
  });
  return {
    push: (chunk) => lines.push(chunk),
    end() {
      lines.end();
      whole?.end();
      if (number === 0) throw new Error(`${path} is empty`);
    },
  };
}

const COLLECT_LIST_HEADER = /^\{"kind":"[^"]*","apiVersion":"[^"]*","metadata":\{.*\},"items":\[$/;

/** Splits a stream into lines (without their newline); a line longer than `maxBytes` is an error. */
class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly onLine: (line: string) => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      this.pending.push(chunk.subarray(start, newline));
      this.emit();
      start = newline + 1;
    }
    if (start < chunk.byteLength) {
      this.pendingBytes += chunk.byteLength - start;
      if (this.pendingBytes > this.maxBytes) throw new Error(`a line longer than ${this.maxBytes} bytes`);
      this.pending.push(Buffer.from(chunk.subarray(start)));
    }
  }

  end(): void {
    if (this.pending.length > 0) this.emit();
  }

  private emit(): void {
    const line = Buffer.concat(this.pending).toString('utf8').replace(/\r$/, '');
    this.pending = [];
    this.pendingBytes = 0;
    this.onLine(line);
  }
}

/** A whole JSON document, up to `maxBytes`, parsed when it ends. */
function wholeJson(maxBytes: number, onValue: (value: unknown) => void): EntryConsumer {
  const chunks: Buffer[] = [];
  let size = 0;
  return {
    push(chunk) {
      size += chunk.byteLength;
      if (size > maxBytes) throw new Error(`larger than the ${maxBytes} bytes analyzed`);
      chunks.push(Buffer.from(chunk));
    },
    end() {
      onValue(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    },
  };
}

function coreEventRecord(item: StoredObject, path: string, line: number): EventRecord {
  const event = item as StoredObject & CoreEventShape;
  const involved = event.involvedObject ?? {};
  const last = time(event.lastTimestamp) ?? time(event.series?.lastObservedTime) ?? time(event.eventTime) ?? time(event.firstTimestamp);
  return {
    type: event.type ?? 'Normal',
    reason: event.reason ?? '',
    message: event.message ?? '',
    object: { kind: involved.kind ?? 'Unknown', namespace: involved.namespace, name: involved.name ?? '' },
    count: Math.max(1, event.count ?? event.series?.count ?? 1),
    firstSeen: time(event.firstTimestamp) ?? time(event.eventTime) ?? last,
    lastSeen: last,
    path,
    line,
    swallowed: false,
  };
}

function eventsApiRecord(item: StoredObject, path: string, line: number): EventRecord {
  const event = item as StoredObject & EventsApiShape;
  const regarding = event.regarding ?? {};
  const last = time(event.series?.lastObservedTime) ?? time(event.deprecatedLastTimestamp) ?? time(event.eventTime);
  return {
    type: event.type ?? 'Normal',
    reason: event.reason ?? '',
    message: event.note ?? '',
    object: { kind: regarding.kind ?? 'Unknown', namespace: regarding.namespace, name: regarding.name ?? '' },
    count: Math.max(1, event.series?.count ?? event.deprecatedCount ?? 1),
    firstSeen: time(event.deprecatedFirstTimestamp) ?? time(event.eventTime) ?? last,
    lastSeen: last,
    path,
    line,
    swallowed: false,
  };
}

interface ObjectReferenceShape {
  kind?: string;
  namespace?: string;
  name?: string;
}

interface CoreEventShape {
  type?: string;
  reason?: string;
  message?: string;
  involvedObject?: ObjectReferenceShape;
  count?: number;
  firstTimestamp?: string;
  lastTimestamp?: string;
  eventTime?: string;
  series?: { count?: number; lastObservedTime?: string };
}

interface EventsApiShape {
  type?: string;
  reason?: string;
  note?: string;
  regarding?: ObjectReferenceShape;
  deprecatedCount?: number;
  deprecatedFirstTimestamp?: string;
  deprecatedLastTimestamp?: string;
  eventTime?: string;
  series?: { count?: number; lastObservedTime?: string };
}

function time(value: string | null | undefined): number | undefined {
  if (!value) return undefined;
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? undefined : parsed;
}

