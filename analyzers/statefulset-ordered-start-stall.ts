import type { Analyzer } from './analyzer.js';
import { objectKey, type EventRecord, type Evidence, type StoredObject } from './evidence.js';
import { asPod, isReady, type PodShape } from './pod-facts.js';
import { times } from './signatures.js';
import type { Finding, Sample } from './types.js';

export const STALL_ID = 'statefulset-ordered-start-stall';

interface StatefulSetShape {
  metadata?: { name?: string; namespace?: string };
  spec?: { replicas?: number; podManagementPolicy?: string };
  status?: { replicas?: number; readyReplicas?: number };
}

/**
 * A StatefulSet with `podManagementPolicy: OrderedReady` (the default) creates
 * pod N+1 only once pods 0..N are Running and Ready. When the lowest pod never
 * turns Ready, say because its readiness probe asks "am I in a quorum?" and a
 * quorum needs the pods that are never created, the set waits forever. The
 * signs: ready replicas below spec, the lowest missing-or-unready ordinal
 * exists but is not Ready, and every higher ordinal was never created.
 */
export const statefulSetStallAnalyzer: Analyzer = {
  id: STALL_ID,
  analyze(evidence) {
    return evidence.statefulSets.flatMap((set) => {
      const finding = analyzeSet(set as StatefulSetShape, evidence);
      return finding ? [finding] : [];
    });
  },
};

function analyzeSet(set: StatefulSetShape, evidence: Evidence): Finding | undefined {
  const name = set.metadata?.name ?? '';
  const namespace = set.metadata?.namespace ?? '';
  const wanted = set.spec?.replicas ?? 1;
  if ((set.spec?.podManagementPolicy ?? 'OrderedReady') !== 'OrderedReady') return undefined;
  if ((set.status?.readyReplicas ?? 0) >= wanted) return undefined;
  const pods = podsByOrdinal(evidence.pods, namespace, name);
  const stuckAt = [...Array(wanted).keys()].find((ordinal) => !pods.has(ordinal) || !isReady(pods.get(ordinal) as PodShape));
  if (stuckAt === undefined || !pods.has(stuckAt)) return undefined;
  const missing = [...Array(wanted).keys()].filter((ordinal) => ordinal > stuckAt);
  if (missing.length === 0 || missing.some((ordinal) => pods.has(ordinal))) return undefined;

  const stuckPod = `${name}-${stuckAt}`;
  const probeEvents = evidence.events.filter(
    (event) => event.object.kind === 'Pod' && event.object.namespace === namespace && event.object.name === stuckPod && /^Readiness probe failed/.test(event.message),
  );
  const probeFailures = probeEvents.reduce((sum, event) => sum + event.count, 0);
  const swallowed = probeEvents.filter((event) => event.swallowed);
  const related = evidence.signatures
    .filter((group) => [...group.objects.values()].some((object) => object.namespace === namespace && object.name === stuckPod))
    .map((group) => group.rule.id);
  const range = missing.length === 1 ? `${name}-${missing[0]}` : `${name}-${missing[0]}..${missing.at(-1)}`;
  const cause = probeFailures > 0
    ? `its readiness probe keeps failing (${probeFailures} failures${swallowed.length > 0 ? `, ${swallowed.reduce((sum, event) => sum + event.count, 0)} of them never reported as events by the kubelet` : ''})`
    : 'it is not Ready';
  return {
    id: STALL_ID,
    severity: 'error',
    rootCause: true,
    title: `StatefulSet ${namespace}/${name} is stuck: ${stuckPod} never turns Ready, so ${range} ${missing.length === 1 ? 'is' : 'are'} never created`,
    explanation:
      `${namespace}/${name} wants ${wanted} replicas with podManagementPolicy OrderedReady, so the controller creates each pod only after every lower one is Running and Ready. ` +
      `${stuckPod} exists but ${cause}, so ${range} ${missing.length === 1 ? 'is' : 'are'} never created. ` +
      (probeFailures > 0
        ? 'When the application is a quorum system (CockroachDB, etcd, ZooKeeper, Consul) and its readiness endpoint means "I am part of a quorum", the first pod can never be Ready: the pods that would form the quorum are exactly the ones waiting for it. The set deadlocks.'
        : 'Nothing higher will start until it is.'),
    remedy: probeFailures > 0
      ? `Set spec.podManagementPolicy: Parallel on the StatefulSet (it only changes how pods are created and deleted) so all ${wanted} pods start together and can form a quorum, or make the readiness probe report "can join a quorum" (the process is up and can talk to its peers) rather than "is in a quorum". Check with: kubectl -n ${namespace} describe pod ${stuckPod}`
      : `Find out why ${stuckPod} is not Ready: kubectl -n ${namespace} describe pod ${stuckPod}, and its logs in the dump.`,
    docsUrl: 'https://kubernetes.io/docs/concepts/workloads/controllers/statefulset/#pod-management-policies',
    key: { statefulset: `${namespace}/${name}` },
    objects: [{ kind: 'StatefulSet', namespace, name }, { kind: 'Pod', namespace, name: stuckPod }],
    count: probeFailures || 1,
    ...times(earliest(probeEvents), latest(probeEvents)),
    samples: probeEvents.slice(0, 3).map(eventSample),
    ...(related.length > 0 ? { related: [...new Set(related)].sort() } : {}),
  };
}

/** Pods of the set by ordinal: owned by it, or named `{set}-{n}` in its namespace. */
function podsByOrdinal(pods: StoredObject[], namespace: string, setName: string): Map<number, PodShape> {
  const byOrdinal = new Map<number, PodShape>();
  const pattern = new RegExp(`^${setName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-(\\d+)$`);
  for (const object of pods) {
    const pod = asPod(object);
    if (pod.metadata?.namespace !== namespace) continue;
    const ordinal = pattern.exec(pod.metadata?.name ?? '');
    const owned = pod.metadata?.ownerReferences?.some((owner) => owner.kind === 'StatefulSet' && owner.name === setName) ?? true;
    if (ordinal && owned) byOrdinal.set(Number(ordinal[1]), pod);
  }
  return byOrdinal;
}

function eventSample(event: EventRecord): Sample {
  const prefix = event.swallowed ? 'never reported: ' : '';
  return { path: event.path, line: event.line, text: `${prefix}${event.type} ${event.reason}: ${event.message} (${objectKey(event.object)})`, repeats: event.count };
}

function earliest(events: EventRecord[]): number | undefined {
  const known = events.map((event) => event.firstSeen).filter((value): value is number => value !== undefined);
  return known.length > 0 ? Math.min(...known) : undefined;
}

function latest(events: EventRecord[]): number | undefined {
  const known = events.map((event) => event.lastSeen).filter((value): value is number => value !== undefined);
  return known.length > 0 ? Math.max(...known) : undefined;
}
