/**
 * Defaults a user can rely on; the README lists them. Kept apart from the
 * collectors so `--help` does not load the Kubernetes client.
 */
export const COLLECT_DEFAULTS = {
  concurrency: 32,
  requestTimeout: '60s',
  chunkSize: 500,
  gzipLevel: 6,
  nodeLogQueryLimitMs: 30_000,
  nodeLogWindowMs: 6 * 60 * 60 * 1000,
} as const;
