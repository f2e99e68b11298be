import type { Argv, CommandModule } from 'yargs';
import type { CollectFlags, CollectUploadFlags } from '../../collectors/run-collect.js';
import { runCommand } from '../exit.js';
import { onCluster, withCollectFlags, withUploadFlags } from './shared-flags.js';

interface CollectArgs extends CollectFlags, CollectUploadFlags {
  sim?: string | undefined;
}

/** `logdump collect`: the whole cluster's evidence into one tar.gz (or a directory). */
export const collectCommand: CommandModule<object, CollectArgs> = {
  command: 'collect',
  describe: 'Collect container logs, events, object state and node logs into one tar.gz',
  builder: (yargs: Argv) =>
    withUploadFlags(withCollectFlags(yargs))
      .option('timeout', { type: 'string', describe: 'Overall deadline, e.g. 5m; what was collected by then is kept' })
      .option('analyze', { type: 'boolean', default: false, describe: 'Analyze while collecting: add analysis/findings.json and analysis/summary.md, print the summary' }) as unknown as Argv<CollectArgs>,
  handler: (args) =>
    runCommand(async () => {
      // Loaded only when used: the Kubernetes client takes most of a second to import.
      const { runCollect } = await import('../../collectors/run-collect.js');
      return onCluster(args, (flags) => runCollect(flags));
    }),
};
