/**
 * Lists with the semantics of the etcd3 storage of kube-apiserver: items in key
 * order, `limit` + opaque `continue` tokens, `remainingItemCount` only when no
 * selector filters the list (the store cannot count matches it has not read),
 * and a page that may come back short, even empty, with a continue token when
 * a selector filtered out the rest of a chunk.
 */
import type { ClusterState, StoredObject } from './cluster.js';
import { compareKeys } from './cluster.js';
import { toEventsV1 } from './events.js';
import type { ResourceInfo } from './resources.js';
import { groupVersionOf } from './resources.js';
import { compileFieldSelector, compileLabelSelector } from './selectors.js';
import { StatusError, badRequest, continueExpired } from './status.js';
import type { KubeObject } from './types.js';

/** What a continue token carries; encoded as base64 JSON like the real one. */
interface ContinueToken {
  v: 'meta.k8s.io/v1';
  rv: string;
  /** The key of the last item returned; the next page starts after it. */
  after: string;
  /** Pages served since the list started (or since a 410 handed a fresh token). */
  pages: number;
}

function encodeToken(token: ContinueToken): string {
  return Buffer.from(JSON.stringify(token)).toString('base64url');
}

function decodeToken(text: string): ContinueToken {
  try {
    const token = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<ContinueToken>;
    if (token.v === 'meta.k8s.io/v1' && typeof token.after === 'string' && typeof token.pages === 'number') {
      return { v: token.v, rv: String(token.rv), after: token.after, pages: token.pages };
    }
  } catch {
    // Fall through to the real server's answer for a token it cannot read.
  }
  throw new StatusError(badRequest('invalid continue token: the continue token is not valid'));
}

/** The shape of one object as this resource serves it. */
export function presentObject(info: ResourceInfo, object: KubeObject): KubeObject {
  return info.group === 'events.k8s.io' ? toEventsV1(object) : object;
}

function parseLimit(text: string | null): number {
  if (text === null || text === '') return 0;
  const limit = Number(text);
  if (!Number.isInteger(limit) || limit < 0) throw new StatusError(badRequest(`limit: Invalid value: "${text}"`));
  return limit;
}

/** The first index in a sorted bucket whose key is after `key`. */
function indexAfter(bucket: StoredObject[], key: string): number {
  let low = 0;
  let high = bucket.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareKeys((bucket[middle] as StoredObject).key, key) <= 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** How a list request is scoped and paged. */
export interface ListRequest {
  info: ResourceInfo;
  namespace: string | undefined;
  query: URLSearchParams;
  /** Faults.expireContinueAfterPages. */
  expireAfterPages: number | null;
}

/** Serves one list (page); throws StatusError for bad input or an expired token. */
export function listObjects(state: ClusterState, request: ListRequest): Record<string, unknown> {
  const { info, namespace, query } = request;
  const labelSelector = query.get('labelSelector');
  const fieldSelector = query.get('fieldSelector');
  const matchesLabels = compileLabelSelector(labelSelector);
  const matchesFields = compileFieldSelector(fieldSelector, info.resource, info.group);
  const limit = parseLimit(query.get('limit'));
  const continueText = query.get('continue');
  const token = continueText ? decodeToken(continueText) : undefined;
  if (token && request.expireAfterPages !== null && token.pages >= request.expireAfterPages) {
    throw new StatusError(continueExpired(encodeToken({ ...token, rv: state.resourceVersion, pages: 0 })));
  }

  const bucket = (state.buckets.get(info.storedKind) ?? []).filter(
    (stored) => namespace === undefined || stored.namespace === namespace,
  );
  const start = token ? indexAfter(bucket, token.after) : 0;
  const items: KubeObject[] = [];
  let index = start;
  for (; index < bucket.length && (limit === 0 || items.length < limit); index++) {
    const presented = presentObject(info, (bucket[index] as StoredObject).object);
    if (matchesLabels(presented) && matchesFields((bucket[index] as StoredObject).object)) items.push(withoutTypeMeta(presented));
  }

  const metadata: Record<string, unknown> = { resourceVersion: token?.rv ?? state.resourceVersion };
  if (limit > 0 && index < bucket.length) {
    const last = bucket[index - 1] as StoredObject;
    metadata['continue'] = encodeToken({
      v: 'meta.k8s.io/v1',
      rv: token?.rv ?? state.resourceVersion,
      after: last.key,
      pages: (token?.pages ?? 0) + 1,
    });
    if (!labelSelector && !fieldSelector) metadata['remainingItemCount'] = bucket.length - index;
  }
  return { kind: `${info.kind}List`, apiVersion: groupVersionOf(info), metadata, items };
}

/** List items carry no kind/apiVersion in a real typed list response. */
function withoutTypeMeta(object: KubeObject): KubeObject {
  const { apiVersion: _apiVersion, kind: _kind, ...rest } = object;
  return rest as KubeObject;
}

/** The object `name` of this resource in `namespace`, as a GET returns it. */
export function getObject(state: ClusterState, info: ResourceInfo, namespace: string | undefined, name: string): KubeObject | undefined {
  const bucket = state.buckets.get(info.storedKind) ?? [];
  const key = namespace === undefined ? name : `${namespace}/${name}`;
  // indexAfter finds the first key greater than `key`; the match, if any, is just before it.
  const found = bucket[indexAfter(bucket, key) - 1];
  return found && found.key === key ? presentObject(info, found.object) : undefined;
}
