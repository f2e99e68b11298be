/**
 * `statefulset-quorum-deadlock`: the failed e2e run of kubernetes/test-infra's
 * "Add StatefulSet tests to non-blocking" thread (Feb 2017). The test takes
 * down all three CockroachDB pods; the StatefulSet (OrderedReady) brings back
 * cockroachdb-0 first and waits for it to be Ready. CockroachDB's health check
 * (/health?ready=1) fails while the node is in a minority partition, so
 * cockroachdb-0 never becomes Ready and cockroachdb-1/-2 are never created.
 * Meanwhile the kubelet cannot report the Unhealthy events ("object does not
 * implement the List interfaces"), which is only visible in its own log.
 */
import type { ContainerLogs, KubeObject, NodeLogs, Scenario } from '../types.js';
import {
  configMapObject,
  eventObject,
  namespaceObject,
  nodeObject,
  podObject,
  secondsBefore,
  secretObject,
  serviceObject,
  workloadObject,
  type EventPlan,
} from './objects.js';
import { generatedNodeLogs, klogStamp, systemPart, type NodePlacement } from './system.js';

const NOW = '2017-02-10T19:20:00Z';
const NAMESPACE = 'e2e-tests-statefulset-vtc1w';
const POD = 'cockroachdb-0';
const POD_UID = 'bd50bec4-efc4-11e6-8f42-42010af00002';
const KUBELET_PID = 1353;
const IMAGE = 'cockroachdb/cockroach:beta-20170209';
const INIT_IMAGE = 'cockroachdb/cockroach-k8s-init:0.1';
/** The pod came back this long before now. */
const POD_AGE_SECONDS = 570;
/** The readiness probe period of the 2017 manifest. */
const PROBE_PERIOD_SECONDS = 10;

const NODES: NodePlacement[] = [
  { name: 'bootstrap-e2e-minion-group-6n2k', ip: '10.240.0.3' },
  { name: 'bootstrap-e2e-minion-group-9rqb', ip: '10.240.0.4' },
  { name: 'bootstrap-e2e-minion-group-tw3j', ip: '10.240.0.5' },
];
const POD_NODE = NODES[0] as NodePlacement;

const UNHEALTHY = 'Readiness probe failed: HTTP probe failed with statuscode: 404';

/** A klog line of the kubelet `secondsAgo` before now, with its time. */
function kubeletLine(level: 'I' | 'W' | 'E', secondsAgo: number, micros: number, source: string, message: string): [string, string] {
  const stamp = klogStamp(NOW, secondsAgo).replace(/\.000000$/, `.${String(micros).padStart(6, '0')}`);
  const time = `${secondsBefore(NOW, secondsAgo).slice(0, 19)}.${String(micros).padStart(6, '0')}Z`;
  return [`${level}${stamp}    ${KUBELET_PID} ${source}] ${message}`, time];
}

/** The kubelet log of the pod's node: normal sync lines and, every probe period, the unreportable event. */
function kubeletLog(): { lines: string[]; times: string[] } {
  const entries: [string, string][] = [
    kubeletLine('I', POD_AGE_SECONDS + 5, 118204, 'kubelet.go:1800', `SyncLoop (ADD, "api"): "${POD}_${NAMESPACE}(${POD_UID})"`),
    kubeletLine('I', POD_AGE_SECONDS + 4, 402311, 'reconciler.go:231', `VerifyControllerAttachedVolume operation started for volume "kubernetes.io/gce-pd/pvc-datadir-cockroachdb-0" (spec.Name: "pvc-datadir-cockroachdb-0") pod "${POD_UID}" (UID: "${POD_UID}")`),
    kubeletLine('I', POD_AGE_SECONDS + 2, 77419, 'operation_executor.go:917', `MountVolume.SetUp succeeded for volume "kubernetes.io/gce-pd/pvc-datadir-cockroachdb-0" (spec.Name: "pvc-datadir-cockroachdb-0") pod "${POD_UID}" (UID: "${POD_UID}").`),
    kubeletLine('I', POD_AGE_SECONDS, 904576, 'docker_manager.go:2236', `Determined pod ip after infra change: "${POD}_${NAMESPACE}(${POD_UID})": "10.180.1.12"`),
    kubeletLine('I', POD_AGE_SECONDS - 20, 351002, 'kubelet.go:1835', `SyncLoop (PLEG): "${POD}_${NAMESPACE}(${POD_UID})", event: &pleg.PodLifecycleEvent{ID:"${POD_UID}", Type:"ContainerStarted"}`),
  ];
  for (let ago = POD_AGE_SECONDS - 30; ago > 0; ago -= PROBE_PERIOD_SECONDS) {
    const micros = (46912 + ago * 7919) % 1_000_000;
    entries.push(
      kubeletLine('I', ago, micros, 'prober.go:106', `Readiness probe for "${POD}_${NAMESPACE}(${POD_UID}):cockroachdb" failed (failure): HTTP probe failed with statuscode: 404`),
      kubeletLine(
        'E',
        ago,
        micros + 5,
        'event.go:259',
        `Could not construct reference to: '&v1.ObjectReference{Kind:"Pod", Namespace:"${NAMESPACE}", Name:"${POD}", UID:"${POD_UID}", APIVersion:"v1", ResourceVersion:"1521", FieldPath:"spec.containers{cockroachdb}"}' due to: 'object does not implement the List interfaces'. Will not report event: 'Warning' 'Unhealthy' '${UNHEALTHY}'`,
      ),
    );
    if (ago % 60 === 0) {
      entries.push(kubeletLine('I', ago, micros + 900, 'kubelet_node_status.go:77', `Attempting to register node ${POD_NODE.name}`));
    }
  }
  return { lines: entries.map(([line]) => line), times: entries.map(([, time]) => time) };
}

/** A CockroachDB log line (its own klog-like format: year digits, goroutine id, file:line). */
function cockroachLine(level: 'I' | 'W' | 'E', secondsAgo: number, goroutine: number, source: string, message: string): [string, string] {
  const iso = secondsBefore(NOW, secondsAgo);
  const micros = String((123456 + secondsAgo * 104729) % 1_000_000).padStart(6, '0');
  return [`${level}17${iso.slice(5, 7)}${iso.slice(8, 10)} ${iso.slice(11, 19)}.${micros} ${goroutine} ${source}  ${message}`, `${iso.slice(0, 19)}.${micros}Z`];
}

/** cockroachdb-0 restarted alone: it cannot reach its peers, so no range has a quorum. */
function cockroachLog(): { lines: string[]; times: string[] } {
  const start = POD_AGE_SECONDS - 25;
  const entries: [string, string][] = [
    cockroachLine('I', start, 1, 'cli/start.go:432', 'CockroachDB beta-20170209 (linux amd64, built 2017/02/09 16:16:03, go1.7.5)'),
    cockroachLine('I', start, 1, 'cli/start.go:480', 'starting cockroach node'),
    cockroachLine('I', start - 1, 1, 'storage/engine/rocksdb.go:340', 'opening rocksdb instance at "/cockroach/cockroach-data"'),
    cockroachLine('I', start - 1, 1, 'server/config.go:443', '1 storage engine initialized'),
    cockroachLine('I', start - 2, 1, 'server/node.go:420', '[n1] initialized store [n1,s1]: {Capacity:1056858112 Available:1001459712 RangeCount:10 LeaseCount:0}'),
    cockroachLine('I', start - 2, 1, 'server/node.go:337', '[n1] node ID 1 initialized'),
    cockroachLine('I', start - 2, 1, 'gossip/gossip.go:297', '[n1] NodeDescriptor set to node_id:1 address:<network_field:"tcp" address_field:"cockroachdb-0.cockroachdb.e2e-tests-statefulset-vtc1w.svc.cluster.local:26257" >'),
    cockroachLine('I', start - 3, 1, 'server/server.go:629', '[n1] starting http server at cockroachdb-0.cockroachdb.e2e-tests-statefulset-vtc1w.svc.cluster.local:8080'),
    cockroachLine('I', start - 3, 1, 'cli/start.go:600', 'node startup completed'),
  ];
  for (let ago = start - 10, round = 0; ago > 0; ago -= 15, round++) {
    const peer = round % 2 === 0 ? 'cockroachdb-1' : 'cockroachdb-2';
    entries.push(
      cockroachLine('W', ago, 87, 'gossip/client.go:124', `[n1] failed to start gossip client: rpc error: code = 14 desc = grpc: the connection is unavailable; unable to connect to ${peer}.cockroachdb:26257: dial tcp: lookup ${peer}.cockroachdb on 10.0.0.10:53: no such host`),
      cockroachLine('W', ago - 1, 152, 'storage/replica.go:1872', `[n1,s1,r1/1:/{Min-System/}] have been waiting ${Math.round((start - ago) / 60) + 1}m0s for proposing command RequestLease [/Min,/Min)`),
      cockroachLine('E', ago - 2, 201, 'server/status.go:730', '[n1] health check failed: not enough live nodes to make progress: 1 of 3 nodes live, range unavailable: r1 has no quorum'),
    );
    if (ago % 60 < 15) {
      entries.push(cockroachLine('W', ago - 3, 33, 'server/node.go:745', '[n1] unable to compute metrics: 10 ranges unavailable (0 leaseholders, quorum needs 2 of 3 replicas)'));
    }
  }
  return { lines: entries.map(([line]) => line), times: entries.map(([, time]) => time) };
}

/** The init container of the 2017 manifest decides whether to bootstrap a new cluster. */
function initLog(): { lines: string[]; times: string[] } {
  const lines = [
    '+ /cockroach/cockroach-k8s-init',
    `Looking up peers of ${POD} via SRV cockroachdb.${NAMESPACE}.svc.cluster.local`,
    'Found 0 ready peers; data directory /cockroach/cockroach-data already initialized, not bootstrapping',
  ];
  return { lines, times: lines.map((_, index) => secondsBefore(NOW, POD_AGE_SECONDS - 3 - index)) };
}

function cockroachEvents(): EventPlan[] {
  const pod = { kind: 'Pod', name: POD, apiVersion: 'v1' };
  const kubelet = (reason: string, message: string, secondsAgo: number, fieldPath: string): EventPlan => ({
    namespace: NAMESPACE,
    involved: { ...pod, fieldPath },
    reason,
    message,
    type: 'Normal',
    component: 'kubelet',
    host: POD_NODE.name,
    count: 1,
    firstTimestamp: secondsBefore(NOW, secondsAgo),
    lastTimestamp: secondsBefore(NOW, secondsAgo),
  });
  const probes = Math.floor((POD_AGE_SECONDS - 30) / PROBE_PERIOD_SECONDS);
  return [
    {
      namespace: NAMESPACE,
      involved: { kind: 'StatefulSet', name: 'cockroachdb', apiVersion: 'apps/v1' },
      reason: 'SuccessfulCreate',
      message: `create Pod ${POD} in StatefulSet cockroachdb successful`,
      type: 'Normal',
      component: 'statefulset-controller',
      count: 2,
      firstTimestamp: secondsBefore(NOW, 1500),
      lastTimestamp: secondsBefore(NOW, POD_AGE_SECONDS + 1),
    },
    {
      namespace: NAMESPACE,
      involved: pod,
      reason: 'Scheduled',
      message: `Successfully assigned ${NAMESPACE}/${POD} to ${POD_NODE.name}`,
      type: 'Normal',
      component: 'default-scheduler',
      count: 1,
      firstTimestamp: secondsBefore(NOW, POD_AGE_SECONDS),
      lastTimestamp: secondsBefore(NOW, POD_AGE_SECONDS),
    },
    kubelet('Pulled', `Container image "${INIT_IMAGE}" already present on machine`, POD_AGE_SECONDS - 2, 'spec.initContainers{bootstrap}'),
    kubelet('Created', 'Created container bootstrap', POD_AGE_SECONDS - 2, 'spec.initContainers{bootstrap}'),
    kubelet('Started', 'Started container bootstrap', POD_AGE_SECONDS - 3, 'spec.initContainers{bootstrap}'),
    kubelet('Pulled', `Container image "${IMAGE}" already present on machine`, POD_AGE_SECONDS - 24, 'spec.containers{cockroachdb}'),
    kubelet('Created', 'Created container cockroachdb', POD_AGE_SECONDS - 24, 'spec.containers{cockroachdb}'),
    kubelet('Started', 'Started container cockroachdb', POD_AGE_SECONDS - 25, 'spec.containers{cockroachdb}'),
    {
      namespace: NAMESPACE,
      involved: { ...pod, fieldPath: 'spec.containers{cockroachdb}' },
      reason: 'Unhealthy',
      message: UNHEALTHY,
      type: 'Warning',
      component: 'kubelet',
      host: POD_NODE.name,
      count: probes,
      firstTimestamp: secondsBefore(NOW, POD_AGE_SECONDS - 30),
      lastTimestamp: secondsBefore(NOW, PROBE_PERIOD_SECONDS),
    },
  ];
}

function storageObjects(): KubeObject[] {
  return [0, 1, 2].flatMap((ordinal) => {
    const claim = `datadir-cockroachdb-${ordinal}`;
    const volume = `pvc-${claim}`;
    return [
      {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        // The finalizer is the StorageObjectInUseProtection admission plugin's, on every claim.
        metadata: { name: claim, namespace: NAMESPACE, labels: { app: 'cockroachdb' }, finalizers: ['kubernetes.io/pvc-protection'] },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeName: volume, storageClassName: 'standard', volumeMode: 'Filesystem' },
        status: { phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' } },
      },
      {
        apiVersion: 'v1',
        kind: 'PersistentVolume',
        metadata: { name: volume, finalizers: ['kubernetes.io/pv-protection'] },
        spec: {
          volumeMode: 'Filesystem',
          accessModes: ['ReadWriteOnce'],
          capacity: { storage: '1Gi' },
          claimRef: { kind: 'PersistentVolumeClaim', namespace: NAMESPACE, name: claim, apiVersion: 'v1' },
          gcePersistentDisk: { pdName: `bootstrap-e2e-dynamic-${volume}`, fsType: 'ext4' },
          persistentVolumeReclaimPolicy: 'Delete',
          storageClassName: 'standard',
        },
        status: { phase: 'Bound' },
      },
    ] satisfies KubeObject[];
  });
}

function cockroachObjects(): KubeObject[] {
  const labels = { app: 'cockroachdb' };
  const pod = podObject({
    namespace: NAMESPACE,
    name: POD,
    node: POD_NODE.name,
    now: NOW,
    ageSeconds: POD_AGE_SECONDS,
    labels: { ...labels, 'statefulset.kubernetes.io/pod-name': POD },
    owner: { kind: 'StatefulSet', name: 'cockroachdb', apiVersion: 'apps/v1' },
    podIP: '10.180.1.12',
    hostIP: POD_NODE.ip,
    hostname: POD,
    subdomain: 'cockroachdb',
    volumes: [{ name: 'datadir', persistentVolumeClaim: { claimName: 'datadir-cockroachdb-0' } }],
    initContainers: [{ name: 'bootstrap', image: INIT_IMAGE, state: { terminated: { exitCode: 0, reason: 'Completed' } }, ready: true }],
    containers: [
      {
        name: 'cockroachdb',
        image: IMAGE,
        ready: false,
        ports: [
          { containerPort: 26257, name: 'grpc', protocol: 'TCP' },
          { containerPort: 8080, name: 'http', protocol: 'TCP' },
        ],
        readinessProbe: {
          httpGet: { path: '/health?ready=1', port: 8080, scheme: 'HTTP' },
          initialDelaySeconds: 10,
          periodSeconds: PROBE_PERIOD_SECONDS,
          timeoutSeconds: 1,
          successThreshold: 1,
          failureThreshold: 3,
        },
      },
    ],
  });
  pod.metadata['uid'] = POD_UID;
  pod.metadata['resourceVersion'] = '1521';
  return [
    pod,
    workloadObject(
      'StatefulSet',
      NAMESPACE,
      'cockroachdb',
      {
        replicas: 3,
        serviceName: 'cockroachdb',
        podManagementPolicy: 'OrderedReady',
        selector: { matchLabels: labels },
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
        // Served with their type meta, the defaulted volumeMode and an empty-claim status.
        volumeClaimTemplates: [
          {
            apiVersion: 'v1',
            kind: 'PersistentVolumeClaim',
            metadata: { name: 'datadir' },
            spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' },
            status: { phase: 'Pending' },
          },
        ],
      },
      { replicas: 1, readyReplicas: 0, currentReplicas: 1, updatedReplicas: 1, availableReplicas: 0, currentRevision: 'cockroachdb-6c4d8bb5f8', updateRevision: 'cockroachdb-6c4d8bb5f8' },
      labels,
      [{ name: 'cockroachdb', image: IMAGE }],
    ),
    serviceObject(NAMESPACE, 'cockroachdb', {
      selector: labels,
      labels,
      clusterIP: 'None',
      ports: [
        { name: 'grpc', port: 26257, targetPort: 26257, protocol: 'TCP' },
        { name: 'http', port: 8080, targetPort: 8080, protocol: 'TCP' },
      ],
    }),
    serviceObject(NAMESPACE, 'cockroachdb-public', {
      selector: labels,
      labels,
      clusterIP: '10.0.171.52',
      ports: [
        { name: 'grpc', port: 26257, targetPort: 26257, protocol: 'TCP' },
        { name: 'http', port: 8080, targetPort: 8080, protocol: 'TCP' },
      ],
    }),
    {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'cockroachdb', namespace: NAMESPACE, labels },
      subsets: [
        {
          notReadyAddresses: [{ ip: '10.180.1.12', hostname: POD, nodeName: POD_NODE.name, targetRef: { kind: 'Pod', namespace: NAMESPACE, name: POD, uid: POD_UID } }],
          ports: [
            { name: 'grpc', port: 26257, protocol: 'TCP' },
            { name: 'http', port: 8080, protocol: 'TCP' },
          ],
        },
      ],
    },
    configMapObject(NAMESPACE, 'cockroachdb-config', { 'start-flags': '--insecure --host $(hostname -f) --join cockroachdb-0.cockroachdb,cockroachdb-1.cockroachdb,cockroachdb-2.cockroachdb' }),
    secretObject('kube-system', 'e2e-gcp-credentials', { 'key.json': '{"type":"service_account","private_key":"not-a-real-key"}' }),
    ...storageObjects(),
    ...cockroachEvents().map(eventObject),
  ];
}

function nodeLogs(): NodeLogs[] {
  return NODES.map((node, index) => {
    if (index !== 0) return generatedNodeLogs(node.name, 96 * 1024, false);
    const kubelet = kubeletLog();
    const kubeProxy = generatedNodeLogs(node.name, 32 * 1024, true).logs['kube-proxy'];
    return {
      node: node.name,
      nodeLogQuery: true,
      logs: kubeProxy ? { kubelet, 'kube-proxy': kubeProxy } : { kubelet },
      journalUnits: ['kubelet'],
    };
  });
}

/** Builds the scenario (it takes no parameters). */
export function buildStatefulsetQuorumDeadlock(): Scenario {
  const system = systemPart(NODES, NOW);
  const containerLogs: ContainerLogs[] = [
    ...system.containerLogs,
    { namespace: NAMESPACE, pod: POD, container: 'bootstrap', current: initLog() },
    { namespace: NAMESPACE, pod: POD, container: 'cockroachdb', current: cockroachLog() },
  ];
  return {
    name: 'statefulset-quorum-deadlock',
    description:
      'CockroachDB StatefulSet (OrderedReady, 3 replicas) stuck at cockroachdb-0 Running but never Ready: no quorum without its peers, ' +
      'so the readiness probe fails (404) and -1/-2 are never created; the kubelet cannot report the Unhealthy events. ' +
      'NodeLogQuery is on only on the pod\'s node.',
    now: NOW,
    objects: [
      namespaceObject('default'),
      namespaceObject(NAMESPACE),
      ...NODES.map((node) => nodeObject(node.name, { ip: node.ip, now: NOW, kubeletVersion: 'v1.6.0-alpha.2.247+3d0b2b6a8f1e7c' })),
      ...system.objects,
      ...cockroachObjects(),
    ],
    containerLogs,
    nodeLogs: nodeLogs(),
  };
}
