import { clusterListPath, namespacedListPath } from '../archive/layout.js';
import type { RawObject } from '../kube/list.js';
import { jsonListUnit } from './json-list.js';
import { NAMESPACES, NODES, PODS, listPath } from './resources.js';
import type { CollectContext, ContainerSummary, Inventory, NodeSummary, PodSummary } from './types.js';

/**
 * Lists namespaces, nodes and pods, storing each list as it streams by and
 * keeping the little the other collectors need (names, containers, restarts).
 * When namespaces were named with `-n`, those are used even if listing
 * namespaces is denied, as it is for many namespace-scoped CI identities.
 */
export async function collectInventory(context: Omit<CollectContext, 'inventory'>): Promise<Inventory> {
  const listed: string[] = [];
  const nodes: NodeSummary[] = [];
  await Promise.all([
    context.run(jsonListUnit(context, clusterListPath('namespaces'), 'cluster', {
      apiPath: listPath(NAMESPACES),
      onItem: (item) => listed.push(item.metadata?.name ?? ''),
    })),
    context.run(jsonListUnit(context, clusterListPath('nodes'), 'cluster', {
      apiPath: listPath(NODES),
      onItem: (item) => nodes.push(summarizeNode(item)),
    })),
  ]);
  const namespaces = context.options.namespaces ?? listed.filter((name) => name !== '');
  const pods: PodSummary[] = [];
  await Promise.all(
    namespaces.map((namespace) =>
      context.run(jsonListUnit(context, namespacedListPath(namespace, PODS.fileStem), 'objects', {
        apiPath: listPath(PODS, namespace),
        onItem: (item) => pods.push(summarizePod(item, namespace)),
      })),
    ),
  );
  return { namespaces, nodes, pods };
}

function summarizeNode(item: RawObject): NodeSummary {
  const created = (item.metadata as { creationTimestamp?: string } | undefined)?.creationTimestamp;
  const createdAt = created ? new Date(created) : undefined;
  return { name: item.metadata?.name ?? '', createdAt: createdAt && !Number.isNaN(createdAt.getTime()) ? createdAt : undefined };
}

interface PodShape {
  spec?: {
    initContainers?: { name: string }[];
    containers?: { name: string }[];
    ephemeralContainers?: { name: string }[];
  };
  status?: {
    initContainerStatuses?: ContainerStatusShape[];
    containerStatuses?: ContainerStatusShape[];
    ephemeralContainerStatuses?: ContainerStatusShape[];
  };
}

interface ContainerStatusShape {
  name: string;
  restartCount?: number;
  lastState?: { terminated?: unknown };
}

/**
 * A container has a previous instance when the kubelet says it restarted or
 * shows the last termination; asking for `previous` otherwise only earns a 400.
 */
export function summarizePod(item: RawObject, namespace: string): PodSummary {
  const pod = item as PodShape;
  const statuses = new Map<string, ContainerStatusShape>();
  for (const status of [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? []), ...(pod.status?.ephemeralContainerStatuses ?? [])]) {
    statuses.set(status.name, status);
  }
  const containers: ContainerSummary[] = [];
  const add = (list: { name: string }[] | undefined, kind: ContainerSummary['kind']): void => {
    for (const { name } of list ?? []) {
      const status = statuses.get(name);
      containers.push({ name, kind, hasPrevious: (status?.restartCount ?? 0) > 0 || status?.lastState?.terminated !== undefined });
    }
  };
  add(pod.spec?.initContainers, 'init');
  add(pod.spec?.containers, 'regular');
  add(pod.spec?.ephemeralContainers, 'ephemeral');
  return { namespace, name: item.metadata?.name ?? '', containers };
}
