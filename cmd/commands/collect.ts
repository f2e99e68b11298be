import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import { COLLECT_DEFAULTS } from '../../collectors/defaults.js';
import type { CollectFlags } from '../../collectors/run-collect.js';
import { runCommand } from '../exit.js';

interface CollectArgs extends CollectFlags {
  sim?: string | undefined;
}

/** `logdump collect`: the whole cluster's evidence into one tar.gz (or a directory). */
export const collectCommand: CommandModule<object, CollectArgs> = {
  command: 'collect',
  describe: 'Collect container logs, events, object state and node logs into one tar.gz',
  builder: (yargs: Argv) =>
    yargs
      .option('kubeconfig', { type: 'string', describe: 'Path to the kubeconfig file (default: $KUBECONFIG, ~/.kube/config, in-cluster)' })
      .option('context', { type: 'string', describe: 'The kubeconfig context to use' })
      .option('namespace', { alias: 'n', type: 'string', array: true, default: [] as string[], describe: 'Only these namespaces (repeatable)' })
      .option('all-namespaces', { alias: 'A', type: 'boolean', default: false, describe: 'All namespaces (the default when no -n is given)' })
      .option('out', { alias: 'o', type: 'string', describe: 'Write a .tar.gz here (default: ./logdump-TIMESTAMP.tar.gz)' })
      .option('out-dir', { type: 'string', describe: 'Write the dump as a directory tree instead' })
      .option('since', { type: 'string', describe: 'Only logs newer than this duration, e.g. 2h (default: everything)' })
      .option('max-log-bytes', { type: 'string', describe: 'Cap per container log instance, e.g. 50Mi (default: no cap)' })
      .option('node-log', { type: 'string', array: true, default: [] as string[], describe: 'Extra node log to collect besides the kubelet\'s, e.g. kube-proxy (repeatable)' })
      .option('concurrency', { type: 'number', default: COLLECT_DEFAULTS.concurrency, describe: 'Requests in flight at once' })
      .option('chunk-size', { type: 'number', default: COLLECT_DEFAULTS.chunkSize, describe: 'Objects per list request, as kubectl\'s --chunk-size' })
      .option('gzip-level', { type: 'number', default: COLLECT_DEFAULTS.gzipLevel, describe: 'Archive compression, 1 (fastest) to 9 (smallest)' })
      .option('timeout', { type: 'string', describe: 'Overall deadline, e.g. 5m; what was collected by then is kept' })
      .option('request-timeout', { type: 'string', default: COLLECT_DEFAULTS.requestTimeout, describe: 'Give up a request that sends nothing for this long' })
      .option('analyze', { type: 'boolean', default: false, describe: 'Analyze while collecting: add analysis/findings.json and analysis/summary.md, print the summary' })
      .option('rules', { type: 'string', array: true, default: [] as string[], describe: 'A YAML file of extra rules and allow entries for --analyze (repeatable)' })
      .option('sim', { type: 'string', describe: 'Collect from an embedded simulated cluster running this scenario instead' })
      .conflicts('sim', ['kubeconfig', 'context']) as unknown as Argv<CollectArgs>,
  handler: (args) =>
    runCommand(async () => {
      // Loaded only when used: the Kubernetes client takes most of a second to import.
      const { runCollect } = await import('../../collectors/run-collect.js');
      if (args.sim === undefined) return runCollect(args);
      const { startSimulator } = await import('../../sim/index.js');
      const simulator = await startSimulator({ scenario: args.sim });
      const dir = await mkdtemp(join(tmpdir(), 'logdump-sim-'));
      try {
        const kubeconfig = join(dir, 'kubeconfig');
        await simulator.writeKubeconfig(kubeconfig);
        return await runCollect({ ...args, kubeconfig });
      } finally {
        await simulator.close();
        await rm(dir, { recursive: true, force: true });
      }
    }),
};
