import { spawn } from 'node:child_process';
import { constants } from 'node:os';

/** How the test command ended: its exit code, or the signal that killed it. */
export type TestOutcome =
  | { readonly kind: 'exited'; readonly code: number }
  | { readonly kind: 'signaled'; readonly signal: NodeJS.Signals }
  /** It never ran (not found, not executable); `code` is the shell's 127 or 126. */
  | { readonly kind: 'not-started'; readonly code: number; readonly error: string };

/**
 * Signals passed on to the test. SIGINT and SIGTERM are how Prow's entrypoint,
 * GitHub Actions' cancel and a user's Ctrl-C stop a run; SIGHUP a lost
 * terminal; SIGQUIT a request for a goroutine dump; SIGUSR1/2 are the test's
 * own business.
 */
export const FORWARDED_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGUSR1', 'SIGUSR2'];

/** Whether the test failed, in the sense that decides whether to dump. */
export function testFailed(outcome: TestOutcome): boolean {
  return outcome.kind !== 'exited' || outcome.code !== 0;
}

/** The exit status a shell would report for the outcome (128 + the signal's number when killed). */
export function shellStatus(outcome: TestOutcome): number {
  if (outcome.kind === 'signaled') return 128 + (constants.signals[outcome.signal] ?? 0);
  return outcome.code;
}

export function describeOutcome(outcome: TestOutcome): string {
  switch (outcome.kind) {
    case 'exited':
      return `exited with ${outcome.code}`;
    case 'signaled':
      return `was killed by ${outcome.signal}`;
    case 'not-started':
      return `could not be started: ${outcome.error}`;
  }
}

/**
 * Runs the test command with the terminal's stdin, stdout and stderr, and
 * resolves when it ends. It runs in its own process group, and every forwarded
 * signal goes to that whole group: a test is often `bash -c 'make e2e'`, and a
 * signal to the shell alone would leave `make` and the test binary running.
 * In a terminal, Ctrl-C reaches logdump (the foreground group) and is passed on
 * once, not delivered twice.
 */
export function runTestCommand(command: readonly string[]): Promise<TestOutcome> {
  const [file, ...args] = command;
  return new Promise((resolve) => {
    const child = spawn(file ?? '', args, { stdio: 'inherit', detached: true });
    const forward = (signal: NodeJS.Signals): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, signal);
      } catch (error: unknown) {
        // ESRCH: the group is already gone, which the 'exit' handler is about to report.
        if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
      }
    };
    for (const signal of FORWARDED_SIGNALS) process.on(signal, forward);
    const done = (outcome: TestOutcome): void => {
      for (const signal of FORWARDED_SIGNALS) process.off(signal, forward);
      resolve(outcome);
    };
    child.once('error', (error: NodeJS.ErrnoException) => {
      done({ kind: 'not-started', code: error.code === 'ENOENT' ? 127 : 126, error: `${file}: ${error.message}` });
    });
    child.once('exit', (code, signal) => {
      done(signal !== null ? { kind: 'signaled', signal } : { kind: 'exited', code: code ?? 1 });
    });
  });
}
