/**
 * Every path inside a dump is built here, so the layout documented in the README
 * has one source. Paths are POSIX and relative to the dump's root.
 *
 *   manifest.json
 *   cluster/version.json
 *   cluster/{nodes,namespaces,persistentvolumes}.json
 *   namespaces/{ns}/{resource}.json
 *   namespaces/{ns}/pods/{pod}/{container}.log
 *   namespaces/{ns}/pods/{pod}/{container}.previous.log
 *   nodes/{node}/kubelet.log
 *   nodes/{node}/{name}.log
 */

export const MANIFEST_PATH = 'manifest.json';
export const VERSION_PATH = 'cluster/version.json';

/**
 * Kubernetes names are DNS labels or subdomains, but a dump may come from a
 * misbehaving server: never let a name climb out of its folder or hide.
 */
export function safeSegment(name: string): string {
  const cleaned = name.replace(/[/\\\0]/g, '_');
  if (cleaned === '' || cleaned === '.' || cleaned === '..') return `_${cleaned}_`;
  return cleaned;
}

/** `cluster/nodes.json` and the other cluster-scoped lists. */
export function clusterListPath(fileStem: string): string {
  return `cluster/${safeSegment(fileStem)}.json`;
}

/** `namespaces/{ns}/{fileStem}.json`, e.g. `namespaces/default/pods.json`. */
export function namespacedListPath(namespace: string, fileStem: string): string {
  return `namespaces/${safeSegment(namespace)}/${safeSegment(fileStem)}.json`;
}

/** The log of a container's current (or, with `previous`, last terminated) instance. */
export function containerLogPath(namespace: string, pod: string, container: string, previous: boolean): string {
  const file = previous ? `${safeSegment(container)}.previous.log` : `${safeSegment(container)}.log`;
  return `namespaces/${safeSegment(namespace)}/pods/${safeSegment(pod)}/${file}`;
}

/** `nodes/{node}/kubelet.log`, `nodes/{node}/kube-proxy.log`. */
export function nodeLogPath(node: string, logName: string): string {
  return `nodes/${safeSegment(node)}/${safeSegment(logName)}.log`;
}

/** Written by `collect --analyze`: the analysis as data and as the summary people read. */
export const FINDINGS_PATH = 'analysis/findings.json';
export const SUMMARY_PATH = 'analysis/summary.md';
