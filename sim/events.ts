/**
 * core/v1 Event → events.k8s.io/v1 Event, field for field as the apiserver's
 * conversion does (pkg/apis/events/v1/conversion.go): the store keeps core
 * events and both APIs serve the same objects, as a real cluster does.
 */
import type { KubeObject } from './types.js';

function copyIfSet(target: Record<string, unknown>, key: string, value: unknown): void {
  if (value !== undefined && value !== null && value !== '') target[key] = value;
}

/** The events.k8s.io/v1 shape of one core/v1 Event. */
export function toEventsV1(event: KubeObject): KubeObject {
  const out: KubeObject = { apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: event.metadata };
  // eventTime is not omitempty in events.k8s.io/v1: old-style events serve null.
  out['eventTime'] = event['eventTime'] ?? null;
  copyIfSet(out, 'series', event['series']);
  copyIfSet(out, 'reportingController', event['reportingComponent']);
  copyIfSet(out, 'reportingInstance', event['reportingInstance']);
  copyIfSet(out, 'action', event['action']);
  copyIfSet(out, 'reason', event['reason']);
  copyIfSet(out, 'regarding', event['involvedObject']);
  copyIfSet(out, 'related', event['related']);
  copyIfSet(out, 'note', event['message']);
  copyIfSet(out, 'type', event['type']);
  const source = event['source'];
  if (source && typeof source === 'object' && Object.keys(source).length > 0) out['deprecatedSource'] = source;
  copyIfSet(out, 'deprecatedFirstTimestamp', event['firstTimestamp']);
  copyIfSet(out, 'deprecatedLastTimestamp', event['lastTimestamp']);
  const count = event['count'];
  if (typeof count === 'number' && count !== 0) out['deprecatedCount'] = count;
  return out;
}
