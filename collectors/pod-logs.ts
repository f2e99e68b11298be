import { containerLogPath } from '../archive/layout.js';
import { KubeRequestError } from '../kube/client.js';
import { openStream } from '../kube/list.js';
import { guardedSource } from './guarded-source.js';
import type { CollectContext, Collector, CollectUnit, ContainerSummary, ItemState, PodSummary } from './types.js';

/**
 * Every container of every pod (init, regular and ephemeral): the current
 * instance's log, and the previous instance's when the container restarted,
 * because the previous one is usually the one that crashed.
 */
export const podLogsCollector: Collector = {
  name: 'pod-logs',
  async collect(context) {
    const units = context.inventory.pods.flatMap((pod) =>
      pod.containers.flatMap((container) => [
        podLogUnit(context, pod, container, false),
        ...(container.hasPrevious ? [podLogUnit(context, pod, container, true)] : []),
      ]),
    );
    await Promise.all(units.map((unit) => context.run(unit)));
  },
};

function podLogUnit(context: CollectContext, pod: PodSummary, container: ContainerSummary, previous: boolean): CollectUnit {
  const apiPath = `/api/v1/namespaces/${encodeURIComponent(pod.namespace)}/pods/${encodeURIComponent(pod.name)}/log`;
  const { sinceSeconds, maxLogBytes } = context.options;
  return {
    path: containerLogPath(pod.namespace, pod.name, container.name, previous),
    source: 'pod-log',
    async open(_signal, state) {
      const query = { container: container.name, previous, sinceSeconds, limitBytes: maxLogBytes };
      try {
        const { status, body } = await openStream(context.kube, apiPath, query, context.request, context.options.retry);
        if (status === 204) {
          // The API server answers 204 for a pod no node has taken yet: there is no log anywhere.
          body.resume();
          state.skipped = 'the pod is not scheduled to a node yet, so it has no log (HTTP 204)';
          return undefined;
        }
        return countAgainstCap(guardedSource(body, state, `reading ${apiPath}`), maxLogBytes, state);
      } catch (error) {
        const skipped = noLogReason(error);
        if (skipped === undefined) throw error;
        state.skipped = skipped;
        return undefined;
      }
    },
  };
}

/**
 * The API server answers 400 when there is no log to give: a container still
 * waiting to start, or no previous instance. That is a fact about the pod, not
 * a failure to collect, so it is recorded as skipped with the server's words.
 */
export function noLogReason(error: unknown): string | undefined {
  if (!(error instanceof KubeRequestError) || error.status !== 400) return undefined;
  const text = error.message;
  if (/is waiting to start|previous terminated container .* not found|has not started|ContainerCreating|PodInitializing/.test(text)) {
    return text.replace(/^GET \S+: HTTP 400: /, '');
  }
  return undefined;
}

/** `limitBytes` makes the server stop at the cap; reaching it means the log went on. */
async function* countAgainstCap(source: AsyncGenerator<Buffer>, cap: number | undefined, state: ItemState): AsyncGenerator<Buffer> {
  let bytes = 0;
  for await (const chunk of source) {
    bytes += chunk.length;
    yield chunk;
  }
  if (cap !== undefined && bytes >= cap) {
    state.truncated = true;
    state.notes.push(`capped at --max-log-bytes ${cap}`);
  }
}
