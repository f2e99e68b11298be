import type { Argv, CommandModule } from 'yargs';
import { FAIL_ON, FORMATS, runAnalyze, type AnalyzeFlags } from '../../analyzers/run-analyze.js';
import { runCommand } from '../exit.js';

/** `logdump analyze DUMP`: known errors and the real cause, as markdown, JSON or text. */
export const analyzeCommand: CommandModule<object, AnalyzeFlags> = {
  command: 'analyze <dump>',
  describe: 'Find known errors and the likely cause in a dump (.tar.gz or directory) and summarize them',
  builder: (yargs: Argv) =>
    yargs
      .positional('dump', { type: 'string', demandOption: true, describe: 'A .tar.gz made by logdump collect, a directory with its layout, or gs://BUCKET/PREFIX[.tar.gz]' })
      .option('rules', { type: 'string', array: true, default: [] as string[], describe: 'A YAML file of extra rules and allow entries (repeatable)' })
      .option('format', { type: 'string', choices: FORMATS, default: 'md' as const, describe: 'Output on stdout' })
      .option('fail-on', { type: 'string', choices: FAIL_ON, default: 'never' as const, describe: 'Exit 1 when a finding is at least this severe' })
      .option('gcs-endpoint', { type: 'string', describe: 'For a gs:// dump: a GCS-compatible endpoint (default: $STORAGE_EMULATOR_HOST, else Google)' })
      .option('link-base', { type: 'string', describe: 'URL prefix for links to dump files in the summary (e.g. a GCS browse URL)' }) as unknown as Argv<AnalyzeFlags>,
  handler: (args) => runCommand(() => runAnalyze(args)),
};
