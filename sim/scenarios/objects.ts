/**
 * Builders for the objects of a scenario, shaped as a real API server serves
 * them (status with conditions, containerStatuses with container ids...), so
 * scenario files read as the cluster they describe rather than as JSON.
 */
import type { KubeObject } from '../types.js';
import { deterministicUid } from '../prng.js';

/** An RFC3339 time `seconds` before `now` (negative: after). */
export function secondsBefore(now: string, seconds: number): string {
  return new Date(Date.parse(now) - seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A Ready (or NotReady) node with a kubelet endpoint and an InternalIP. */
export function nodeObject(name: string, options: { ip: string; now: string; ready?: boolean; kubeletVersion?: string }): KubeObject {
  const ready = options.ready ?? true;
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64' } },
    // podCIDRs is defaulted from podCIDR by the API server.
    spec: { podCIDR: `10.64.${options.ip.split('.').pop() ?? '0'}.0/24`, podCIDRs: [`10.64.${options.ip.split('.').pop() ?? '0'}.0/24`] },
    status: {
      conditions: [
        { type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory', lastHeartbeatTime: options.now, lastTransitionTime: secondsBefore(options.now, 7200) },
        { type: 'DiskPressure', status: 'False', reason: 'KubeletHasNoDiskPressure', lastHeartbeatTime: options.now, lastTransitionTime: secondsBefore(options.now, 7200) },
        {
          type: 'Ready',
          status: ready ? 'True' : 'False',
          reason: ready ? 'KubeletReady' : 'KubeletNotReady',
          message: ready ? 'kubelet is posting ready status' : 'container runtime is down',
          lastHeartbeatTime: options.now,
          lastTransitionTime: secondsBefore(options.now, 7200),
        },
      ],
      addresses: [
        { type: 'InternalIP', address: options.ip },
        { type: 'Hostname', address: name },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      // machineID, systemUUID and bootID are not omitempty: a real server always serves them.
      nodeInfo: {
        machineID: deterministicUid(`machine/${name}`).replace(/-/g, ''),
        systemUUID: deterministicUid(`system/${name}`),
        bootID: deterministicUid(`boot/${name}`),
        kubeletVersion: options.kubeletVersion ?? 'v1.32.4',
        kubeProxyVersion: options.kubeletVersion ?? 'v1.32.4',
        containerRuntimeVersion: 'containerd://1.7.24',
        operatingSystem: 'linux',
        architecture: 'amd64',
        osImage: 'Container-Optimized OS from Google',
        kernelVersion: '6.1.112+',
      },
    },
  };
}

/** An Active namespace. */
export function namespaceObject(name: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, labels: { 'kubernetes.io/metadata.name': name } },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  };
}

/** How one container of a pod is doing. */
export interface ContainerPlan {
  name: string;
  image: string;
  /** running (default), waiting with a reason, or terminated (completed init containers). */
  state?: { running: true } | { waiting: string } | { terminated: { exitCode: number; reason: string } };
  ready?: boolean;
  restartCount?: number;
  /** When set, the last instance terminated with this exit code (there is a previous log). */
  lastExitCode?: number;
  readinessProbe?: Record<string, unknown>;
  ports?: Record<string, unknown>[];
}

/** What a pod looks like. */
export interface PodPlan {
  namespace: string;
  name: string;
  node: string;
  now: string;
  /** Seconds before now the pod started. */
  ageSeconds: number;
  containers: ContainerPlan[];
  initContainers?: ContainerPlan[];
  labels?: Record<string, string>;
  owner?: { kind: string; name: string; apiVersion: string };
  podIP: string;
  hostIP: string;
  volumes?: Record<string, unknown>[];
  hostname?: string;
  subdomain?: string;
}

function containerId(plan: PodPlan, container: string, instance: number): string {
  return `containerd://${deterministicUid(`${plan.namespace}/${plan.name}/${container}/${instance}`).replace(/-/g, '')}`;
}

function containerStatus(plan: PodPlan, container: ContainerPlan): Record<string, unknown> {
  const restarts = container.restartCount ?? 0;
  const started = secondsBefore(plan.now, Math.max(1, plan.ageSeconds - 30 - restarts * 60));
  const state = container.state ?? { running: true };
  const status: Record<string, unknown> = {
    name: container.name,
    image: container.image,
    imageID: `${container.image.split(':')[0] ?? container.image}@sha256:${deterministicUid(container.image).replace(/-/g, '')}`,
    ready: container.ready ?? 'running' in state,
    restartCount: restarts,
    started: 'running' in state,
    state:
      'running' in state
        ? { running: { startedAt: started } }
        : 'waiting' in state
          ? { waiting: { reason: state.waiting } }
          : {
              terminated: {
                exitCode: state.terminated.exitCode,
                reason: state.terminated.reason,
                startedAt: secondsBefore(plan.now, plan.ageSeconds - 5),
                finishedAt: secondsBefore(plan.now, plan.ageSeconds - 20),
                containerID: containerId(plan, container.name, restarts),
              },
            },
    lastState: {},
  };
  if ('running' in state || 'terminated' in state) status['containerID'] = containerId(plan, container.name, restarts);
  if (container.lastExitCode !== undefined) {
    status['lastState'] = {
      terminated: {
        exitCode: container.lastExitCode,
        reason: container.lastExitCode === 0 ? 'Completed' : 'Error',
        startedAt: secondsBefore(plan.now, plan.ageSeconds - 20),
        finishedAt: secondsBefore(plan.now, plan.ageSeconds - 40 - restarts * 50),
        containerID: containerId(plan, container.name, restarts - 1),
      },
    };
  }
  return status;
}

function containerSpec(container: ContainerPlan): Record<string, unknown> {
  const spec: Record<string, unknown> = {
    name: container.name,
    image: container.image,
    imagePullPolicy: 'IfNotPresent',
    resources: {},
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
  };
  if (container.ports) spec['ports'] = container.ports;
  if (container.readinessProbe) spec['readinessProbe'] = container.readinessProbe;
  return spec;
}

/** A scheduled pod with its conditions derived from its containers' readiness. */
export function podObject(plan: PodPlan): KubeObject {
  const statuses = plan.containers.map((container) => containerStatus(plan, container));
  const allReady = statuses.every((status) => status['ready'] === true);
  const waiting = plan.containers.some((container) => container.state && 'waiting' in container.state);
  const created = secondsBefore(plan.now, plan.ageSeconds);
  const transition = secondsBefore(plan.now, plan.ageSeconds - 10);
  const metadata: KubeObject['metadata'] = {
    name: plan.name,
    namespace: plan.namespace,
    ...(plan.labels && Object.keys(plan.labels).length > 0 ? { labels: plan.labels } : {}),
    creationTimestamp: created,
  };
  if (plan.owner) {
    metadata['ownerReferences'] = [
      { ...plan.owner, uid: deterministicUid(`${plan.owner.kind}/${plan.namespace}/${plan.owner.name}`), controller: true, blockOwnerDeletion: true },
    ];
  }
  const spec: Record<string, unknown> = {
    containers: plan.containers.map(containerSpec),
    nodeName: plan.node,
    restartPolicy: 'Always',
    schedulerName: 'default-scheduler',
    serviceAccountName: 'default',
    terminationGracePeriodSeconds: 30,
    dnsPolicy: 'ClusterFirst',
    // What the API server fills in on every pod (defaults and the Priority and
    // DefaultTolerationSeconds admission plugins), as a real pods.json shows.
    serviceAccount: 'default',
    securityContext: {},
    tolerations: [
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ],
    priority: 0,
    enableServiceLinks: true,
    preemptionPolicy: 'PreemptLowerPriority',
  };
  if (plan.initContainers) spec['initContainers'] = plan.initContainers.map(containerSpec);
  if (plan.volumes) spec['volumes'] = plan.volumes;
  if (plan.hostname) spec['hostname'] = plan.hostname;
  if (plan.subdomain) spec['subdomain'] = plan.subdomain;
  const status: Record<string, unknown> = {
    phase: waiting && !allReady ? 'Pending' : 'Running',
    conditions: [
      { type: 'Initialized', status: 'True', lastProbeTime: null, lastTransitionTime: transition },
      {
        type: 'Ready',
        status: allReady ? 'True' : 'False',
        lastProbeTime: null,
        lastTransitionTime: transition,
        ...(allReady ? {} : { reason: 'ContainersNotReady', message: `containers with unready status: [${plan.containers.filter((c) => c.ready === false || (c.state && !('running' in c.state))).map((c) => c.name).join(' ')}]` }),
      },
      {
        type: 'ContainersReady',
        status: allReady ? 'True' : 'False',
        lastProbeTime: null,
        lastTransitionTime: transition,
        ...(allReady ? {} : { reason: 'ContainersNotReady', message: `containers with unready status: [${plan.containers.filter((c) => c.ready === false || (c.state && !('running' in c.state))).map((c) => c.name).join(' ')}]` }),
      },
      { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: created },
    ],
    hostIP: plan.hostIP,
    podIP: plan.podIP,
    podIPs: [{ ip: plan.podIP }],
    startTime: created,
    qosClass: 'BestEffort',
    containerStatuses: statuses,
  };
  if (plan.initContainers) status['initContainerStatuses'] = plan.initContainers.map((container) => containerStatus(plan, container));
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec, status };
}

/** What an event is about and says. */
export interface EventPlan {
  namespace: string;
  involved: { kind: string; name: string; apiVersion: string; fieldPath?: string; namespace?: string };
  reason: string;
  message: string;
  type: 'Normal' | 'Warning';
  component: string;
  host?: string;
  count: number;
  firstTimestamp: string;
  lastTimestamp: string;
}

/** A core/v1 Event as the old-style recorder (kubelet, controllers) writes it. */
export function eventObject(plan: EventPlan): KubeObject {
  const involvedNamespace = plan.involved.namespace ?? plan.namespace;
  const suffix = (Date.parse(plan.firstTimestamp) * 1000 + plan.reason.length).toString(16);
  const event: KubeObject = {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${plan.involved.name}.${suffix}`, namespace: plan.namespace, creationTimestamp: plan.firstTimestamp },
    involvedObject: {
      kind: plan.involved.kind,
      namespace: involvedNamespace,
      name: plan.involved.name,
      uid: deterministicUid(`${plan.involved.kind}/${involvedNamespace}/${plan.involved.name}`),
      apiVersion: plan.involved.apiVersion,
      ...(plan.involved.fieldPath ? { fieldPath: plan.involved.fieldPath } : {}),
    },
    reason: plan.reason,
    message: plan.message,
    source: plan.host ? { component: plan.component, host: plan.host } : { component: plan.component },
    firstTimestamp: plan.firstTimestamp,
    lastTimestamp: plan.lastTimestamp,
    count: plan.count,
    type: plan.type,
    eventTime: null,
    reportingComponent: plan.component,
    reportingInstance: plan.host ?? '',
  };
  return event;
}

/** A ClusterIP (or headless, with clusterIP "None") service. */
export function serviceObject(namespace: string, name: string, options: { selector: Record<string, string>; ports: Record<string, unknown>[]; clusterIP: string; labels?: Record<string, string> }): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace, ...(options.labels && Object.keys(options.labels).length > 0 ? { labels: options.labels } : {}) },
    spec: { selector: options.selector, ports: options.ports, clusterIP: options.clusterIP, clusterIPs: [options.clusterIP], type: 'ClusterIP', sessionAffinity: 'None' },
    status: { loadBalancer: {} },
  };
}

/** A ConfigMap. */
export function configMapObject(namespace: string, name: string, data: Record<string, string>): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data };
}

/** A Secret: the collector must never read one; the simulator still serves it. */
export function secretObject(namespace: string, name: string, data: Record<string, string>): KubeObject {
  const encoded = Object.fromEntries(Object.entries(data).map(([key, value]) => [key, Buffer.from(value).toString('base64')]));
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace }, type: 'Opaque', data: encoded };
}

/** A container of a workload's pod template. */
export interface TemplateContainer {
  name: string;
  image: string;
}

/**
 * A workload controller object (Deployment, StatefulSet, DaemonSet, ReplicaSet)
 * with the pod template a real API server requires (a create without one is
 * Invalid: `spec.template.spec.containers: Required value`), labelled to match
 * the selector.
 */
export function workloadObject(
  kind: 'Deployment' | 'StatefulSet' | 'DaemonSet' | 'ReplicaSet',
  namespace: string,
  name: string,
  spec: Record<string, unknown>,
  status: Record<string, unknown>,
  labels: Record<string, string> = {},
  containers: TemplateContainer[] = [],
): KubeObject {
  const selector = (spec['selector'] as { matchLabels?: Record<string, string> } | undefined)?.matchLabels ?? {};
  const template = spec['template'] ?? {
    metadata: { labels: selector },
    spec: {
      containers: containers.map((container) => containerSpec({ name: container.name, image: container.image })),
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      schedulerName: 'default-scheduler',
      securityContext: {},
    },
  };
  const served = { ...WORKLOAD_SPEC_DEFAULTS[kind], ...spec, template };
  // Zero counters tagged omitempty are absent from what the API server sends.
  const counters = Object.entries({ observedGeneration: 1, ...status }).filter(([key, value]) => !(value === 0 && OMITEMPTY_STATUS_FIELDS[kind].includes(key)));
  // Empty maps are omitempty: a real server serves no `labels: {}`.
  const metadata: KubeObject['metadata'] = { name, namespace, ...(Object.keys(labels).length > 0 ? { labels } : {}), generation: 1 };
  // The DaemonSet strategy stamps the template generation on create (daemonset/strategy.go).
  if (kind === 'DaemonSet') metadata['annotations'] = { 'deprecated.daemonset.template.generation': '1' };
  const counts = kind === 'DaemonSet' ? { numberMisscheduled: 0, ...Object.fromEntries(counters) } : Object.fromEntries(counters);
  return { apiVersion: 'apps/v1', kind, metadata, spec: served, status: counts };
}

/** apps/v1 defaults (pkg/apis/apps/v1/defaults.go) a real server adds to a created workload. */
const WORKLOAD_SPEC_DEFAULTS: Record<'Deployment' | 'StatefulSet' | 'DaemonSet' | 'ReplicaSet', Record<string, unknown>> = {
  Deployment: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } }, revisionHistoryLimit: 10, progressDeadlineSeconds: 600 },
  StatefulSet: { podManagementPolicy: 'OrderedReady', updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } }, revisionHistoryLimit: 10 },
  DaemonSet: { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } }, revisionHistoryLimit: 10 },
  ReplicaSet: {},
};

/** Status fields of the apps/v1 types whose json tag has omitempty (k8s.io/api/apps/v1/types.go). */
const OMITEMPTY_STATUS_FIELDS: Record<'Deployment' | 'StatefulSet' | 'DaemonSet' | 'ReplicaSet', string[]> = {
  Deployment: ['observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas', 'collisionCount'],
  StatefulSet: ['observedGeneration', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'collisionCount'],
  DaemonSet: ['observedGeneration', 'updatedNumberScheduled', 'numberAvailable', 'numberUnavailable', 'collisionCount'],
  ReplicaSet: ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration'],
};
