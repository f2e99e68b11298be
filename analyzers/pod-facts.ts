import type { StoredObject } from './evidence.js';

/** The fields of a stored pod the analyzers read. */
export interface PodShape {
  metadata?: { name?: string; namespace?: string; ownerReferences?: { kind?: string; name?: string }[] };
  spec?: { nodeName?: string; containers?: { name: string; readinessProbe?: unknown }[] };
  status?: {
    phase?: string;
    conditions?: PodCondition[];
    containerStatuses?: ContainerStatusShape[];
    initContainerStatuses?: ContainerStatusShape[];
  };
}

export interface PodCondition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

export interface ContainerStatusShape {
  name: string;
  ready?: boolean;
  restartCount?: number;
  state?: { waiting?: { reason?: string; message?: string }; running?: unknown; terminated?: TerminatedShape };
  lastState?: { terminated?: TerminatedShape };
}

export interface TerminatedShape {
  exitCode?: number;
  reason?: string;
  message?: string;
  finishedAt?: string;
}

export function asPod(object: StoredObject): PodShape {
  return object as PodShape;
}

/** The status of a condition (`Ready`, `PodScheduled`), or undefined when absent. */
export function condition(pod: PodShape, type: string): PodCondition | undefined {
  return pod.status?.conditions?.find((entry) => entry.type === type);
}

export function isReady(pod: PodShape): boolean {
  return condition(pod, 'Ready')?.status === 'True';
}

export function podName(pod: PodShape): { namespace: string; name: string } {
  return { namespace: pod.metadata?.namespace ?? '', name: pod.metadata?.name ?? '' };
}
