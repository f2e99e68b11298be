/**
 * Typed errors and the exit codes they map to. Only the entry point (cmd/) turns
 * an error into an exit code; everything below throws one of these with a
 * message that says what was being done and the underlying `cause`.
 */

/** Exit codes shared by every command; documented in the README. */
export const EXIT = {
  /** Everything asked for was done. */
  ok: 0,
  /** The archive was written but some items are missing; see the manifest. */
  partial: 1,
  /** Bad flags, a missing or malformed kubeconfig, an unknown scenario. */
  usage: 2,
  /** The cluster (or the bucket) could not be reached, or nothing at all could be collected (uploaded). */
  unreachable: 3,
  /** An unexpected failure of the tool itself (a bug): please report it. */
  internal: 4,
  /** Stopped by SIGINT (128 + 2); the archive was still closed with what was collected. */
  sigint: 130,
  /** Stopped by SIGTERM (128 + 15), e.g. a CI system's grace period; the archive was still closed. */
  sigterm: 143,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The user asked for something that cannot work; no I/O has been done yet. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
  }
}

/** The cluster or the bucket could not be reached at all, so nothing could be done. */
export class UnreachableError extends Error {
  override readonly name: string = 'UnreachableError';
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
  }
}

/** One unit of collection failed; it is recorded in the manifest, not fatal. */
export class CollectionError extends Error {
  override readonly name = 'CollectionError';
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
  }
}

/** Writing the archive or directory failed; what was written may be incomplete. */
export class SinkError extends Error {
  override readonly name = 'SinkError';
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
  }
}

/**
 * One line that explains an error with its chain of causes, for stderr and the
 * manifest: "listing pods in namespace "a": HTTP 403 Forbidden: pods is forbidden".
 */
export function describeError(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 8; depth++) {
    const message = current instanceof Error ? current.message : String(current);
    if (message && !parts.some((part) => part.includes(message))) parts.push(message);
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join(': ').replace(/\s+/g, ' ').trim() || 'unknown error';
}
