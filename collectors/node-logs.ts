import { nodeLogPath } from '../archive/layout.js';
import { KubeRequestError, type KubeStream } from '../kube/client.js';
import { openStream } from '../kube/list.js';
import { guardedSource, recordCut } from './guarded-source.js';
import type { CollectContext, Collector, CollectUnit, ItemState, NodeSummary } from './types.js';

/** The kubelet's log is always collected; `--node-log` adds more. */
export const KUBELET = 'kubelet';

/** Without `--since`, node logs reach back at least this far. */
const DEFAULT_NODE_LOG_SPAN_MS = 24 * 60 * 60 * 1000;
/** How long before its Node object a node's kubelet may already be logging. */
const NODE_LOG_LEAD_MS = 60 * 60 * 1000;
/** Very old nodes get wider windows rather than hundreds of requests. */
const MAX_WINDOWS_PER_LOG = 24;
/** Lines written while we collect still count: the last window ends a little after "now". */
const END_MARGIN_MS = 60_000;
/** A window whose answer ended this close to the kubelet's limit was cut by it. */
const CUT_MARGIN = 0.95;
/** After a cut, windows shrink, but not below this. */
const MIN_WINDOW_MS = 60_000;
/** The head of an answer that is read to tell a log from the kubelet's in-band messages. */
const HEAD_BYTES = 512;

/** A time range of a node log query, [since, until). */
export interface LogWindow {
  since: Date;
  until: Date;
}

/**
 * Node logs through the API server's node proxy, so no SSH and no access to the
 * nodes is needed. NodeLogQuery (`/logs/?query=kubelet`) reads the journal, in
 * time windows because the kubelet ends a query after 30 s without an error.
 * The plain file (`/logs/kubelet.log`) is read instead when the node has no
 * NodeLogQuery or the log is a file rather than a journal unit.
 */
export const nodeLogsCollector: Collector = {
  name: 'node-logs',
  async collect(context) {
    const names = [KUBELET, ...context.options.extraNodeLogs.filter((name) => name !== KUBELET)];
    const units = context.inventory.nodes.flatMap((node) => names.map((name) => nodeLogUnit(context, node, name)));
    await Promise.all(units.map((unit) => context.run(unit)));
  },
};

/** What a NodeLogQuery answer turned out to be. */
type QueryAnswer =
  | { kind: 'journal'; head: Buffer; stream: KubeStream }
  | { kind: 'empty' }
  /** The kubelet has no NodeLogQuery: it ignored `?query=` and listed /var/log. */
  | { kind: 'no-query' }
  /** The log is a file, which the kubelet will not filter by time. */
  | { kind: 'file' }
  | { kind: 'not-found'; message: string };

function nodeLogUnit(context: CollectContext, node: NodeSummary, name: string): CollectUnit {
  const proxy = `/api/v1/nodes/${encodeURIComponent(node.name)}/proxy/logs/`;
  const stem = name.replace(/\.log$/, '');
  return {
    path: nodeLogPath(node.name, stem),
    source: 'node-log',
    async open(_signal, state) {
      const end = new Date(context.cluster.serverNow.getTime() + END_MARGIN_MS);
      const start = nodeLogStart(context, node);
      const width = initialWindowMs(start, end, context.options.nodeLogWindowMs);
      const first = { since: start, until: new Date(Math.min(start.getTime() + width, end.getTime())) };
      const startedAt = performance.now();
      const answer = await queryWindow(context, proxy, stem, first);
      if (answer.kind === 'not-found') {
        state.skipped = answer.message;
        return undefined;
      }
      if (answer.kind === 'journal' || answer.kind === 'empty') {
        return readJournal(context, { proxy, stem, end, width, state }, { window: first, answer, startedAt });
      }
      const file = `${stem}.log`;
      let body: KubeStream['body'];
      try {
        ({ body } = await openStream(context.kube, proxy + encodeURIComponent(file), {}, context.request, context.options.retry));
      } catch (error) {
        if (!(error instanceof KubeRequestError) || error.status !== 404) throw error;
        state.skipped = `the node has no log named ${stem} (neither a journal unit nor /var/log/${file})`;
        return undefined;
      }
      state.notes.push(answer.kind === 'no-query' ? `NodeLogQuery is not enabled on this node; read /var/log/${file}` : `${stem} is a file, not a journal unit; read /var/log/${file} whole`);
      return guardedSource(body, state, `reading ${proxy}${file}`);
    },
  };
}

/**
 * Where a node log starts: `--since`; else a day back, or earlier for a node
 * older than that. Not at the Node's creation: the kubelet logs before it
 * registers (often why it could not), and a node that registered again has a
 * younger Node object than its journal.
 */
function nodeLogStart(context: CollectContext, node: NodeSummary): Date {
  const now = context.cluster.serverNow.getTime();
  if (context.options.sinceSeconds !== undefined) return new Date(now - context.options.sinceSeconds * 1000);
  const dayBack = now - DEFAULT_NODE_LOG_SPAN_MS;
  const created = node.createdAt?.getTime();
  return new Date(created !== undefined ? Math.min(created - NODE_LOG_LEAD_MS, dayBack) : dayBack);
}

/** `windowMs`, widened so that a long-lived node costs at most MAX_WINDOWS_PER_LOG requests. */
export function initialWindowMs(start: Date, end: Date, windowMs: number): number {
  return Math.max(windowMs, Math.ceil((end.getTime() - start.getTime()) / MAX_WINDOWS_PER_LOG));
}

/**
 * Asks for one window and reads the head of the answer, because the kubelet
 * reports some outcomes in-band with status 200 (`log not found for X`,
 * `options present and query resolved to log files`, `-- No entries --`).
 */
async function queryWindow(context: CollectContext, proxy: string, stem: string, window: LogWindow): Promise<QueryAnswer> {
  const query = { query: stem, sinceTime: window.since.toISOString(), untilTime: window.until.toISOString() };
  let stream: KubeStream;
  try {
    stream = await openStream(context.kube, proxy, query, context.request, context.options.retry);
  } catch (error) {
    // Kubelets older than NodeLogQuery answer 404 (or reject the parameters with 400/406); the file may still be there.
    if (error instanceof KubeRequestError && (error.status === 400 || error.status === 404 || error.status === 406)) return { kind: 'no-query' };
    throw error;
  }
  if (stream.contentType.includes('text/html')) {
    stream.body.resume();
    return { kind: 'no-query' };
  }
  const head = await readHead(stream, HEAD_BYTES);
  return classifyHead(head, stream);
}

/** Sorts an answer by its first bytes; pure apart from draining the bodies it discards. */
function classifyHead(head: Buffer, stream: KubeStream): QueryAnswer {
  const text = head.toString('utf8').trimStart();
  const discard = (answer: QueryAnswer): QueryAnswer => {
    stream.body.resume();
    return answer;
  };
  if (text.startsWith('options present and query resolved to log files')) return discard({ kind: 'file' });
  const notFound = /^log not found for (.*)/.exec(text);
  if (notFound) return discard({ kind: 'not-found', message: `the node has no log named ${notFound[1]?.trim() ?? ''}` });
  if (text === '' || text.trim() === '-- No entries --') return discard({ kind: 'empty' });
  return { kind: 'journal', head, stream };
}

/** Reads at least `bytes` from the start of a body (or all of a shorter one), leaving the rest unread. */
async function readHead(stream: KubeStream, bytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream.body.iterator({ destroyOnReturn: false })) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    if (size >= bytes) break;
  }
  return Buffer.concat(chunks);
}

/** What reading the journal of one log needs to know. */
interface JournalPlan {
  proxy: string;
  stem: string;
  end: Date;
  width: number;
  state: ItemState;
}

/**
 * Streams the windows one after another into one file. A window that took as
 * long as the kubelet allows was cut by it (the body simply ends): the item is
 * marked truncated and the windows after it are halved, so they fit.
 */
async function* readJournal(
  context: CollectContext,
  plan: JournalPlan,
  first: { window: LogWindow; answer: QueryAnswer; startedAt: number },
): AsyncGenerator<Buffer> {
  const { state } = plan;
  const limitMs = context.options.nodeLogQueryLimitMs;
  let { window, answer, startedAt } = first;
  let width = plan.width;
  for (;;) {
    if (answer.kind === 'journal') {
      yield answer.head;
      yield* guardedSource(answer.stream.body, state, `reading ${plan.stem} of ${plan.proxy} from ${window.since.toISOString()}`);
    }
    if (performance.now() - startedAt >= limitMs * CUT_MARGIN) {
      state.truncated = true;
      state.notes.push(`the kubelet cut the query for ${window.since.toISOString()}..${window.until.toISOString()} at its ${limitMs} ms limit`);
      width = Math.max(MIN_WINDOW_MS, Math.floor(width / 2));
    }
    if (window.until >= plan.end) return;
    if (context.signal.aborted) {
      recordCut(state, context.signal.reason, `querying ${plan.stem} of ${plan.proxy} from ${window.until.toISOString()}`);
      return;
    }
    window = { since: window.until, until: new Date(Math.min(window.until.getTime() + width, plan.end.getTime())) };
    startedAt = performance.now();
    try {
      answer = await queryWindow(context, plan.proxy, plan.stem, window);
    } catch (error) {
      recordCut(state, error, `querying ${plan.stem} of ${plan.proxy} from ${window.since.toISOString()}`);
      return;
    }
    if (answer.kind !== 'journal' && answer.kind !== 'empty') {
      recordCut(state, new Error(`the kubelet answered a later window as ${answer.kind}`), `querying ${plan.stem} of ${plan.proxy} from ${window.since.toISOString()}`);
      return;
    }
  }
}
