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
    const code = exitCodeFor(error);
    process.stderr.write(`logdump: ${describeError(error)}\n`);
    if (code === EXIT.internal && process.env['LOGDUMP_DEBUG'] && error instanceof Error) {
      process.stderr.write(`${error.stack ?? ''}\n`);
    }
    process.exitCode = code;
  }
}
