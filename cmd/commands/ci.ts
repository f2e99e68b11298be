import type { Argv, CommandModule } from 'yargs';
import type { CiFlags } from '../../hook/run-hook.js';
import { runHookCommand } from '../exit.js';
import { withHookFlags, type HookArgs } from './run.js';
import { onCluster } from './shared-flags.js';

/** `logdump ci --test-exit-code N`: the dump half of `run`, for a CI step after the test's. */
export const ciCommand: CommandModule<object, CiFlags & HookArgs> = {
  command: 'ci',
  describe: "After a failed test step: collect, analyze and upload the cluster's evidence; exit with the test's code",
  builder: (yargs: Argv) =>
    withHookFlags(yargs).option('test-exit-code', {
      type: 'number',
      describe: "The test's exit code; 0 means nothing to do without --always (default: $LOGDUMP_TEST_EXIT_CODE)",
    }) as unknown as Argv<CiFlags & HookArgs>,
  handler: (args) =>
    runHookCommand(async () => {
      const { runCi } = await import('../../hook/run-hook.js');
      return { code: await onCluster(args, runCi) };
    }),
};
