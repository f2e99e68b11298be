/**
 * The served state of a scenario: objects completed with the metadata a real
 * server always sets (uid, resourceVersion, creationTimestamp), bucketed by
 * kind and sorted by their etcd key (`namespace/name`), which is the order a
 * real list returns.
 */
import type { ContainerLogs, KubeObject, NodeLogs, Scenario } from './types.js';
import { deterministicUid } from './prng.js';
import { parseRfc3339Micros } from './log-store.js';

/** An object with the key that orders it in its bucket. */
export interface StoredObject {
  key: string;
  namespace: string | undefined;
  object: KubeObject;
}

/** Everything the handlers read; immutable once built. */
export interface ClusterState {
  /** The list resourceVersion: the highest object resourceVersion. */
  resourceVersion: string;
  /** The scenario clock, in microseconds since the epoch. */
  nowMicros: number;
  /** Kind → objects sorted by key. */
  buckets: Map<string, StoredObject[]>;
  /** `namespace/name` → pod. */
  pods: Map<string, KubeObject>;
  /** name → node. */
  nodes: Map<string, KubeObject>;
  /** `namespace/pod/container` → logs. */
  containerLogs: Map<string, ContainerLogs>;
  /** node → its kubelet-side logs. */
  nodeLogs: Map<string, NodeLogs>;
}

/** Where an object sits in etcd, minus the resource prefix. */
export function objectKey(namespace: string | undefined, name: string): string {
  return namespace === undefined ? name : `${namespace}/${name}`;
}

/** Plain code-unit comparison: etcd orders keys bytewise, not by locale. */
export function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const FIRST_RESOURCE_VERSION = 1000;

function completeMetadata(object: KubeObject, resourceVersion: number, createdAt: string): KubeObject {
  const metadata = { ...object.metadata };
  metadata['uid'] ??= deterministicUid(`${object.kind}/${objectKey(metadata.namespace, metadata.name)}`);
  metadata['resourceVersion'] ??= String(resourceVersion);
  metadata['creationTimestamp'] ??= createdAt;
  return { ...object, metadata };
}

/** Builds the served state of a scenario (the scenario itself is not modified). */
export function buildClusterState(scenario: Scenario): ClusterState {
  const nowMicros = parseRfc3339Micros(scenario.now);
  if (nowMicros === undefined) throw new Error(`scenario ${scenario.name}: "now" is not an RFC3339 time: ${scenario.now}`);
  const createdAt = new Date(Math.floor(nowMicros / 1000) - 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');
  const buckets = new Map<string, StoredObject[]>();
  const pods = new Map<string, KubeObject>();
  const nodes = new Map<string, KubeObject>();
  let highest = FIRST_RESOURCE_VERSION;
  scenario.objects.forEach((raw, index) => {
    const object = completeMetadata(raw, FIRST_RESOURCE_VERSION + index, createdAt);
    highest = Math.max(highest, Number(object.metadata['resourceVersion']) || 0);
    const namespace = object.metadata.namespace;
    const stored: StoredObject = { key: objectKey(namespace, object.metadata.name), namespace, object };
    const bucket = buckets.get(object.kind) ?? [];
    bucket.push(stored);
    buckets.set(object.kind, bucket);
    if (object.kind === 'Pod') pods.set(stored.key, object);
    if (object.kind === 'Node') nodes.set(object.metadata.name, object);
  });
  for (const bucket of buckets.values()) bucket.sort((a, b) => compareKeys(a.key, b.key));
  const containerLogs = new Map(
    scenario.containerLogs.map((logs) => [`${logs.namespace}/${logs.pod}/${logs.container}`, logs] as const),
  );
  const nodeLogs = new Map(scenario.nodeLogs.map((logs) => [logs.node, logs] as const));
  return { resourceVersion: String(highest), nowMicros, buckets, pods, nodes, containerLogs, nodeLogs };
}
