import type { Analyzer } from './analyzer.js';
import type { Evidence } from './evidence.js';
import { asPod, condition, podName } from './pod-facts.js';
import type { Finding, ObjectRef } from './types.js';

export const PENDING_ID = 'pods-pending-unschedulable';

/**
 * Pods the scheduler could not place, grouped by why: the scheduler's message
 * ("0/3 nodes are available: 1 node(s) had untolerated taint ..., 2 Insufficient
 * cpu") is split into its reasons and counted over all pending pods.
 */
export const pendingPodsAnalyzer: Analyzer = {
  id: PENDING_ID,
  analyze(evidence) {
    const pending: { object: ObjectRef; message: string }[] = [];
    for (const stored of evidence.pods) {
      const pod = asPod(stored);
      const scheduled = condition(pod, 'PodScheduled');
      if (pod.status?.phase !== 'Pending' || scheduled?.status !== 'False') continue;
      const { namespace, name } = podName(pod);
      pending.push({ object: { kind: 'Pod', namespace, name }, message: scheduled.message ?? latestSchedulingMessage(evidence, namespace, name) ?? 'no reason recorded' });
    }
    if (pending.length === 0) return [];
    const reasons = new Map<string, number>();
    for (const { message } of pending) {
      for (const reason of splitReasons(message)) reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    }
    const ranked = [...reasons].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    const finding: Finding = {
      id: PENDING_ID,
      severity: 'error',
      title: `${pending.length} pod${pending.length === 1 ? '' : 's'} could not be scheduled: ${ranked[0]?.[0] ?? 'unknown reason'}`,
      explanation: `The scheduler found no node for these pods. Reasons, with how many pending pods give each: ${ranked.map(([reason, count]) => `${reason} (${count})`).join('; ')}.`,
      remedy: 'Match the reason: free or add capacity for "Insufficient cpu/memory", add a toleration or remove the taint for "untolerated taint", fix nodeSelector/affinity for "didn\'t match", bind or provision the volume for "unbound PersistentVolumeClaims". kubectl describe pod shows the full message.',
      docsUrl: 'https://kubernetes.io/docs/concepts/scheduling-eviction/kube-scheduler/',
      key: {},
      objects: pending.map(({ object }) => object),
      count: pending.length,
      samples: pending.slice(0, 5).map(({ object, message }) => ({ path: `namespaces/${object.namespace}/pods.json`, line: 0, text: `${object.namespace}/${object.name}: ${message}`, repeats: 1 })),
    };
    return [finding];
  },
};

function latestSchedulingMessage(evidence: Evidence, namespace: string, name: string): string | undefined {
  return evidence.events
    .filter((event) => event.reason === 'FailedScheduling' && event.object.namespace === namespace && event.object.name === name)
    .sort((a, b) => (b.lastSeen ?? 0) - (a.lastSeen ?? 0))[0]?.message;
}

/** `0/3 nodes are available: 1 node(s) had X, 2 Insufficient cpu. preemption: ...` → [`node(s) had X`, `Insufficient cpu`]. */
export function splitReasons(message: string): string[] {
  const body = /nodes are available: (.*?)(?:\. preemption:|\.$|$)/.exec(message)?.[1];
  if (!body) return [message.trim()];
  return body
    .split(/, (?=\d+ )/)
    .map((part) => part.replace(/^\d+ /, '').replace(/\.$/, '').trim())
    .filter((part) => part !== '');
}
