/**
 * The kube-system part every scenario shares: one kube-proxy pod per node, a
 * coredns Deployment, their logs, and each node's kubelet and kube-proxy logs.
 */
import type { ContainerLogs, KubeObject, NodeLogs } from '../types.js';
import { namespaceObject, podObject, secondsBefore, workloadObject, configMapObject, eventObject } from './objects.js';

/** A node of a scenario: its name and address. */
export interface NodePlacement {
  name: string;
  ip: string;
}

/** What the system part adds to a scenario. */
export interface SystemPart {
  objects: KubeObject[];
  containerLogs: ContainerLogs[];
}

const KUBE_PROXY_IMAGE = 'registry.k8s.io/kube-proxy:v1.32.4';
const COREDNS_IMAGE = 'registry.k8s.io/coredns/coredns:v1.11.3';

/** kube-system with healthy kube-proxy and coredns pods, and their logs. */
export function systemPart(nodes: NodePlacement[], now: string): SystemPart {
  const objects: KubeObject[] = [
    namespaceObject('kube-system'),
    // The API server creates these in every cluster (its bootstrap controller), with the `kubernetes` Service.
    namespaceObject('kube-public'),
    namespaceObject('kube-node-lease'),
    ...apiServerObjects(),
    configMapObject('kube-system', 'kube-proxy', { 'config.conf': 'mode: iptables\n' }),
  ];
  const containerLogs: ContainerLogs[] = [];
  nodes.forEach((node, index) => {
    const name = `kube-proxy-${node.name}`;
    objects.push(
      podObject({
        namespace: 'kube-system',
        name,
        node: node.name,
        now,
        ageSeconds: 7000,
        containers: [{ name: 'kube-proxy', image: KUBE_PROXY_IMAGE }],
        labels: { 'k8s-app': 'kube-proxy' },
        owner: { kind: 'DaemonSet', name: 'kube-proxy', apiVersion: 'apps/v1' },
        podIP: node.ip,
        hostIP: node.ip,
      }),
    );
    containerLogs.push({
      namespace: 'kube-system',
      pod: name,
      container: 'kube-proxy',
      current: {
        lines: [
          `I${klogStamp(now, 6990)}       1 server_linux.go:66] "Using iptables proxy"`,
          `I${klogStamp(now, 6989)}       1 server.go:677] "Successfully retrieved node IP(s)" IPs=["${node.ip}"]`,
          `I${klogStamp(now, 6988)}       1 config.go:199] "Starting service config controller"`,
          `I${klogStamp(now, 6987)}       1 shared_informer.go:320] Caches are synced for service config`,
        ],
        times: [6990, 6989, 6988, 6987].map((seconds) => secondsBefore(now, seconds)),
      },
    });
    if (index === 0) {
      objects.push(
        podObject({
          namespace: 'kube-system',
          name: 'coredns-5d78c9869d-x7k2p',
          node: node.name,
          now,
          ageSeconds: 6900,
          containers: [{ name: 'coredns', image: COREDNS_IMAGE, ports: [{ containerPort: 53, name: 'dns', protocol: 'UDP' }] }],
          labels: { 'k8s-app': 'kube-dns', 'pod-template-hash': '5d78c9869d' },
          owner: { kind: 'ReplicaSet', name: 'coredns-5d78c9869d', apiVersion: 'apps/v1' },
          podIP: '10.64.0.2',
          hostIP: node.ip,
        }),
      );
      containerLogs.push({
        namespace: 'kube-system',
        pod: 'coredns-5d78c9869d-x7k2p',
        container: 'coredns',
        current: { lines: ['.:53', '[INFO] plugin/reload: Running configuration SHA512 = 591cf328cccc12bc490481273e738df59329c62c0b729d94e8b61db9961c2fa5', 'CoreDNS-1.11.3', 'linux/amd64, go1.21.11, a6338e9'] },
      });
    }
  });
  objects.push(
    workloadObject('DaemonSet', 'kube-system', 'kube-proxy', { selector: { matchLabels: { 'k8s-app': 'kube-proxy' } } }, {
      currentNumberScheduled: nodes.length,
      desiredNumberScheduled: nodes.length,
      numberReady: nodes.length,
      numberAvailable: nodes.length,
      updatedNumberScheduled: nodes.length,
    }, {}, [{ name: 'kube-proxy', image: KUBE_PROXY_IMAGE }]),
    workloadObject('Deployment', 'kube-system', 'coredns', { replicas: 1, selector: { matchLabels: { 'k8s-app': 'kube-dns' } } }, { replicas: 1, readyReplicas: 1, availableReplicas: 1, updatedReplicas: 1 }, {}, [{ name: 'coredns', image: COREDNS_IMAGE }]),
    workloadObject('ReplicaSet', 'kube-system', 'coredns-5d78c9869d', { replicas: 1, selector: { matchLabels: { 'k8s-app': 'kube-dns' } } }, { replicas: 1, readyReplicas: 1, availableReplicas: 1, fullyLabeledReplicas: 1 }, {}, [{ name: 'coredns', image: COREDNS_IMAGE }]),
    eventObject({
      namespace: 'kube-system',
      involved: { kind: 'Pod', name: 'coredns-5d78c9869d-x7k2p', apiVersion: 'v1' },
      reason: 'Scheduled',
      message: `Successfully assigned kube-system/coredns-5d78c9869d-x7k2p to ${nodes[0]?.name ?? ''}`,
      type: 'Normal',
      component: 'default-scheduler',
      count: 1,
      firstTimestamp: secondsBefore(now, 6900),
      lastTimestamp: secondsBefore(now, 6900),
    }),
  );
  return { objects, containerLogs };
}

/** The `kubernetes` Service (first IP of the service range) and the Endpoints of the API server in `default`. */
function apiServerObjects(): KubeObject[] {
  const labels = { component: 'apiserver', provider: 'kubernetes' };
  return [
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'kubernetes', namespace: 'default', labels },
      spec: { ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: 443 }], clusterIP: '10.0.0.1', clusterIPs: ['10.0.0.1'], type: 'ClusterIP', sessionAffinity: 'None' },
      status: { loadBalancer: {} },
    },
    {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'kubernetes', namespace: 'default', labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } },
      subsets: [{ addresses: [{ ip: '10.240.0.2' }], ports: [{ name: 'https', port: 443, protocol: 'TCP' }] }],
    },
  ];
}

/** `0210 19:12:45.000000`: a klog time `secondsAgo` before now. */
export function klogStamp(now: string, secondsAgo: number): string {
  const iso = secondsBefore(now, secondsAgo);
  return `${iso.slice(5, 7)}${iso.slice(8, 10)} ${iso.slice(11, 19)}.000000`;
}

/** Generated kubelet and kube-proxy logs of a node (kube-proxy only as a /var/log file, as on GCE). */
export function generatedNodeLogs(node: string, kubeletBytes: number, nodeLogQuery: boolean): NodeLogs {
  return {
    node,
    nodeLogQuery,
    logs: {
      kubelet: { generated: { bytes: kubeletBytes, seed: `${node}/kubelet` } },
      'kube-proxy': { generated: { bytes: Math.max(1, Math.floor(kubeletBytes / 4)), seed: `${node}/kube-proxy` } },
    },
    journalUnits: ['kubelet'],
  };
}
