/**
 * What a kubelet answers under `/logs/` (reached as
 * `/api/v1/nodes/{node}/proxy/logs/...`), reproducing kubelet.go's logServer
 * and kubelet_server_journal.go:
 * - feature off: Go's http.FileServer over /var/log, so `?query=` is ignored
 *   and `/logs/` is the HTML `<pre>` directory listing;
 * - feature on: a NodeLogQuery (`query`, `sinceTime`, `untilTime`, `tailLines`,
 *   `pattern`, `boot`) runs journalctl with a 30 s deadline; when it passes,
 *   the output just stops (no error), which `nodeLogQueryCutMs` reproduces.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ClusterState } from './cluster.js';
import {
  createLineStore,
  firstIndexAfter,
  firstIndexAtOrAfter,
  formatJournalTime,
  parseRfc3339Micros,
  type LineStore,
} from './log-store.js';
import { hashString } from './prng.js';
import { chunkLines, goHttpError, type Reply } from './reply.js';
import type { LogSource, NodeLogs } from './types.js';

/** kubelet_server_journal.go maxTailLines. */
const MAX_TAIL_LINES = 100_000;
const MAX_SERVICES = 4;
const FILE_CHUNK_BYTES = 64 * 1024;
/** Small chunks, so a NodeLogQuery cut lands mid-output as journalctl's pipe would. */
const QUERY_CHUNK_BYTES = 16 * 1024;
/** Directories a node's /var/log also holds; listed, and served as empty listings. */
const LOG_DIRECTORIES = ['containers', 'journal', 'pods'];
const GO_NOT_FOUND = '404 page not found';

/** How the query-mode answer is paced; both come from the simulator's faults. */
export interface QueryPacing {
  cutMs: number;
  chunkDelayMs: number;
}

/** The parsed NodeLogQuery (newNodeLogQuery). */
interface NodeLogQuery {
  services: string[];
  files: string[];
  sinceMicros: number | undefined;
  untilMicros: number | undefined;
  tailLines: number | undefined;
  boot: number | undefined;
  pattern: string;
}

/** Aggregated field errors print bare when alone, in brackets when several (utilerrors.NewAggregate). */
function aggregate(errors: string[]): string {
  return errors.length === 1 ? (errors[0] as string) : `[${errors.join(', ')}]`;
}

/** Go's %#v of a []string, as field.Invalid prints a slice value. */
function goStringSlice(values: string[]): string {
  return `[]string{${values.map((value) => JSON.stringify(value)).join(', ')}}`;
}

function hasOptions(query: NodeLogQuery): boolean {
  return (
    query.sinceMicros !== undefined ||
    query.untilMicros !== undefined ||
    query.tailLines !== undefined ||
    query.boot !== undefined ||
    query.pattern !== ''
  );
}

/** newNodeLogQuery: undefined when no query parameter at all is present. */
function parseNodeLogQuery(params: URLSearchParams): { query?: NodeLogQuery; errors: string[] } {
  const errors: string[] = [];
  const queries = params.getAll('query');
  const query: NodeLogQuery = { services: [], files: [], sinceMicros: undefined, untilMicros: undefined, tailLines: undefined, boot: undefined, pattern: '' };
  for (const value of queries) {
    // A / or \ marks a file; blank entries are dropped.
    if (/[/\\]/.test(value)) query.files.push(value);
    else if (value.trim() !== '') query.services.push(value);
  }
  if (params.has('query') && query.files.length === 0 && query.services.length === 0) {
    errors.push(`query: Invalid value: ${goStringSlice(queries)}: query cannot be empty`);
  }
  for (const field of ['sinceTime', 'untilTime'] as const) {
    const text = params.get(field);
    if (!text) continue;
    const micros = parseRfc3339Micros(text);
    if (micros === undefined) errors.push(`${field}: Invalid value: ${JSON.stringify(text)}: invalid time format`);
    // journalctl gets the time with second precision ("2006-1-2 15:4:5").
    else if (field === 'sinceTime') query.sinceMicros = Math.floor(micros / 1_000_000) * 1_000_000;
    else query.untilMicros = Math.floor(micros / 1_000_000) * 1_000_000;
  }
  for (const field of ['boot', 'tailLines'] as const) {
    const text = params.get(field);
    if (!text) continue;
    if (!/^[+-]?\d+$/.test(text)) {
      errors.push(`${field}: Invalid value: ${JSON.stringify(text)}: strconv.Atoi: parsing ${JSON.stringify(text)}: invalid syntax`);
    } else if (field === 'boot') query.boot = Number(text);
    else query.tailLines = Number(text);
  }
  query.pattern = params.get('pattern') ?? '';
  if (errors.length > 0) return { errors };
  const empty = query.services.length === 0 && query.files.length === 0 && !hasOptions(query);
  return empty ? { errors } : { query, errors };
}

/** nodeLogQuery.validate. */
function validateNodeLogQuery(query: NodeLogQuery): string[] {
  const errors: string[] = [];
  for (const service of query.services) {
    if (/[^a-zA-Z\-_0-9@]/.test(service)) errors.push(`query: Invalid value: ${JSON.stringify(service)}: input contains unsupported characters`);
  }
  if (query.services.length > MAX_SERVICES) errors.push(`query: Too many: ${query.services.length}: must have at most ${MAX_SERVICES} items`);
  if (query.files.length === 0 && query.services.length === 0) errors.push('query: Required value: cannot be empty with options');
  else if (query.files.length > 0 && query.services.length > 0) {
    errors.push(`query: Invalid value: "[${query.files.join(' ')}], [${query.services.join(' ')}]": cannot specify a file and service`);
  } else if (query.files.length > 1) errors.push(`query: Invalid value: ${goStringSlice(query.files)}: cannot specify more than one file`);
  else if (query.files.length === 1 && hasOptions(query)) {
    errors.push(`query: Invalid value: ${goStringSlice(query.files)}: cannot specify file with options`);
  }
  if (query.sinceMicros !== undefined && query.untilMicros !== undefined && query.sinceMicros > query.untilMicros) {
    errors.push('untilTime: Invalid value: must be after `sinceTime`');
  }
  if (query.boot !== undefined && query.boot > 0) errors.push(`boot: Invalid value: ${query.boot}: must be less than 1`);
  if (query.tailLines !== undefined && (query.tailLines < 0 || query.tailLines > MAX_TAIL_LINES)) {
    errors.push(`tailLines: Invalid value: ${query.tailLines}: must be between 0 and ${MAX_TAIL_LINES}, inclusive`);
  }
  try {
    compilePattern(query.pattern);
  } catch (error) {
    errors.push(`pattern: Invalid value: ${JSON.stringify(query.pattern)}: error parsing regexp: ${(error as Error).message}`);
  }
  return errors;
}

/** journalctl --grep is case-insensitive when the pattern has no upper-case letter (journalctl(1)). */
function compilePattern(pattern: string): RegExp | undefined {
  if (pattern === '') return undefined;
  return new RegExp(pattern, /[A-Z]/.test(pattern) ? '' : 'i');
}

/** The pid a klog header names (`E0210 19:12:45.046912    1353 event.go:259] ...`). */
function klogPid(line: string): number | undefined {
  const match = /^[IWEF]\d{4} \d{2}:\d{2}:\d{2}\.\d{6}\s+(\d+) /.exec(line);
  return match ? Number(match[1]) : undefined;
}

function defaultPid(node: string, stem: string): number {
  return 300 + (hashString(`${node}/${stem}`) % 30000);
}

function storeOf(state: ClusterState, logs: NodeLogs, stem: string): LineStore | undefined {
  const source: LogSource | undefined = logs.logs[stem];
  if (!source) return undefined;
  return createLineStore(source, { endMicros: state.nowMicros, flavor: 'kubelet', pid: defaultPid(logs.node, stem) });
}

/** One journal entry ready to print. */
interface JournalEntry {
  micros: number;
  text: string;
}

/** The entries of one unit inside [since, until], in time order. */
function* unitEntries(store: LineStore, node: string, unit: string, query: NodeLogQuery): Generator<JournalEntry> {
  const from = query.sinceMicros === undefined ? 0 : firstIndexAtOrAfter(store, query.sinceMicros);
  const to = query.untilMicros === undefined ? store.count : firstIndexAfter(store, query.untilMicros);
  const pattern = compilePattern(query.pattern);
  const fallbackPid = defaultPid(node, unit);
  // Without a pattern, tailLines is index arithmetic: nothing before the tail is read.
  const first = pattern || query.tailLines === undefined ? from : Math.max(from, to - query.tailLines);
  for (let index = first; index < to; index++) {
    const line = store.line(index);
    if (pattern && !pattern.test(line)) continue;
    const micros = store.timeMicros(index);
    yield { micros, text: `${formatJournalTime(micros)} ${node} ${unit}[${klogPid(line) ?? fallbackPid}]: ${line}` };
  }
}

/** Merges units by time, as journalctl interleaves several --unit, then keeps the last tailLines. */
function* journalLines(units: Generator<JournalEntry>[], tailLines: number | undefined): Generator<string> {
  const heads = units.map((unit) => unit.next());
  const merged = function* (): Generator<string> {
    for (;;) {
      let best = -1;
      heads.forEach((head, position) => {
        if (head.done) return;
        const current = heads[best];
        if (best === -1 || (current && !current.done && head.value.micros < current.value.micros)) best = position;
      });
      if (best === -1) return;
      const head = heads[best] as IteratorYieldResult<JournalEntry>;
      yield head.value.text;
      heads[best] = (units[best] as Generator<JournalEntry>).next();
    }
  };
  let count = 0;
  if (tailLines === undefined) {
    for (const line of merged()) {
      count++;
      yield line;
    }
  } else {
    // A ring of the last tailLines lines: the window may be far longer than the tail.
    const ring: string[] = new Array<string>(tailLines);
    let seen = 0;
    for (const line of merged()) {
      if (tailLines > 0) ring[seen % tailLines] = line;
      seen++;
    }
    count = Math.min(seen, tailLines);
    for (let offset = seen - count; offset < seen; offset++) yield ring[offset % tailLines] as string;
  }
  if (count === 0 && tailLines !== 0) yield '-- No entries --';
}

/**
 * Paces chunks and stops once `cutMs` has passed since the request began:
 * the kubelet's context deadline kills journalctl and the body just ends.
 */
async function* paced(chunks: Iterable<Buffer>, pacing: QueryPacing): AsyncGenerator<Buffer> {
  const deadline = Date.now() + pacing.cutMs;
  for (const chunk of chunks) {
    if (pacing.chunkDelayMs > 0) {
      const left = deadline - Date.now();
      await sleep(Math.max(0, Math.min(pacing.chunkDelayMs, left)));
    }
    if (Date.now() >= deadline) return;
    yield chunk;
  }
}

function journalUnitsOf(logs: NodeLogs): string[] {
  return logs.journalUnits ?? Object.keys(logs.logs);
}

/** Go's FileServer directory listing (net/http dirList). */
function directoryListing(names: string[]): Reply {
  const links = names.map((name) => `<a href="${encodeURI(name)}">${name.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</a>\n`);
  const body = `<!doctype html>\n<meta name="viewport" content="width=device-width">\n<pre>\n${links.join('')}</pre>\n`;
  return { type: 'text', status: 200, contentType: 'text/html; charset=utf-8', body };
}

/** http.FileServer(http.Dir("/var/log")) for one path under /logs/. */
function serveFile(state: ClusterState, logs: NodeLogs, path: string): Reply {
  const clean = path.replace(/^\/+/, '');
  if (clean === '') {
    const entries = [...Object.keys(logs.logs).map((stem) => `${stem}.log`), ...LOG_DIRECTORIES.map((dir) => `${dir}/`)];
    return directoryListing(entries.sort());
  }
  if (LOG_DIRECTORIES.some((dir) => clean === `${dir}/`)) return directoryListing([]);
  const stem = clean.endsWith('.log') ? clean.slice(0, -'.log'.length) : undefined;
  const store = stem === undefined ? undefined : storeOf(state, logs, stem);
  if (!store) return goHttpError(404, GO_NOT_FOUND);
  return { type: 'stream', status: 200, contentType: 'text/plain; charset=utf-8', chunks: store.chunks(0, store.count, FILE_CHUNK_BYTES) };
}

/** journalServer.ServeHTTP + nodeLogQuery.Copy for a validated service query. */
function serveJournal(state: ClusterState, logs: NodeLogs, query: NodeLogQuery, pacing: QueryPacing): Reply {
  const units = journalUnitsOf(logs);
  const native = query.services.filter((service) => units.includes(service) && logs.logs[service]);
  const fileLoggers = query.services.filter((service) => !native.includes(service));
  const body = function* (): Generator<Buffer> {
    if (query.boot !== undefined && query.boot < 0) {
      // One boot only: journalctl fails; its stderr is the response body, then an ExitError ends it quietly.
      yield Buffer.from(`Data from the specified boot (${query.boot}) is not available: No such boot ID in journal\n`);
      return;
    }
    if (native.length > 0) {
      const generators = native.map((unit) => unitEntries(storeOf(state, logs, unit) as LineStore, logs.node, unit, query));
      yield* chunkLines(journalLines(generators, query.tailLines), QUERY_CHUNK_BYTES);
    }
    if (fileLoggers.length > 0 && hasOptions(query)) {
      yield Buffer.from(`\noptions present and query resolved to log files for [${fileLoggers.join(' ')}]\ntry without specifying options\n`);
      return;
    }
    for (const service of fileLoggers) {
      // heuristicsCopyFileLogs: /var/log/{service}.log, or a "not found" line.
      const store = storeOf(state, logs, service);
      if (store) yield* store.chunks(0, store.count, QUERY_CHUNK_BYTES);
      else yield Buffer.from(`\nlog not found for ${service}\n`);
    }
  };
  return { type: 'stream', status: 200, contentType: 'text/plain;charset=UTF-8', chunks: paced(body(), pacing) };
}

/**
 * Serves `rest` (the path after `/proxy/`, e.g. `logs/kubelet.log`) of a node's
 * kubelet; `query` is the request's query string.
 */
export function serveNodeProxy(state: ClusterState, node: string, rest: string, params: URLSearchParams, pacing: QueryPacing): Reply {
  if (!rest.startsWith('logs/')) return goHttpError(404, GO_NOT_FOUND);
  const logs: NodeLogs = state.nodeLogs.get(node) ?? { node, nodeLogQuery: false, logs: {} };
  const path = rest.slice('logs/'.length);
  if (!logs.nodeLogQuery) return serveFile(state, logs, path);
  const parsed = parseNodeLogQuery(params);
  if (parsed.errors.length > 0) return goHttpError(400, aggregate(parsed.errors));
  const query = parsed.query;
  if (!query) return serveFile(state, logs, path);
  if (path !== '' && path !== '/') return goHttpError(406, 'path not allowed in query mode');
  const errors = validateNodeLogQuery(query);
  if (errors.length > 0) return goHttpError(406, aggregate(errors));
  if (query.services.length > 0) return serveJournal(state, logs, query, pacing);
  return serveFile(state, logs, (query.files[0] as string).replace(/\\/g, '/'));
}
