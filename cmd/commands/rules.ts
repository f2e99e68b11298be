import type { Argv, CommandModule } from 'yargs';
import { loadRuleSet } from '../../analyzers/rules/load-rules.js';
import { toExtendedRegExp } from '../../analyzers/rules/export-grep.js';
import { EXIT } from '../../core/errors.js';
import { runCommand } from '../exit.js';

interface RulesArgs {
  rules: string[];
  'export-grep': boolean;
}

/** `logdump rules`: list the catalog (and user files), check them, or export them for grep. */
export const rulesCommand: CommandModule<object, RulesArgs> = {
  command: 'rules',
  describe: 'List the known-error rules (with --rules files checked), or export their patterns for grep -E -f',
  builder: (yargs: Argv) =>
    yargs
      .option('rules', { type: 'string', array: true, default: [] as string[], describe: 'A YAML rules file to check and include (repeatable)' })
      .option('export-grep', { type: 'boolean', default: false, describe: 'Print one grep -E pattern per line instead' }) as unknown as Argv<RulesArgs>,
  handler: (args) =>
    runCommand(async () => {
      const { rules, allow } = await loadRuleSet(args.rules);
      for (const rule of rules) {
        if (!args['export-grep']) {
          process.stdout.write(`${rule.id}\t${rule.severity}\t${rule.sources.join(',')}\t${rule.title}\n`);
          continue;
        }
        const pattern = toExtendedRegExp(rule);
        if (pattern === undefined) process.stderr.write(`logdump: rule ${rule.id} has no grep -E equivalent; left out\n`);
        else process.stdout.write(`${pattern}\n`);
      }
      if (!args['export-grep'] && allow.length > 0) process.stdout.write(`${allow.length} allow entr${allow.length === 1 ? 'y' : 'ies'}\n`);
      return EXIT.ok;
    }),
};
