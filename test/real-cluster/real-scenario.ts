/**
 * A built-in scenario served by a real kube-apiserver and etcd, with simulated
 * kubelets: the fixture of the real-cluster tests.
 */
import { loadScenario as buildScenario } from '../../sim/index.js';
import { startRealCluster, type RealCluster, type RealClusterOptions } from './cluster.js';
import { loadScenario, type LoadedScenario } from './load-scenario.js';

/** A real cluster holding one scenario. */
export interface RealScenario {
  cluster: RealCluster;
  loaded: LoadedScenario;
  /** Stops the kubelets, kube-apiserver and etcd. */
  close(): Promise<void>;
}

/** Starts a control plane and loads the named built-in scenario into it. */
export async function startRealScenario(name: string, options: RealClusterOptions): Promise<RealScenario> {
  const cluster = await startRealCluster(options);
  let loaded: LoadedScenario;
  try {
    loaded = await loadScenario(cluster, buildScenario(name));
  } catch (error) {
    await cluster.close();
    throw error;
  }
  return {
    cluster,
    loaded,
    close: async () => {
      await loaded.close();
      await cluster.close();
    },
  };
}
