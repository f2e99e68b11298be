import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator } from './server.js';

/**
 * Runs `body` against a simulated cluster in this process, with a kubeconfig
 * for it in a temporary directory; both are gone when `body` settles. It is
 * what `--sim SCENARIO` means on the commands that talk to a cluster.
 */
export async function withSimulatedCluster<T>(scenario: string, body: (kubeconfig: string) => Promise<T>): Promise<T> {
  const simulator = await startSimulator({ scenario });
  const dir = await mkdtemp(join(tmpdir(), 'logdump-sim-'));
  try {
    const kubeconfig = join(dir, 'kubeconfig');
    await simulator.writeKubeconfig(kubeconfig);
    return await body(kubeconfig);
  } finally {
    await simulator.close();
    await rm(dir, { recursive: true, force: true });
  }
}
