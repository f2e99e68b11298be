/**
 * The API resources the simulator serves, as one literal table, and the
 * discovery documents kubectl reads before `get` and `logs`. Verbs, kinds and
 * short names are those of a real 1.32 kube-apiserver, so kubectl resolves
 * `po`, `sts`, `ev`... exactly as against a real cluster.
 */

/** One listable resource of one group/version. */
export interface ResourceInfo {
  group: string;
  version: string;
  /** Plural, lower-case: the path segment. */
  resource: string;
  kind: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  /** The kind of the objects this resource is stored as (events.k8s.io serves core events). */
  storedKind: string;
}

const READ_WRITE = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

function core(resource: string, kind: string, namespaced: boolean, shortNames: string[], categories: string[] = []): ResourceInfo {
  return { group: '', version: 'v1', resource, kind, namespaced, shortNames, categories, storedKind: kind };
}

function grouped(group: string, resource: string, kind: string, shortNames: string[], categories: string[] = []): ResourceInfo {
  return { group, version: 'v1', resource, kind, namespaced: true, shortNames, categories, storedKind: kind };
}

/** Every resource served, in the order discovery lists them. */
export const RESOURCES: readonly ResourceInfo[] = [
  core('configmaps', 'ConfigMap', true, ['cm']),
  core('endpoints', 'Endpoints', true, ['ep']),
  core('events', 'Event', true, ['ev']),
  core('namespaces', 'Namespace', false, ['ns']),
  core('nodes', 'Node', false, ['no']),
  core('persistentvolumeclaims', 'PersistentVolumeClaim', true, ['pvc']),
  core('persistentvolumes', 'PersistentVolume', false, ['pv']),
  core('pods', 'Pod', true, ['po'], ['all']),
  core('replicationcontrollers', 'ReplicationController', true, ['rc'], ['all']),
  core('secrets', 'Secret', true, []),
  core('services', 'Service', true, ['svc'], ['all']),
  grouped('apps', 'daemonsets', 'DaemonSet', ['ds'], ['all']),
  grouped('apps', 'deployments', 'Deployment', ['deploy'], ['all']),
  grouped('apps', 'replicasets', 'ReplicaSet', ['rs'], ['all']),
  grouped('apps', 'statefulsets', 'StatefulSet', ['sts'], ['all']),
  grouped('batch', 'cronjobs', 'CronJob', ['cj'], ['all']),
  grouped('batch', 'jobs', 'Job', [], ['all']),
  { ...grouped('events.k8s.io', 'events', 'Event', ['ev']), storedKind: 'Event' },
];

/** Subresources listed in discovery next to their parent, with their real verbs. */
const SUBRESOURCES: Record<string, { name: string; kind: string; verbs: string[] }[]> = {
  'v1/pods': [
    { name: 'pods/log', kind: 'Pod', verbs: ['get'] },
    { name: 'pods/status', kind: 'Pod', verbs: ['get', 'patch', 'update'] },
  ],
  'v1/nodes': [
    { name: 'nodes/proxy', kind: 'NodeProxyOptions', verbs: ['create', 'delete', 'get', 'patch', 'update'] },
    { name: 'nodes/status', kind: 'Node', verbs: ['get', 'patch', 'update'] },
  ],
};

/** `apps/v1`, or `v1` for the core group. */
export function groupVersionOf(info: { group: string; version: string }): string {
  return info.group ? `${info.group}/${info.version}` : info.version;
}

/** The resource served at group/version/plural, if any. */
export function findResource(group: string, version: string, resource: string): ResourceInfo | undefined {
  return RESOURCES.find((info) => info.group === group && info.version === version && info.resource === resource);
}

/** The groups other than core, in discovery order. */
export function apiGroups(): string[] {
  return [...new Set(RESOURCES.filter((info) => info.group !== '').map((info) => info.group))];
}

/** `GET /version`: what kubectl's dispatcher reads to pick a client. */
export function versionInfo(): Record<string, string> {
  return {
    major: '1',
    minor: '32',
    gitVersion: 'v1.32.4',
    gitCommit: '59526cd4867447956156ae3a602fcbac5f54f2e5',
    gitTreeState: 'clean',
    buildDate: '2025-04-22T16:03:32Z',
    goVersion: 'go1.23.6',
    compiler: 'gc',
    platform: 'linux/amd64',
  };
}

/** `GET /api` (APIVersions). */
export function coreApiVersions(): Record<string, unknown> {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1:6443' }],
  };
}

/**
 * `GET /apis` as a plain APIGroupList: kubectl 1.32 asks for aggregated
 * discovery first but accepts this legacy shape (checked against real kubectl).
 */
export function apiGroupList(): Record<string, unknown> {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: apiGroups().map((group) => {
      const version = { groupVersion: `${group}/v1`, version: 'v1' };
      return { name: group, versions: [version], preferredVersion: version };
    }),
  };
}

/** `GET /apis/{group}` (APIGroup). */
export function apiGroup(group: string): Record<string, unknown> | undefined {
  if (!apiGroups().includes(group)) return undefined;
  const version = { groupVersion: `${group}/v1`, version: 'v1' };
  return { kind: 'APIGroup', apiVersion: 'v1', name: group, versions: [version], preferredVersion: version };
}

/** `GET /api/v1` or `/apis/{group}/{version}` (APIResourceList), or undefined when not served. */
export function apiResourceList(group: string, version: string): Record<string, unknown> | undefined {
  const served = RESOURCES.filter((info) => info.group === group && info.version === version);
  if (served.length === 0) return undefined;
  const resources: Record<string, unknown>[] = [];
  for (const info of served) {
    const entry: Record<string, unknown> = {
      name: info.resource,
      singularName: info.kind.toLowerCase(),
      namespaced: info.namespaced,
      kind: info.kind,
      verbs: READ_WRITE,
    };
    if (info.shortNames.length > 0) entry['shortNames'] = info.shortNames;
    if (info.categories.length > 0) entry['categories'] = info.categories;
    resources.push(entry);
    for (const sub of SUBRESOURCES[`${groupVersionOf(info)}/${info.resource}`] ?? []) {
      resources.push({ name: sub.name, singularName: '', namespaced: info.namespaced, kind: sub.kind, verbs: sub.verbs });
    }
  }
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: groupVersionOf({ group, version }), resources };
}
