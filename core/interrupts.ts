import { EXIT } from './errors.js';

/** The signals a user or a CI system sends to ask a process to wrap up. */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

/** A scope in which SIGINT/SIGTERM abort `signal` instead of killing the process. */
export interface InterruptScope {
  /** Aborted, with the signal's name as its reason, by the first SIGINT or SIGTERM once armed. */
  readonly signal: AbortSignal;
  /** From now on the signals count; before, they are left to other listeners. */
  arm(): void;
  dispose(): void;
}

/**
 * The first SIGINT or SIGTERM aborts the scope's signal, so the work in
 * progress can close what it has (an archive must still get its end blocks);
 * `announce` says what happens now. A second one quits at once: a user who
 * presses Ctrl-C twice means it, and a CI system's kill must not be ignored.
 * `exitCodeOnSecond` lets `run` exit with the test's code rather than 130/143.
 *
 * `armed: false` installs the listeners without acting on them: `run` passes
 * signals on to the test while it runs, and must not fall back to the default
 * (death) for the instant between the test's end and the dump's start.
 */
export function interruptScope(
  announce: (signal: StopSignal) => string,
  exitCodeOnSecond?: (signal: StopSignal) => number,
  { armed = true }: { armed?: boolean } = {},
): InterruptScope {
  const controller = new AbortController();
  let counting = armed;
  const onSignal = (signal: StopSignal): void => {
    if (!counting) return;
    if (controller.signal.aborted) {
      process.exit(exitCodeOnSecond?.(signal) ?? (signal === 'SIGTERM' ? EXIT.sigterm : EXIT.sigint));
    }
    process.stderr.write(`logdump: ${signal}: ${announce(signal)}\n`);
    controller.abort(signal);
  };
  for (const name of STOP_SIGNALS) process.on(name, onSignal);
  return {
    signal: controller.signal,
    arm: () => {
      counting = true;
    },
    dispose: () => {
      for (const name of STOP_SIGNALS) process.off(name, onSignal);
    },
  };
}
