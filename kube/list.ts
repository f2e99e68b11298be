import pRetry from 'p-retry';
import { KubeRequestError, type KubeClient, type KubeStream, type Query, type RequestOptions } from './client.js';

/** One object as the server sent it. */
export type RawObject = Record<string, unknown> & { metadata?: { name?: string; namespace?: string; uid?: string } };

/** One page of a list, as the server sent it. */
export interface ListPage {
  kind: string;
  apiVersion: string;
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  items: RawObject[];
}

/** How a list went, beyond its items. */
export interface ListOutcome {
  pages: number;
  /**
   * The server expired our continue token mid-list (410) and we went on with the
   * token it offered: objects changed meanwhile may be missing or appear twice.
   */
  inconsistent: boolean;
}

/** Settings for a retried request. */
export interface RetryPolicy {
  retries: number;
  minTimeoutMs: number;
  maxTimeoutMs: number;
}

/** A list whose token keeps expiring is given up after this many fresh starts. */
const MAX_CONTINUE_EXPIRIES = 5;

export const DEFAULT_RETRY: RetryPolicy = { retries: 3, minTimeoutMs: 200, maxTimeoutMs: 2000 };

/**
 * Runs a request, retrying what the server or the network may get right next
 * time (no answer, 429, 5xx) with exponential backoff. Stops at once when the
 * signal aborts, rethrowing the last request error for context.
 */
export async function withRetry<T>(run: () => Promise<T>, signal: AbortSignal, policy: RetryPolicy): Promise<T> {
  return pRetry(run, {
    retries: policy.retries,
    minTimeout: policy.minTimeoutMs,
    maxTimeout: policy.maxTimeoutMs,
    randomize: true,
    signal,
    shouldRetry: ({ error }) => !signal.aborted && error instanceof KubeRequestError && error.transient,
  });
}

/** Opens a streamed GET with retries; once bytes flow, a failure is the caller's. */
export function openStream(client: KubeClient, path: string, query: Query, options: RequestOptions, policy: RetryPolicy): Promise<KubeStream> {
  return withRetry(() => client.stream(path, query, options), options.signal, policy);
}

/**
 * Yields every page of a list, following `continue`. When the token expires
 * (410) the server's Status offers a fresh token for the remainder, which we
 * use and flag; without one the list starts over and the objects already
 * yielded (by uid) are skipped, so no object is written twice.
 */
export async function* listPages(
  client: KubeClient,
  path: string,
  pageSize: number,
  options: RequestOptions,
  policy: RetryPolicy,
  outcome: ListOutcome,
): AsyncGenerator<ListPage> {
  let token: string | undefined;
  // uids already yielded: an inconsistent continuation or a restart may repeat them.
  const seen = new Set<string>();
  let expiries = 0;
  for (;;) {
    let page: ListPage;
    try {
      const query: Query = { limit: pageSize, continue: token };
      page = await withRetry(() => client.getJson<ListPage>(path, query, options), options.signal, policy);
    } catch (error) {
      if (!(error instanceof KubeRequestError) || error.status !== 410 || token === undefined) throw error;
      if (++expiries > MAX_CONTINUE_EXPIRIES) throw error;
      outcome.inconsistent = true;
      token = error.continueToken || undefined;
      continue;
    }
    outcome.pages += 1;
    const fresh = (page.items ?? []).filter((item) => !seen.has(uidOf(item)));
    for (const item of fresh) seen.add(uidOf(item));
    yield { ...page, items: fresh };
    token = page.metadata?.continue || undefined;
    if (!token) return;
  }
}

function uidOf(item: RawObject): string {
  return item.metadata?.uid ?? `${item.metadata?.namespace ?? ''}/${item.metadata?.name ?? ''}`;
}
