/**
 * `GET /api/v1/namespaces/{ns}/pods/{name}/log`: the apiserver's checks
 * (pkg/registry/core/pod/strategy.go LogLocation, ValidatePodLogOptions) then
 * the kubelet's (kubelet_pods.go validateContainerLogStatus), with their real
 * messages, then the log streamed with the CRI reader's options: tailLines
 * first, then sinceTime, timestamps as an RFC3339Nano prefix, limitBytes last.
 */
import type { ClusterState } from './cluster.js';
import { createLineStore, firstIndexAtOrAfter, formatRfc3339Nano, parseRfc3339Micros, type LineStore } from './log-store.js';
import { chunkLines, limitBytes, type Reply } from './reply.js';
import { StatusError, badRequest, invalid, notFound } from './status.js';
import type { KubeObject, LogSource } from './types.js';

const LOG_CHUNK_BYTES = 64 * 1024;

/** A previous instance without a recorded end finished this long before `now`. */
const PREVIOUS_DEFAULT_AGE_MICROS = 600_000_000;

interface ContainerSpec {
  name: string;
}

interface ContainerState {
  waiting?: { reason?: string };
  running?: { startedAt?: string };
  terminated?: { containerID?: string; finishedAt?: string };
}

interface ContainerStatus {
  name: string;
  containerID?: string;
  state?: ContainerState;
  lastState?: ContainerState;
}

/** The parsed query of a log request. */
export interface LogOptions {
  container: string | undefined;
  previous: boolean;
  timestamps: boolean;
  tailLines: number | undefined;
  limitBytes: number | undefined;
  sinceSeconds: number | undefined;
  sinceTime: number | undefined;
}

/** Go's strconv.ParseBool, which the query parameter codec uses. */
function parseBool(name: string, text: string | null): boolean {
  if (text === null || text === '') return false;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false;
  throw new StatusError(badRequest(`${name}: strconv.ParseBool: parsing "${text}": invalid syntax`));
}

function parseInteger(name: string, text: string | null): number | undefined {
  if (text === null || text === '') return undefined;
  if (!/^[+-]?\d+$/.test(text)) throw new StatusError(badRequest(`${name}: strconv.ParseInt: parsing "${text}": invalid syntax`));
  return Number(text);
}

/** Parses and validates a log query (ValidatePodLogOptions); throws StatusError. */
export function parseLogOptions(pod: string, query: URLSearchParams): LogOptions {
  const sinceTimeText = query.get('sinceTime');
  const parsedSince = sinceTimeText ? parseRfc3339Micros(sinceTimeText) : undefined;
  // The apiserver re-encodes sinceTime for the kubelet as metav1.Time (RFC3339, whole seconds).
  const sinceTime = parsedSince === undefined ? undefined : Math.floor(parsedSince / 1_000_000) * 1_000_000;
  if (sinceTimeText && parsedSince === undefined) {
    throw new StatusError(badRequest(`sinceTime: parsing time "${sinceTimeText}" as "2006-01-02T15:04:05Z07:00": cannot parse`));
  }
  const options: LogOptions = {
    container: query.get('container') || undefined,
    previous: parseBool('previous', query.get('previous')),
    timestamps: parseBool('timestamps', query.get('timestamps')),
    tailLines: parseInteger('tailLines', query.get('tailLines')),
    limitBytes: parseInteger('limitBytes', query.get('limitBytes')),
    sinceSeconds: parseInteger('sinceSeconds', query.get('sinceSeconds')),
    sinceTime,
  };
  const causes: { field: string; message: string }[] = [];
  if (options.tailLines !== undefined && options.tailLines < 0) {
    causes.push({ field: 'tailLines', message: `Invalid value: ${options.tailLines}: must be greater than or equal to 0` });
  }
  if (options.limitBytes !== undefined && options.limitBytes < 1) {
    causes.push({ field: 'limitBytes', message: `Invalid value: ${options.limitBytes}: must be greater than 0` });
  }
  if (options.sinceSeconds !== undefined && options.sinceTime !== undefined) {
    causes.push({ field: '', message: 'Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified' });
  }
  if (options.sinceSeconds !== undefined && options.sinceSeconds < 1) {
    causes.push({ field: 'sinceSeconds', message: `Invalid value: ${options.sinceSeconds}: must be greater than 0` });
  }
  if (causes.length > 0) throw new StatusError(invalid('PodLogOptions', pod, causes));
  return options;
}

function specsOf(pod: KubeObject, field: 'containers' | 'initContainers'): ContainerSpec[] {
  const spec = pod['spec'] as Record<string, unknown> | undefined;
  return (spec?.[field] as ContainerSpec[] | undefined) ?? [];
}

function statusesOf(pod: KubeObject): ContainerStatus[] {
  const status = pod['status'] as Record<string, unknown> | undefined;
  return [
    ...((status?.['containerStatuses'] as ContainerStatus[] | undefined) ?? []),
    ...((status?.['initContainerStatuses'] as ContainerStatus[] | undefined) ?? []),
  ];
}

/** The container a request names, with the apiserver's defaulting and messages. */
function resolveContainer(pod: KubeObject, requested: string | undefined): string {
  const name = pod.metadata.name;
  const containers = specsOf(pod, 'containers').map((container) => container.name);
  const initContainers = specsOf(pod, 'initContainers').map((container) => container.name);
  if (requested !== undefined) {
    if (!containers.includes(requested) && !initContainers.includes(requested)) {
      throw new StatusError(badRequest(`container ${requested} is not valid for pod ${name}`));
    }
    return requested;
  }
  if (containers.length === 1) return containers[0] as string;
  if (containers.length === 0) throw new StatusError(badRequest(`a container name must be specified for pod ${name}`));
  let message = `a container name must be specified for pod ${name}, choose one of: [${containers.join(' ')}]`;
  if (initContainers.length > 0) message += ` or one of the init containers: [${initContainers.join(' ')}]`;
  throw new StatusError(badRequest(message));
}

/** Which instance's log the kubelet would read, or its refusal (validateContainerLogStatus). */
function resolveInstance(pod: KubeObject, container: string, previous: boolean): 'current' | 'previous' {
  const podName = pod.metadata.name;
  const status = statusesOf(pod).find((candidate) => candidate.name === container);
  const fail = (detail: string): never => {
    throw new StatusError(badRequest(`container "${container}" in pod "${podName}" ${detail}`));
  };
  if (!status) return fail('is not available');
  const last = status.lastState?.terminated;
  const { waiting, running, terminated } = status.state ?? {};
  if (previous) {
    if (!last?.containerID) {
      throw new StatusError(badRequest(`previous terminated container "${container}" in pod "${podName}" not found`));
    }
    return 'previous';
  }
  if (running) return 'current';
  if (terminated) {
    if (terminated.containerID) return 'current';
    // The next instance did not start: the kubelet reads the last terminated one.
    return last?.containerID ? 'previous' : fail('is terminated');
  }
  if (last) return last.containerID ? 'previous' : fail('is terminated');
  if (waiting) {
    if (waiting.reason === 'ErrImagePull') return fail('is waiting to start: image can\'t be pulled');
    if (waiting.reason === 'ImagePullBackOff') return fail('is waiting to start: trying and failing to pull image');
    return fail(`is waiting to start: ${waiting.reason ?? ''}`);
  }
  return fail('is waiting to start - no logs yet');
}

/** When an instance's log ends: its finish time, or now while it runs. */
function instanceEndMicros(state: ClusterState, pod: KubeObject, container: string, instance: 'current' | 'previous'): number {
  const status = statusesOf(pod).find((candidate) => candidate.name === container);
  const finishedAt = instance === 'previous' ? status?.lastState?.terminated?.finishedAt : status?.state?.terminated?.finishedAt;
  const parsed = finishedAt ? parseRfc3339Micros(finishedAt) : undefined;
  if (parsed !== undefined) return parsed;
  return instance === 'previous' ? state.nowMicros - PREVIOUS_DEFAULT_AGE_MICROS : state.nowMicros;
}

function* timestampedLines(store: LineStore, from: number, to: number): Generator<string> {
  for (let index = from; index < to; index++) yield `${formatRfc3339Nano(store.timeMicros(index))} ${store.line(index)}`;
}

/** The body of one container instance's log with the request's options applied. */
function streamLog(store: LineStore, options: LogOptions, nowMicros: number): Iterable<Buffer> {
  let from = options.tailLines === undefined ? 0 : Math.max(0, store.count - options.tailLines);
  const since = options.sinceSeconds !== undefined ? nowMicros - options.sinceSeconds * 1_000_000 : options.sinceTime;
  if (since !== undefined) from = Math.max(from, firstIndexAtOrAfter(store, since));
  const chunks = options.timestamps
    ? chunkLines(timestampedLines(store, from, store.count), LOG_CHUNK_BYTES)
    : store.chunks(from, store.count, LOG_CHUNK_BYTES);
  return options.limitBytes === undefined ? chunks : limitBytes(chunks, options.limitBytes);
}

/**
 * The kubelet's half (server.go getContainerLogs, then validateContainerLogStatus
 * against its own pod status): the log of `container` of a pod it runs. The API
 * server passes a kubelet 400 on as a BadRequest Status whose message is the
 * kubelet's body (GenericHttpResponseChecker), so a StatusError thrown here
 * reads the same through either path.
 */
export function serveContainerLog(state: ClusterState, pod: KubeObject, container: string, options: LogOptions): Reply {
  const namespace = pod.metadata.namespace ?? '';
  const podName = pod.metadata.name;
  const instance = resolveInstance(pod, container, options.previous);
  const logs = state.containerLogs.get(`${namespace}/${podName}/${container}`);
  const source: LogSource = logs?.[instance] ?? { lines: [] };
  const store = createLineStore(source, {
    endMicros: instanceEndMicros(state, pod, container, instance),
    flavor: 'app',
    pid: 1,
  });
  return { type: 'stream', status: 200, contentType: 'text/plain', chunks: streamLog(store, options, state.nowMicros) };
}

/** The containers (init, regular, ephemeral) a pod spec names, for the kubelet's GetContainerSpec check. */
export function hasContainer(pod: KubeObject, container: string): boolean {
  return [...specsOf(pod, 'containers'), ...specsOf(pod, 'initContainers')].some((spec) => spec.name === container);
}

/**
 * Serves `GET pods/{name}/log`: the API server's half (pod, options, container,
 * pkg/registry/core/pod/strategy.go LogLocation), then the kubelet's;
 * `hangingNodes` makes pods on those nodes hang like their kubelet.
 */
export function servePodLog(
  state: ClusterState,
  namespace: string,
  podName: string,
  query: URLSearchParams,
  hangingNodes: readonly string[],
): Reply {
  const pod = state.pods.get(`${namespace}/${podName}`);
  if (!pod) throw new StatusError(notFound({ resource: 'pods', group: '', name: podName }));
  const options = parseLogOptions(podName, query);
  const container = resolveContainer(pod, options.container);
  const nodeName = (pod['spec'] as { nodeName?: string } | undefined)?.nodeName;
  // LogLocation returns no location for an unscheduled pod, and LocationStreamer's
  // nil stream is written as 204 No Content (checked against kube-apiserver 1.20).
  if (!nodeName) return { type: 'text', status: 204, contentType: 'text/plain', body: '' };
  if (hangingNodes.includes(nodeName)) return { type: 'hang' };
  return serveContainerLog(state, pod, container, options);
}
