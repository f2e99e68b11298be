import { namespacedListPath } from '../archive/layout.js';
import { jsonListUnit } from './json-list.js';
import { CORE_EVENTS, EVENTS_API_EVENTS, listPath } from './resources.js';
import type { Collector } from './types.js';

/**
 * Events of both APIs, per namespace. They overlap, but not exactly: clients
 * that write only events.k8s.io/v1 fill fields (series, reportingInstance,
 * note) that the core view flattens, so both are kept.
 */
export const eventsCollector: Collector = {
  name: 'events',
  async collect(context) {
    const units = context.inventory.namespaces.flatMap((namespace) =>
      [CORE_EVENTS, EVENTS_API_EVENTS].map((kind) =>
        jsonListUnit(context, namespacedListPath(namespace, kind.fileStem), 'events', { apiPath: listPath(kind, namespace) }),
      ),
    );
    await Promise.all(units.map((unit) => context.run(unit)));
  },
};
