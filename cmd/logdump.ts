#!/usr/bin/env -S node --max-semi-space-size=2 --initial-old-space-size=32
// The flags suit streaming a gigabyte through short-lived buffers: small
// semi-spaces keep ~50 MB of garbage out of resident memory, and a roomier
// initial old space stops V8 from running a full collection every few tens of
// milliseconds at a 13 MB heap (6 of 26 CPU-seconds in bench/collect).
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { EXIT } from '../core/errors.js';
import { analyzeCommand } from './commands/analyze.js';
import { ciCommand } from './commands/ci.js';
import { collectCommand } from './commands/collect.js';
import { rulesCommand } from './commands/rules.js';
import { runWrapperCommand } from './commands/run.js';
import { simCommand } from './commands/sim.js';
import { uploadCommand } from './commands/upload.js';

// yargs 18 is ESM-first: commands are registered by hand, each with its name set
// explicitly in its module, so the CLI reads the same as `logdump --help`.
// Installed as `kubectl-logdump`, kubectl runs it as the plugin `kubectl logdump`.
const scriptName = process.argv[1]?.includes('kubectl-logdump') ? 'kubectl logdump' : 'logdump';

await yargs(hideBin(process.argv))
  .scriptName(scriptName)
  .command(collectCommand)
  .command(analyzeCommand)
  .command(rulesCommand)
  .command(simCommand)
  .command(uploadCommand)
  .command(runWrapperCommand)
  .command(ciCommand)
  .demandCommand(1, 'name a command: logdump collect, analyze, upload, run, ci, rules or sim')
  // `run -- COMMAND ARGS...`: everything after `--` is the test's, untouched.
  .parserConfiguration({ 'populate--': true })
  .strict()
  .help()
  .alias('h', 'help')
  .version()
  .wrap(Math.min(110, process.stdout.columns ?? 100))
  .fail((message, error) => {
    // Bad usage gets one line and exit code 2, never a stack trace.
    if (error && !(error.name === 'YError')) throw error;
    process.stderr.write(`logdump: ${message ?? error?.message}\nRun '${scriptName} --help' for usage.\n`);
    process.exit(EXIT.usage);
  })
  .parseAsync();
