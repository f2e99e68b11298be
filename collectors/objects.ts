import { clusterListPath, namespacedListPath } from '../archive/layout.js';
import type { RawObject } from '../kube/list.js';
import { jsonListUnit } from './json-list.js';
import { NAMESPACED_OBJECTS, PERSISTENT_VOLUMES, listPath } from './resources.js';
import type { Collector, CollectUnit } from './types.js';

/**
 * Object state: persistent volumes, and per namespace
 * the workload, service and storage lists. Pods, namespaces and nodes come with
 * the inventory; events have their own collector.
 */
export const objectsCollector: Collector = {
  name: 'objects',
  async collect(context) {
    const units: CollectUnit[] = [
      jsonListUnit(context, clusterListPath(PERSISTENT_VOLUMES.fileStem), 'cluster', { apiPath: listPath(PERSISTENT_VOLUMES) }),
    ];
    for (const namespace of context.inventory.namespaces) {
      for (const kind of NAMESPACED_OBJECTS) {
        const transform = kind.resource === 'configmaps' ? withoutConfigMapValues : undefined;
        units.push(jsonListUnit(context, namespacedListPath(namespace, kind.fileStem), 'objects', { apiPath: listPath(kind, namespace), transform }));
      }
    }
    await Promise.all(units.map((unit) => context.run(unit)));
  },
};

/**
 * ConfigMaps often carry credentials that should have been Secrets; a dump keeps
 * their names and keys, and each value's size in place of the value.
 */
export function withoutConfigMapValues(item: RawObject): RawObject {
  const redact = (data: unknown): Record<string, string> | undefined => {
    if (!data || typeof data !== 'object') return undefined;
    const sizes: Record<string, string> = {};
    for (const [key, value] of Object.entries(data as Record<string, unknown>)) {
      sizes[key] = `(${typeof value === 'string' ? Buffer.byteLength(value) : 0} bytes, value not collected)`;
    }
    return sizes;
  };
  const { data, binaryData, ...rest } = item as RawObject & { data?: unknown; binaryData?: unknown };
  const redacted: RawObject = { ...rest };
  if (data !== undefined) redacted['data'] = redact(data);
  if (binaryData !== undefined) redacted['binaryData'] = redact(binaryData);
  return redacted;
}
