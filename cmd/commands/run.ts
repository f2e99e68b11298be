import type { Argv, CommandModule } from 'yargs';
import type { HookFlags } from '../../hook/plan.js';
import { HOOK_DEFAULTS } from '../../hook/plan.js';
import { UsageError } from '../../core/errors.js';
import { runHookCommand } from '../exit.js';
import { onCluster, withCollectFlags, withUploadFlags } from './shared-flags.js';

export interface HookArgs extends HookFlags {
  sim?: string | undefined;
}

/** The flags of the dump a CI hook makes; shared by `run` and `ci`. */
export function withHookFlags(yargs: Argv): Argv {
  return withUploadFlags(withCollectFlags(yargs))
    .option('always', { type: 'boolean', default: false, describe: 'Collect, analyze and upload even when the test passed' })
    .option('timeout', { type: 'string', default: HOOK_DEFAULTS.timeout, describe: 'One deadline for collecting, analyzing and uploading' })
    .option('gcs-bucket', { type: 'string', describe: "Upload to this bucket in Prow's layout for the job (…/BUILD_ID/artifacts/logdump/)" })
    .option('artifacts', { type: 'string', describe: 'Write logdump-summary.md and logdump-findings.json here (default: $ARTIFACTS)' })
    .option('gcsweb-url', { type: 'string', default: HOOK_DEFAULTS.gcswebUrl, describe: 'The gcsweb that browses the bucket, for links' })
    .option('spyglass-url', { type: 'string', default: HOOK_DEFAULTS.spyglassUrl, describe: "Prow's Spyglass view base (…/view/gs), for the job's link" });
}

interface RunArgs extends HookArgs {
  '--'?: Array<string | number>;
  /** Words before `--`: a test command given without it. */
  command?: Array<string | number>;
}

/** `logdump run [options] -- COMMAND [ARGS...]`: the test, then the dump when it fails. */
export const runWrapperCommand: CommandModule<object, RunArgs> = {
  command: 'run [command..]',
  describe: "Run a test command; when it fails, collect, analyze and upload the cluster's evidence; exit as the test did",
  builder: (yargs: Argv) =>
    withHookFlags(yargs)
      .usage('$0 run [options] -- COMMAND [ARGS...]')
      .positional('command', { type: 'string', array: true, describe: 'The test command and its arguments, after --' }) as unknown as Argv<RunArgs>,
  handler: (args) =>
    runHookCommand(async () => {
      const { runHook } = await import('../../hook/run-hook.js');
      const { shellStatus } = await import('../../hook/test-command.js');
      const stray = (args.command ?? []).map(String);
      if (stray.length > 0) throw new UsageError(`put the test command after --, so its flags stay its own: logdump run [options] -- ${stray.join(' ')}`);
      const command = (args['--'] ?? []).map(String);
      const outcome = await onCluster(args, (flags) => runHook(flags, command));
      return outcome.kind === 'signaled' ? { signal: outcome.signal, code: shellStatus(outcome) } : { code: shellStatus(outcome) };
    }),
};
