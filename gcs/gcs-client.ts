import { IdempotencyStrategy, Storage } from '@google-cloud/storage';
import type { StorageOptions } from '@google-cloud/storage';

type RetryOptions = NonNullable<StorageOptions['retryOptions']>;
/** The client types an interceptor's input loosely; at run time it is already the decorated request. */
type DecoratedRequest = ReturnType<Storage['interceptors'][number]['request']>;

/** How the client retries; tests shorten the delays. */
export interface RetryTuning {
  /** Retries of one request (or one resumable session) before it fails. */
  readonly maxRetries: number;
  /** Seconds; async-retry's first delay is 1 s, so this must be at least 1. */
  readonly maxRetryDelaySeconds: number;
  readonly retryDelayMultiplier: number;
}

/** Options of {@link createStorage}. */
export interface GcsClientOptions {
  /** A test server (`--gcs-endpoint`); else `STORAGE_EMULATOR_HOST`; else real GCS with Application Default Credentials. */
  readonly endpoint?: string | undefined;
  readonly retry?: Partial<RetryTuning> | undefined;
  /** Epoch ms after which no request may run: each request's timeout is the time left. */
  readonly deadline?: number | undefined;
}

/**
 * Doubling delays capped at 32 s, as gsutil's. Ten rather than the client's 3:
 * a resumable upload counts its retries over the whole session, not per chunk
 * (Upload#numRetries in resumable-upload.js is never reset), so a large
 * upload on a flaky link needs a larger budget.
 */
export const DEFAULT_RETRY: RetryTuning = { maxRetries: 10, maxRetryDelaySeconds: 32, retryDelayMultiplier: 2 };

/** A request to GCS that sends nothing back for this long is given up (the client's own default is 60 s). */
const REQUEST_TIMEOUT_MS = 60_000;

/** The endpoint a user asked for: the flag, else the emulator variable the client itself honours. */
export function resolveEndpoint(flag: string | undefined): string | undefined {
  return flag ?? process.env['STORAGE_EMULATOR_HOST'] ?? undefined;
}

/**
 * A client for every GCS request we make.
 *
 * Retries: @google-cloud/storage retries 408, 429, 5xx and connection resets,
 * but under its default `RetryConditional` strategy only for requests with an
 * `ifGenerationMatch` precondition: an upload without one is sent once
 * (File#shouldRetryBasedOnPreconditionAndIdempotencyStrat). Our uploads write
 * the same bytes to the same name, so a repeat is harmless: `RetryAlways`.
 *
 * Credentials: with a custom endpoint the client sends no Authorization header
 * (`useAuthWithCustomEndpoint` is off); otherwise it finds Application Default
 * Credentials (GOOGLE_APPLICATION_CREDENTIALS, gcloud's, the metadata server).
 * They never pass through our code.
 */
export function createStorage(options: GcsClientOptions = {}): Storage {
  const tuning = { ...DEFAULT_RETRY, ...options.retry };
  const endpoint = resolveEndpoint(options.endpoint);
  const retryOptions: RetryOptions = {
    autoRetry: true,
    maxRetries: tuning.maxRetries,
    maxRetryDelay: Math.max(1, tuning.maxRetryDelaySeconds),
    retryDelayMultiplier: tuning.retryDelayMultiplier,
    idempotencyStrategy: IdempotencyStrategy.RetryAlways,
  };
  const deadline = options.deadline;
  if (deadline !== undefined) retryOptions.totalTimeout = Math.max(1, Math.ceil((deadline - Date.now()) / 1000));
  const storage = new Storage({
    ...(endpoint !== undefined ? { apiEndpoint: endpoint, projectId: 'logdump-test' } : {}),
    retryOptions,
    timeout: requestTimeout(deadline),
  });
  if (deadline !== undefined) {
    // Resumable uploads go through gaxios with the interceptors' options, not
    // the client's `timeout`: bound each of their requests by the time left too.
    storage.interceptors.push({ request: (reqOpts) => ({ ...(reqOpts as DecoratedRequest), timeout: requestTimeout(deadline) }) });
  }
  return storage;
}

function requestTimeout(deadline: number | undefined): number {
  if (deadline === undefined) return REQUEST_TIMEOUT_MS;
  return Math.max(1, Math.min(REQUEST_TIMEOUT_MS, deadline - Date.now()));
}
