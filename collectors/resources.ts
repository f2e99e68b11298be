/**
 * The resources a dump lists, as data. Secrets are deliberately absent: nothing
 * secret leaves the cluster by accident, so no code path can ask for them.
 */

/** A listable resource and the file it is stored in. */
export interface ResourceKind {
  /** Plural resource name, as in the API path. */
  resource: string;
  /** API group; '' for the core group. */
  group: string;
  version: string;
  /** File stem in the dump: `namespaces/{ns}/{fileStem}.json`. */
  fileStem: string;
}

function kind(resource: string, group = '', version = 'v1', fileStem = resource): ResourceKind {
  return { resource, group, version, fileStem };
}

/** Listed per namespace by the objects collector (pods and events have their own). */
export const NAMESPACED_OBJECTS: readonly ResourceKind[] = [
  kind('services'),
  kind('endpoints'),
  kind('persistentvolumeclaims'),
  kind('configmaps'),
  kind('replicationcontrollers'),
  kind('statefulsets', 'apps'),
  kind('deployments', 'apps'),
  kind('daemonsets', 'apps'),
  kind('replicasets', 'apps'),
  kind('jobs', 'batch'),
];

export const PODS = kind('pods');
export const CORE_EVENTS = kind('events');
/** events.k8s.io/v1 serves the same events in a newer shape; stored beside the core ones. */
export const EVENTS_API_EVENTS = kind('events', 'events.k8s.io', 'v1', 'events.events.k8s.io');

export const NAMESPACES = kind('namespaces');
export const NODES = kind('nodes');
export const PERSISTENT_VOLUMES = kind('persistentvolumes');

/** `/api/v1/...` or `/apis/{group}/{version}/...`, optionally inside a namespace. */
export function listPath(kind: ResourceKind, namespace?: string): string {
  const base = kind.group === '' ? `/api/${kind.version}` : `/apis/${kind.group}/${kind.version}`;
  const scope = namespace === undefined ? '' : `/namespaces/${encodeURIComponent(namespace)}`;
  return `${base}${scope}/${kind.resource}`;
}
