import type { Analyzer } from './analyzer.js';
import type { Evidence } from './evidence.js';
import { asPod, podName, type ContainerStatusShape } from './pod-facts.js';
import type { Finding, Sample } from './types.js';

export const CRASH_LOOP_ID = 'container-crash-loop';

/**
 * Containers that keep dying: restarted at least once and now in
 * CrashLoopBackOff, or whose last instance ended with a non-zero exit. The
 * evidence is what a person looks for first: the exit code and reason, and the
 * last lines the previous instance wrote before it died.
 */
export const crashLoopAnalyzer: Analyzer = {
  id: CRASH_LOOP_ID,
  analyze(evidence) {
    return evidence.pods.flatMap((object) => {
      const pod = asPod(object);
      const { namespace, name } = podName(pod);
      const statuses = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
      return statuses.filter(isCrashing).map((status) => toFinding(namespace, name, status, evidence));
    });
  },
};

function isCrashing(status: ContainerStatusShape): boolean {
  const restarts = status.restartCount ?? 0;
  const waiting = status.state?.waiting?.reason;
  const lastExit = status.lastState?.terminated?.exitCode;
  return restarts > 0 && (waiting === 'CrashLoopBackOff' || (lastExit !== undefined && lastExit !== 0));
}

function toFinding(namespace: string, pod: string, status: ContainerStatusShape, evidence: Evidence): Finding {
  const last = status.lastState?.terminated;
  const exit = last ? `exit code ${last.exitCode ?? '?'}${last.reason ? ` (${last.reason})` : ''}` : 'no recorded exit';
  const oom = last?.reason === 'OOMKilled';
  const tail = evidence.previousTails.find((entry) => entry.namespace === namespace && entry.pod === pod && entry.container === status.name);
  const samples: Sample[] = (tail?.lines ?? []).map((line) => ({ path: tail?.path ?? '', line: line.number, text: line.text, repeats: 1 }));
  return {
    id: CRASH_LOOP_ID,
    severity: 'error',
    title: `Container ${namespace}/${pod}/${status.name} keeps crashing: ${status.restartCount ?? 0} restarts, last ${exit}`,
    explanation: oom
      ? 'The container was killed for using more memory than its limit, then restarted; the kubelet backs off longer after each crash.'
      : 'The container exits soon after it starts and the kubelet restarts it with a growing back-off (CrashLoopBackOff). The last lines of the previous instance usually say why.',
    remedy: oom
      ? `Raise resources.limits.memory of ${status.name} or find what grows; kubectl -n ${namespace} describe pod ${pod} shows the limit.`
      : `Read the previous instance's log (kubectl -n ${namespace} logs ${pod} -c ${status.name} --previous, or the file below) and fix what makes it exit.`,
    docsUrl: 'https://kubernetes.io/docs/tasks/debug/debug-application/debug-running-pod/#my-pod-is-crashing-or-otherwise-unhealthy',
    key: { container: `${namespace}/${pod}/${status.name}` },
    objects: [{ kind: 'Pod', namespace, name: pod }],
    count: status.restartCount ?? 1,
    ...(last?.finishedAt ? { lastSeen: last.finishedAt } : {}),
    samples,
  };
}
