import { nodeLogPath } from '../archive/layout.js';
import { KubeRequestError, type KubeStream } from '../kube/client.js';
import { openStream } from '../kube/list.js';
import { guardedSource, recordCut } from './guarded-source.js';
import type { CollectContext, Collector, CollectUnit, ItemState, NodeSummary } from './types.js';

/** The kubelet's log is always collected; `--node-log` adds more. */
export const KUBELET = 'kubelet';

/** Without `--since` or a node creation time, node logs reach back this far. */
const DEFAULT_NODE_LOG_SPAN_MS = 24 * 60 * 60 * 1000;
/** Very old nodes get wider windows rather than thousands of requests. */
const MAX_WINDOWS_PER_LOG = 48;
/** A window whose answer ended this close to the kubelet's limit was cut by it. */
const CUT_MARGIN = 0.95;

/** A time range of a node log query, [since, until). */
export interface LogWindow {
  since: Date;
  until: Date;
}

/**
 * Node logs through the API server's node proxy, so no SSH and no access to the
 * nodes is needed. NodeLogQuery (`/logs/?query=kubelet`) reads the journal; a
 * kubelet without the feature gate serves its /var/log directory listing for
 * that URL, and then the plain file (`/logs/kubelet.log`) is read instead.
 */
export const nodeLogsCollector: Collector = {
  name: 'node-logs',
  async collect(context) {
    const names = [KUBELET, ...context.options.extraNodeLogs.filter((name) => name !== KUBELET)];
    const units = context.inventory.nodes.flatMap((node) => names.map((name) => nodeLogUnit(context, node, name)));
    await Promise.all(units.map((unit) => context.run(unit)));
  },
};

function nodeLogUnit(context: CollectContext, node: NodeSummary, name: string): CollectUnit {
  const proxy = `/api/v1/nodes/${encodeURIComponent(node.name)}/proxy/logs/`;
  return {
    path: nodeLogPath(node.name, name.replace(/\.log$/, '')),
    source: 'node-log',
    async open(_signal, state) {
      const windows = planWindows(nodeLogStart(context, node), new Date(context.cluster.serverNow.getTime() + 60_000), context.options.nodeLogWindowMs);
      const [first, ...rest] = windows;
      if (first) {
        const startedAt = performance.now();
        const opened = await openQueryWindow(context, proxy, name, first);
        if (opened && !isDirectoryListing(opened)) {
          return readWindows(context, proxy, name, { window: first, stream: opened, startedAt }, rest, state);
        }
        opened?.body.resume();
      }
      const file = name.includes('.') ? name : `${name}.log`;
      const { body } = await openStream(context.kube, proxy + encodeURIComponent(file), {}, context.request, context.options.retry);
      state.notes.push(`NodeLogQuery is not enabled on this node; read /var/log/${file}`);
      return guardedSource(body, state, `reading ${proxy}${file}`);
    },
  };
}

/** Where a node log starts: `--since`, else the node's creation, else a day back. */
function nodeLogStart(context: CollectContext, node: NodeSummary): Date {
  const now = context.cluster.serverNow.getTime();
  if (context.options.sinceSeconds !== undefined) return new Date(now - context.options.sinceSeconds * 1000);
  const created = node.createdAt?.getTime();
  return new Date(created !== undefined && created < now ? created : now - DEFAULT_NODE_LOG_SPAN_MS);
}

/**
 * Splits [start, end) into windows of `windowMs`, widened when there would be
 * more than MAX_WINDOWS_PER_LOG, so a long-lived node costs a bounded number
 * of requests.
 */
export function planWindows(start: Date, end: Date, windowMs: number): LogWindow[] {
  const span = end.getTime() - start.getTime();
  if (span <= 0) return [{ since: start, until: end }];
  const width = Math.max(windowMs, Math.ceil(span / MAX_WINDOWS_PER_LOG));
  const windows: LogWindow[] = [];
  for (let since = start.getTime(); since < end.getTime(); since += width) {
    windows.push({ since: new Date(since), until: new Date(Math.min(since + width, end.getTime())) });
  }
  return windows;
}

/** A window whose answer is being read, and when it was asked for. */
interface OpenWindow {
  window: LogWindow;
  stream: KubeStream;
  startedAt: number;
}

/** Opens one NodeLogQuery window; undefined when the node has no such query (404/400). */
async function openQueryWindow(context: CollectContext, proxy: string, name: string, window: LogWindow): Promise<KubeStream | undefined> {
  const query = { query: name, sinceTime: window.since.toISOString(), untilTime: window.until.toISOString() };
  try {
    return await openStream(context.kube, proxy, query, context.request, context.options.retry);
  } catch (error) {
    // Older kubelets and nodes without journald answer the query with 400/404; the plain file may still exist.
    if (error instanceof KubeRequestError && (error.status === 404 || error.status === 400)) return undefined;
    throw error;
  }
}

/** A kubelet without NodeLogQuery ignores `?query=` and lists /var/log as HTML. */
function isDirectoryListing(stream: KubeStream): boolean {
  return stream.contentType.includes('text/html');
}

/**
 * Streams the windows one after another into one file. A window that took as
 * long as the kubelet allows was cut by it (it ends the body without an error),
 * so the item is marked truncated and the next window goes on.
 */
async function* readWindows(
  context: CollectContext,
  proxy: string,
  name: string,
  first: OpenWindow,
  rest: LogWindow[],
  state: ItemState,
): AsyncGenerator<Buffer> {
  const limitMs = context.options.nodeLogQueryLimitMs;
  let current: OpenWindow | undefined = first;
  let index = 0;
  while (current) {
    yield* guardedSource(current.stream.body, state, `reading ${name} of ${proxy} from ${current.window.since.toISOString()}`);
    if (performance.now() - current.startedAt >= limitMs * CUT_MARGIN) {
      state.truncated = true;
      state.notes.push(`the kubelet cut the query for ${current.window.since.toISOString()}..${current.window.until.toISOString()} at its ${limitMs} ms limit`);
    }
    const next = rest[index++];
    if (!next || context.signal.aborted) break;
    const startedAt = performance.now();
    try {
      const stream = await openQueryWindow(context, proxy, name, next);
      current = stream ? { window: next, stream, startedAt } : undefined;
      if (!stream) recordCut(state, new Error('the kubelet refused the query'), `querying ${name} of ${proxy} from ${next.since.toISOString()}`);
    } catch (error) {
      recordCut(state, error, `querying ${name} of ${proxy} from ${next.since.toISOString()}`);
      current = undefined;
    }
  }
  if (context.signal.aborted && index < rest.length) state.truncated = true;
}
