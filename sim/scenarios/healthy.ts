/**
 * `healthy`: two Ready nodes, a 2-replica Deployment and a 3-replica
 * StatefulSet, all pods ready, no restarts, only Normal events. The baseline an
 * analyzer must find nothing wrong in.
 */
import type { ContainerLogs, KubeObject, Scenario } from '../types.js';
import { eventObject, namespaceObject, nodeObject, podObject, secondsBefore, serviceObject, workloadObject } from './objects.js';
import { generatedNodeLogs, systemPart, type NodePlacement } from './system.js';

const NOW = '2025-03-04T10:00:00Z';
const NAMESPACE = 'shop';

/** Builds the healthy scenario (it takes no parameters). */
export function buildHealthy(): Scenario {
  const nodes: NodePlacement[] = [
    { name: 'node-a', ip: '10.0.0.11' },
    { name: 'node-b', ip: '10.0.0.12' },
  ];
  const system = systemPart(nodes, NOW);
  const objects: KubeObject[] = [...nodes.map((node) => nodeObject(node.name, { ip: node.ip, now: NOW })), namespaceObject('default'), namespaceObject(NAMESPACE), ...system.objects];
  const containerLogs: ContainerLogs[] = [...system.containerLogs];
  const pods: { name: string; node: NodePlacement; owner: { kind: string; name: string; apiVersion: string }; labels: Record<string, string>; image: string; container: string }[] = [
    ...['7c9f8d6b5-abcde', '7c9f8d6b5-fghij'].map((suffix, index) => ({
      name: `web-${suffix}`,
      node: nodes[index % 2] as NodePlacement,
      owner: { kind: 'ReplicaSet', name: 'web-7c9f8d6b5', apiVersion: 'apps/v1' },
      labels: { app: 'web', 'pod-template-hash': '7c9f8d6b5' },
      image: 'nginx:1.27',
      container: 'nginx',
    })),
    ...[0, 1, 2].map((ordinal) => ({
      name: `db-${ordinal}`,
      node: nodes[ordinal % 2] as NodePlacement,
      owner: { kind: 'StatefulSet', name: 'db', apiVersion: 'apps/v1' },
      labels: { app: 'db', 'statefulset.kubernetes.io/pod-name': `db-${ordinal}` },
      image: 'postgres:16',
      container: 'postgres',
    })),
  ];
  pods.forEach((pod, index) => {
    objects.push(
      podObject({
        namespace: NAMESPACE,
        name: pod.name,
        node: pod.node.name,
        now: NOW,
        ageSeconds: 3000 - index * 60,
        containers: [{ name: pod.container, image: pod.image }],
        labels: pod.labels,
        owner: pod.owner,
        podIP: `10.64.1.${10 + index}`,
        hostIP: pod.node.ip,
      }),
      eventObject({
        namespace: NAMESPACE,
        involved: { kind: 'Pod', name: pod.name, apiVersion: 'v1' },
        reason: 'Scheduled',
        message: `Successfully assigned ${NAMESPACE}/${pod.name} to ${pod.node.name}`,
        type: 'Normal',
        component: 'default-scheduler',
        count: 1,
        firstTimestamp: secondsBefore(NOW, 3000 - index * 60),
        lastTimestamp: secondsBefore(NOW, 3000 - index * 60),
      }),
      eventObject({
        namespace: NAMESPACE,
        involved: { kind: 'Pod', name: pod.name, apiVersion: 'v1', fieldPath: `spec.containers{${pod.container}}` },
        reason: 'Started',
        message: `Started container ${pod.container}`,
        type: 'Normal',
        component: 'kubelet',
        host: pod.node.name,
        count: 1,
        firstTimestamp: secondsBefore(NOW, 2990 - index * 60),
        lastTimestamp: secondsBefore(NOW, 2990 - index * 60),
      }),
    );
    containerLogs.push({ namespace: NAMESPACE, pod: pod.name, container: pod.container, current: { generated: { bytes: 4096, seed: `healthy/${pod.name}` } } });
  });
  objects.push(
    workloadObject('Deployment', NAMESPACE, 'web', { replicas: 2, selector: { matchLabels: { app: 'web' } } }, { replicas: 2, readyReplicas: 2, availableReplicas: 2, updatedReplicas: 2 }, { app: 'web' }, [{ name: 'nginx', image: 'nginx:1.27' }]),
    workloadObject('ReplicaSet', NAMESPACE, 'web-7c9f8d6b5', { replicas: 2, selector: { matchLabels: { app: 'web' } } }, { replicas: 2, readyReplicas: 2, availableReplicas: 2, fullyLabeledReplicas: 2 }, { app: 'web' }, [{ name: 'nginx', image: 'nginx:1.27' }]),
    workloadObject('StatefulSet', NAMESPACE, 'db', { replicas: 3, serviceName: 'db', podManagementPolicy: 'OrderedReady', selector: { matchLabels: { app: 'db' } } }, { replicas: 3, readyReplicas: 3, currentReplicas: 3, updatedReplicas: 3, availableReplicas: 3 }, { app: 'db' }, [{ name: 'postgres', image: 'postgres:16' }]),
    serviceObject(NAMESPACE, 'web', { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 80, protocol: 'TCP' }], clusterIP: '10.0.12.40' }),
    serviceObject(NAMESPACE, 'db', { selector: { app: 'db' }, ports: [{ name: 'pg', port: 5432, targetPort: 5432, protocol: 'TCP' }], clusterIP: 'None' }),
  );
  return {
    name: 'healthy',
    description: 'two Ready nodes, a 2-replica Deployment and a 3-replica StatefulSet, all ready, no restarts, Normal events only',
    now: NOW,
    objects,
    containerLogs,
    nodeLogs: nodes.map((node) => generatedNodeLogs(node.name, 64 * 1024, true)),
  };
}
