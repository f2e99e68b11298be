/**
 * Label and field selectors with the semantics of k8s.io/apimachinery
 * pkg/labels and pkg/fields: `!=` and `notin` also match objects without the
 * label; a field selector may only name the fields the resource supports, or
 * the server answers 400 `field label not supported: X`.
 */
import type { KubeObject } from './types.js';
import { StatusError, badRequest } from './status.js';

/** One parsed requirement; `values` is empty for exists/!exists. */
interface LabelRequirement {
  key: string;
  operator: 'in' | 'notin' | 'exists' | '!exists';
  values: string[];
}

/** A compiled selector: true when the object matches. */
export type Matcher = (object: KubeObject) => boolean;

const MATCH_ALL: Matcher = () => true;

/** Splits on commas that are not inside `( )`, as `a in (x,y),b` needs. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of text) {
    if (char === '(') depth++;
    if (char === ')') depth--;
    if (char === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts.map((part) => part.trim()).filter((part) => part !== '');
}

function parseRequirement(text: string): LabelRequirement {
  const setMatch = /^(\S+)\s+(in|notin)\s*\(([^)]*)\)$/.exec(text);
  if (setMatch) {
    const values = (setMatch[3] ?? '').split(',').map((value) => value.trim());
    return { key: setMatch[1] ?? '', operator: setMatch[2] === 'in' ? 'in' : 'notin', values };
  }
  const equality = /^([^=!\s]+)\s*(==|=|!=)\s*(\S*)$/.exec(text);
  if (equality) {
    return { key: equality[1] ?? '', operator: equality[2] === '!=' ? 'notin' : 'in', values: [equality[3] ?? ''] };
  }
  const exists = /^(!?)([^=!\s()]+)$/.exec(text);
  if (exists) return { key: exists[2] ?? '', operator: exists[1] === '!' ? '!exists' : 'exists', values: [] };
  throw new StatusError(badRequest(`unable to parse requirement: found '${text}', expected: in, notin, =, ==, !=, or a key`));
}

function labelsOf(object: KubeObject): Record<string, string> {
  const labels = object.metadata['labels'];
  return labels && typeof labels === 'object' ? (labels as Record<string, string>) : {};
}

function matchesRequirement(labels: Record<string, string>, requirement: LabelRequirement): boolean {
  const has = Object.hasOwn(labels, requirement.key);
  const value = labels[requirement.key];
  switch (requirement.operator) {
    case 'exists':
      return has;
    case '!exists':
      return !has;
    case 'in':
      return has && requirement.values.includes(value ?? '');
    case 'notin':
      return !has || !requirement.values.includes(value ?? '');
  }
}

/** Compiles a `labelSelector` query value; an empty one matches everything. */
export function compileLabelSelector(selector: string | null): Matcher {
  if (!selector) return MATCH_ALL;
  const requirements = splitTopLevel(selector).map(parseRequirement);
  return (object) => {
    const labels = labelsOf(object);
    return requirements.every((requirement) => matchesRequirement(labels, requirement));
  };
}

/** Field paths each resource supports in a field selector, besides metadata.name/namespace. */
const FIELDS_BY_RESOURCE: Record<string, string[]> = {
  pods: [
    'spec.nodeName',
    'spec.restartPolicy',
    'spec.schedulerName',
    'spec.serviceAccountName',
    'spec.hostNetwork',
    'status.phase',
    'status.podIP',
    'status.nominatedNodeName',
  ],
  events: [
    'involvedObject.kind',
    'involvedObject.namespace',
    'involvedObject.name',
    'involvedObject.uid',
    'involvedObject.apiVersion',
    'involvedObject.resourceVersion',
    'involvedObject.fieldPath',
    'reason',
    'reportingComponent',
    'source',
    'type',
  ],
  nodes: ['spec.unschedulable'],
  namespaces: ['status.phase'],
  secrets: ['type'],
  replicasets: ['status.replicas'],
  jobs: ['status.successful'],
};

/** events.k8s.io names some event fields differently; the store keeps core events. */
const EVENTS_V1_FIELD_ALIASES: Record<string, string> = {
  'regarding.kind': 'involvedObject.kind',
  'regarding.namespace': 'involvedObject.namespace',
  'regarding.name': 'involvedObject.name',
  'regarding.uid': 'involvedObject.uid',
  'regarding.apiVersion': 'involvedObject.apiVersion',
  'regarding.resourceVersion': 'involvedObject.resourceVersion',
  'regarding.fieldPath': 'involvedObject.fieldPath',
  reportingController: 'reportingComponent',
};

function fieldValue(object: KubeObject, path: string): string {
  // Events expose `source` as the source component (pkg/registry/core/event/strategy.go).
  const effective = path === 'source' ? 'source.component' : path;
  let current: unknown = object;
  for (const segment of effective.split('.')) {
    if (current === null || typeof current !== 'object') return '';
    current = (current as Record<string, unknown>)[segment];
  }
  if (current === undefined || current === null) return '';
  return String(current);
}

/**
 * Compiles a `fieldSelector` for one resource; `group` tells events.k8s.io
 * (which also accepts its own field names) apart from core events.
 */
export function compileFieldSelector(selector: string | null, resource: string, group: string): Matcher {
  if (!selector) return MATCH_ALL;
  const supported = new Set(['metadata.name', 'metadata.namespace', ...(FIELDS_BY_RESOURCE[resource] ?? [])]);
  const terms = selector
    .split(',')
    .map((term) => term.trim())
    .filter((term) => term !== '')
    .map((term) => {
      const match = /^([^=!]+)(==|=|!=)(.*)$/.exec(term);
      if (!match) throw new StatusError(badRequest(`invalid selector: '${selector}'; can't understand '${term}'`));
      const written = match[1] ?? '';
      const field = group === 'events.k8s.io' ? (EVENTS_V1_FIELD_ALIASES[written] ?? written) : written;
      if (!supported.has(field)) throw new StatusError(badRequest(`field label not supported: ${written}`));
      return { field, negate: match[2] === '!=', value: match[3] ?? '' };
    });
  return (object) => terms.every((term) => (fieldValue(object, term.field) === term.value) !== term.negate);
}
