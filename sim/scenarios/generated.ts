/**
 * `generated`: a cluster of any size, for benchmarks. Objects are built eagerly
 * (20k pods of JSON fit in memory); log bytes are only a size and a seed, and
 * are rendered when read (see log-store.ts).
 */
import type { ContainerLogs, KubeObject, Scenario } from '../types.js';
import { eventObject, namespaceObject, nodeObject, podObject, secondsBefore, serviceObject } from './objects.js';
import { generatedNodeLogs, systemPart, type NodePlacement } from './system.js';

const NOW = '2025-03-04T10:00:00Z';

/** The parameters of the generated scenario, with their defaults (small). */
export const GENERATED_PARAMS = {
  nodes: { default: 3, min: 1, description: 'number of nodes' },
  namespaces: { default: 2, min: 1, description: 'number of workload namespaces' },
  podsPerNode: { default: 2, min: 0, description: 'workload pods per node' },
  containersPerPod: { default: 1, min: 1, description: 'containers per workload pod' },
  logBytes: { default: 2048, min: 0, description: 'bytes of log per container instance' },
  restarts: { default: 0, min: 0, description: 'pods restarted once with a previous log: a fraction (< 1) or a count' },
  nodeLogBytes: { default: 16384, min: 0, description: 'bytes of kubelet log per node' },
} as const;

/** The parameter names of the generated scenario. */
export type GeneratedParam = keyof typeof GENERATED_PARAMS;

function nodeIp(index: number): string {
  return `10.${Math.floor(index / 65536) % 256}.${Math.floor(index / 256) % 256}.${index % 256}`;
}

/** Which pods restarted: the first `count` of each block of pods, spread evenly. */
function restartedCount(restarts: number, pods: number): number {
  return restarts < 1 ? Math.round(restarts * pods) : Math.min(pods, Math.floor(restarts));
}

/** Builds a generated cluster; `params` are complete and validated. */
export function buildGenerated(params: Record<GeneratedParam, number>): Scenario {
  const nodes: NodePlacement[] = Array.from({ length: params.nodes }, (_, index) => ({
    name: `node-${String(index).padStart(4, '0')}`,
    ip: nodeIp(index + 10),
  }));
  const namespaces = Array.from({ length: params.namespaces }, (_, index) => `load-${String(index).padStart(3, '0')}`);
  const system = systemPart(nodes, NOW);
  const objects: KubeObject[] = [
    namespaceObject('default'),
    ...namespaces.map(namespaceObject),
    ...nodes.map((node) => nodeObject(node.name, { ip: node.ip, now: NOW })),
    ...system.objects,
  ];
  const containerLogs: ContainerLogs[] = [...system.containerLogs];
  const totalPods = params.nodes * params.podsPerNode;
  const restarted = restartedCount(params.restarts, totalPods);
  // Every `stride`-th pod restarted, so restarts spread across nodes and namespaces.
  const stride = restarted === 0 ? Infinity : totalPods / restarted;
  let nextRestart = 0;
  for (let podIndex = 0; podIndex < totalPods; podIndex++) {
    const node = nodes[Math.floor(podIndex / params.podsPerNode)] as NodePlacement;
    const namespace = namespaces[podIndex % namespaces.length] as string;
    const name = `app-${String(podIndex).padStart(6, '0')}`;
    const didRestart = podIndex >= nextRestart && restarted > 0 && nextRestart < totalPods;
    if (didRestart) nextRestart += stride;
    const containers = Array.from({ length: params.containersPerPod }, (_, index) => ({
      name: index === 0 ? 'app' : `sidecar-${index}`,
      image: index === 0 ? 'registry.example/app:1.0' : 'registry.example/sidecar:1.0',
      ...(didRestart ? { restartCount: 1, lastExitCode: 1 } : {}),
    }));
    objects.push(
      podObject({
        namespace,
        name,
        node: node.name,
        now: NOW,
        ageSeconds: 3600,
        containers,
        labels: { app: 'load', shard: String(podIndex % 10) },
        podIP: `172.${16 + (Math.floor(podIndex / 65536) % 16)}.${Math.floor(podIndex / 256) % 256}.${podIndex % 256}`,
        hostIP: node.ip,
      }),
      eventObject({
        namespace,
        involved: { kind: 'Pod', name, apiVersion: 'v1' },
        reason: 'Scheduled',
        message: `Successfully assigned ${namespace}/${name} to ${node.name}`,
        type: 'Normal',
        component: 'default-scheduler',
        count: 1,
        firstTimestamp: secondsBefore(NOW, 3600),
        lastTimestamp: secondsBefore(NOW, 3600),
      }),
    );
    for (const container of containers) {
      const seed = `${namespace}/${name}/${container.name}`;
      containerLogs.push({
        namespace,
        pod: name,
        container: container.name,
        current: { generated: { bytes: params.logBytes, seed } },
        ...(didRestart ? { previous: { generated: { bytes: params.logBytes, seed: `${seed}/previous` } } } : {}),
      });
    }
  }
  for (const namespace of namespaces) {
    objects.push(serviceObject(namespace, 'load', { selector: { app: 'load' }, ports: [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }], clusterIP: 'None' }));
  }
  return {
    name: 'generated',
    description: 'a generated cluster of any size for benchmarks (params: nodes, namespaces, podsPerNode, containersPerPod, logBytes, restarts, nodeLogBytes)',
    now: NOW,
    objects,
    containerLogs,
    nodeLogs: nodes.map((node) => generatedNodeLogs(node.name, params.nodeLogBytes, true)),
  };
}
