/**
 * Maps a request path to its handler, with kube-apiserver's URL layout:
 * `/api/v1/...` for the core group, `/apis/{group}/{version}/...` for others,
 * `namespaces/{ns}/` before namespaced resources, and the RBAC check that
 * comes before any handler.
 */
import type { ClusterState } from './cluster.js';
import { getObject, listObjects } from './list.js';
import { serveNodeProxy } from './node-logs.js';
import { servePodLog } from './pod-logs.js';
import { goHttpError, json, type Reply } from './reply.js';
import {
  apiGroup,
  apiGroupList,
  apiResourceList,
  coreApiVersions,
  findResource,
  versionInfo,
  type ResourceInfo,
} from './resources.js';
import { StatusError, forbidden, methodNotAllowed, notFound, pathNotFound } from './status.js';
import type { Faults } from './types.js';

/** The user the simulator's bearer token authenticates as. */
export const SIM_USER = 'logdump';

/** A request as the router sees it. */
export interface RouteRequest {
  method: string;
  /** Path segments, URL-decoded, without empty ones. */
  segments: string[];
  query: URLSearchParams;
}

/** A resource request after the group/version prefix. */
interface ResourcePath {
  info: ResourceInfo;
  namespace: string | undefined;
  name: string | undefined;
  subresource: string | undefined;
  rest: string[];
}

function parseResourcePath(group: string, version: string, segments: string[]): ResourcePath | undefined {
  const namespaced = segments[0] === 'namespaces' && segments.length >= 3;
  const namespace = namespaced ? segments[1] : undefined;
  const after = namespaced ? segments.slice(2) : segments;
  const [resource, name, subresource, ...rest] = after;
  const info = resource === undefined ? undefined : findResource(group, version, resource);
  if (!info) return undefined;
  // A namespaced resource is only addressable by name inside its namespace, and vice versa.
  if (name !== undefined && info.namespaced !== (namespace !== undefined)) return undefined;
  if (!info.namespaced && namespace !== undefined) return undefined;
  return { info, namespace, name, subresource, rest };
}

/** The RBAC denial, if any, for a request on `path` under the current faults. */
function checkAccess(path: ResourcePath, faults: Faults): void {
  if (!path.info.namespaced || faults.forbiddenNamespaces.length === 0) return;
  const verb = path.name === undefined ? 'list' : 'get';
  const common = { user: SIM_USER, verb, resource: path.info.resource, group: path.info.group, name: path.name };
  if (path.namespace === undefined) {
    // Real RBAC cannot grant "all namespaces but x": a user denied anywhere is denied cluster-wide lists.
    throw new StatusError(forbidden(common));
  }
  if (faults.forbiddenNamespaces.includes(path.namespace)) {
    const subresource = path.subresource;
    throw new StatusError(forbidden(subresource ? { ...common, namespace: path.namespace, subresource } : { ...common, namespace: path.namespace }));
  }
}

function serveNode(state: ClusterState, path: ResourcePath, query: URLSearchParams, faults: Faults): Reply {
  const name = path.name as string;
  if (!state.nodes.has(name)) throw new StatusError(notFound({ resource: 'nodes', group: '', name }));
  if (faults.hangingNodes.includes(name)) return { type: 'hang' };
  const rest = path.rest.join('/');
  if (faults.missingNodeLogs.includes(name) && rest.startsWith('logs')) return goHttpError(404, '404 page not found');
  return serveNodeProxy(state, name, rest, query, { cutMs: faults.nodeLogQueryCutMs, chunkDelayMs: faults.nodeLogQueryChunkDelayMs });
}

function serveResource(state: ClusterState, path: ResourcePath, request: RouteRequest, faults: Faults, trailingSlash: boolean): Reply {
  checkAccess(path, faults);
  const { info, namespace, name, subresource } = path;
  if (subresource === 'log' && info.resource === 'pods' && info.group === '' && namespace !== undefined && name !== undefined) {
    return servePodLog(state, namespace, name, request.query, faults.hangingNodes);
  }
  if (subresource === 'proxy' && info.resource === 'nodes' && info.group === '') {
    // `/proxy/logs/` keeps its trailing slash: it is the directory listing, `/proxy/logs` is not.
    const withSlash = { ...path, rest: trailingSlash ? [...path.rest, ''] : path.rest };
    return serveNode(state, withSlash, request.query, faults);
  }
  if (subresource !== undefined) return { type: 'status', body: pathNotFound() };
  if (name === undefined) {
    return json(listObjects(state, { info, namespace, query: request.query, expireAfterPages: faults.expireContinueAfterPages }));
  }
  const object = getObject(state, info, namespace, name);
  if (!object) throw new StatusError(notFound({ resource: info.resource, group: info.group, name }));
  return json(object);
}

/** Routes one request; throws StatusError for API errors. */
export function route(state: ClusterState, request: RouteRequest, faults: Faults, trailingSlash: boolean): Reply {
  if (request.method !== 'GET') return { type: 'status', body: methodNotAllowed(request.method) };
  const [root, second, third, ...rest] = request.segments;
  if (root === 'version' && second === undefined) return json(versionInfo());
  if (root === 'api') {
    if (second === undefined) return json(coreApiVersions());
    if (second !== 'v1') return { type: 'status', body: pathNotFound() };
    if (third === undefined) return json(apiResourceList('', 'v1'));
    const path = parseResourcePath('', 'v1', [third, ...rest]);
    return path ? serveResource(state, path, request, faults, trailingSlash) : { type: 'status', body: pathNotFound() };
  }
  if (root === 'apis') {
    if (second === undefined) return json(apiGroupList());
    const [version, ...resourceSegments] = [third, ...rest];
    if (version === undefined) {
      const group = apiGroup(second);
      return group ? json(group) : { type: 'status', body: pathNotFound() };
    }
    if (resourceSegments.length === 0) {
      const list = apiResourceList(second, version);
      return list ? json(list) : { type: 'status', body: pathNotFound() };
    }
    const path = parseResourcePath(second, version, resourceSegments);
    return path ? serveResource(state, path, request, faults, trailingSlash) : { type: 'status', body: pathNotFound() };
  }
  return { type: 'status', body: pathNotFound() };
}
