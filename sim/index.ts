/**
 * The cluster simulator: a real HTTP server speaking enough of the Kubernetes
 * API (and of the kubelet behind it) for @kubernetes/client-node and kubectl.
 */
export { startSimulator, DEFAULT_FAULTS, KUBECONFIG_CONTEXT } from './server.js';
export type { SimulatorOptions, RecordedRequest, RunningSimulator } from './server.js';
export { listScenarios, loadScenario } from './scenarios/index.js';
export type { ContainerLogs, Faults, KubeObject, LogSource, NodeLogs, Scenario } from './types.js';
