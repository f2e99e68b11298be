import { EXIT, UnreachableError, UsageError, describeError, type ExitCode } from '../core/errors.js';

/** Maps an error that reached the entry point to its documented exit code. */
export function exitCodeFor(error: unknown): ExitCode {
  if (error instanceof UsageError) return EXIT.usage;
  if (error instanceof UnreachableError) return EXIT.unreachable;
  return EXIT.internal;
}

/**
 * Runs a command's body and sets the process exit code from its result, or from
 * the error it threw, printed as one line on stderr (never a stack trace, unless
 * LOGDUMP_DEBUG is set, because an internal error is a bug worth reporting).
 */
export async function runCommand(body: () => Promise<ExitCode>): Promise<void> {
  try {
    process.exitCode = await body();
  } catch (error) {
    process.exitCode = reportError(error);
  }
}

/** Prints an error that reached the entry point as one line and returns its exit code. */
function reportError(error: unknown): ExitCode {
  const code = exitCodeFor(error);
  process.stderr.write(`logdump: ${describeError(error)}\n`);
  if (code === EXIT.internal && process.env['LOGDUMP_DEBUG'] && error instanceof Error) {
    process.stderr.write(`${error.stack ?? ''}\n`);
  }
  return code;
}

/**
 * Signals whose default action ends a process without a core dump: re-raised
 * on ourselves, our parent sees the same death as the test's. The others
 * (SIGQUIT, SIGABRT, SIGSEGV...) would dump our core, so they become 128+N.
 */
const RERAISED_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGKILL', 'SIGPIPE', 'SIGALRM', 'SIGUSR1', 'SIGUSR2'];

/** How a CI hook ends: as the test did. */
export type HookExit = { readonly code: number } | { readonly signal: NodeJS.Signals; readonly code: number };

/**
 * Runs a CI hook and ends the process as the test ended: the same exit code,
 * or killed by the same signal, so a job runner cannot tell the hook was
 * there. Bad flags (found before the test ran) exit as any command's would.
 * Exits explicitly: sockets a deadline abandoned must not keep the job waiting.
 */
export async function runHookCommand(body: () => Promise<HookExit>): Promise<never> {
  let result: HookExit;
  try {
    result = await body();
  } catch (error) {
    process.exit(reportError(error));
  }
  if ('signal' in result && RERAISED_SIGNALS.includes(result.signal)) {
    process.removeAllListeners(result.signal);
    process.kill(process.pid, result.signal);
  }
  process.exit(result.code);
}
