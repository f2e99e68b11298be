import { describeError, EXIT, UsageError } from '../core/errors.js';
import { interruptScope, type InterruptScope } from '../core/interrupts.js';
import { writeHookOutputs } from './outputs.js';
import { planHook, type HookFlags, type HookPlan } from './plan.js';
import { collectAndUpload, type PublishReport } from './publish.js';
import { describeOutcome, runTestCommand, shellStatus, testFailed, type TestOutcome } from './test-command.js';

/** After `--timeout`, this long for the last requests to notice their deadline before the hook gives up on them. */
export const GIVE_UP_GRACE_MS = 5_000;

/**
 * `logdump run -- COMMAND...`: runs the test, and when it fails (or always,
 * with --always) collects, analyzes and uploads within --timeout. Resolves
 * with the test's outcome, which the process then repeats whatever happened to
 * the dump. Only bad flags, found before the test runs, throw.
 */
export async function runHook(flags: HookFlags, command: readonly string[]): Promise<TestOutcome> {
  if (command.length === 0) throw new UsageError('logdump run needs the test command after --, e.g. logdump run -- make e2e');
  const plan = await planHook(flags, process.env, new Date());
  let testStatus: number = EXIT.internal;
  const scope = dumpInterruptScope(() => testStatus, { armed: false });
  try {
    const outcome = await runTestCommand(command);
    // Synchronously after the test's end: a signal from now on is about the dump.
    scope.arm();
    testStatus = shellStatus(outcome);
    const testLine = `\`${shellQuote(command)}\` ${describeOutcome(outcome)}`;
    if (outcome.kind === 'not-started') {
      process.stderr.write(`logdump: the test ${describeOutcome(outcome)}\n`);
      return outcome;
    }
    if (!testFailed(outcome) && !plan.always) return outcome;
    process.stderr.write(`logdump: the test ${describeOutcome(outcome)}; collecting the cluster's evidence\n`);
    await dumpWithinDeadline(plan, testLine, scope.signal);
    return outcome;
  } finally {
    scope.dispose();
  }
}

/** The command as a user would paste it into a shell: `sh -c 'exit 1'`, not `sh -c exit 1`. */
export function shellQuote(command: readonly string[]): string {
  return command.map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`)).join(' ');
}

/** `logdump ci`'s own flag. */
export interface CiFlags extends HookFlags {
  testExitCode?: number | undefined;
}

/** The variable `logdump ci` reads the test's exit code from when --test-exit-code is not given. */
export const TEST_EXIT_CODE_VARIABLE = 'LOGDUMP_TEST_EXIT_CODE';

/**
 * `logdump ci`: the dump half of `run`, for CI systems that run a hook as its
 * own step. Exits with the test's exit code, so `make e2e; logdump ci
 * --test-exit-code $?` keeps the script's result; with --always and no test
 * result, with the dump's own exit code.
 */
export async function runCi(flags: CiFlags): Promise<number> {
  const testCode = flags.testExitCode ?? testExitCodeFromEnv(process.env);
  if (testCode !== undefined && (!Number.isInteger(testCode) || testCode < 0 || testCode > 255)) {
    throw new UsageError(`--test-exit-code ${Number.isNaN(testCode) ? 'must be a number' : `${testCode} must be a whole number from 0 to 255`}`);
  }
  if (testCode === undefined && !flags.always) {
    throw new UsageError(`logdump ci needs the test's result: --test-exit-code N, $${TEST_EXIT_CODE_VARIABLE}, or --always`);
  }
  const plan = await planHook(flags, process.env, new Date());
  if (testCode === 0 && !plan.always) {
    process.stderr.write('logdump: the test passed; nothing to collect (--always collects anyway)\n');
    return 0;
  }
  const testLine = testCode === undefined ? 'result not given (--always)' : `exited with ${testCode}`;
  const scope = dumpInterruptScope(testCode === undefined ? undefined : () => testCode);
  try {
    const report = await dumpWithinDeadline(plan, testLine, scope.signal);
    return testCode ?? report?.dump?.exitCode ?? EXIT.unreachable;
  } finally {
    scope.dispose();
  }
}

function testExitCodeFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  const text = env[TEST_EXIT_CODE_VARIABLE];
  if (text === undefined || text === '') return undefined;
  if (!/^\d+$/.test(text)) throw new UsageError(`$${TEST_EXIT_CODE_VARIABLE}="${text}" is not an exit code`);
  return Number(text);
}

/**
 * During the dump, the first SIGINT/SIGTERM ends collection early (what was
 * collected is still closed and uploaded); a second one quits at once with the
 * test's status.
 */
function dumpInterruptScope(secondSignalExitCode: (() => number) | undefined, options?: { armed: boolean }): InterruptScope {
  return interruptScope(() => 'stopping collection; what was collected is still closed and uploaded (send it again to quit now)', secondSignalExitCode, options);
}

/**
 * Collects, uploads and reports, giving up at --timeout (plus a short grace)
 * even if something below ignores its deadline, such as a credential plugin
 * that hangs.
 */
async function dumpWithinDeadline(plan: HookPlan, testLine: string, interrupt: AbortSignal): Promise<PublishReport | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), plan.timeoutMs + GIVE_UP_GRACE_MS);
  });
  try {
    const work = (async () => {
      const report = await collectAndUpload(plan, interrupt);
      await writeHookOutputs(plan, report, testLine);
      return report;
    })().catch((error: unknown) => {
      // A bug here must not change the exit code the CI system sees: the test's.
      process.stderr.write(`logdump: the dump failed: ${describeError(error)}\n`);
      return undefined;
    });
    const report = await Promise.race([work, gaveUp]);
    if (report === undefined) {
      process.stderr.write(`logdump: the dump did not finish within --timeout (${Math.round(plan.timeoutMs / 1000)} s); giving up on it so the job can end\n`);
    }
    return report;
  } finally {
    clearTimeout(timer);
  }
}
