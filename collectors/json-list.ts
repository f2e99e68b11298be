import type { EntrySource } from '../archive/sink.js';
import type { KubeClient, RequestOptions } from '../kube/client.js';
import { listPages, type ListOutcome, type ListPage, type RawObject, type RetryPolicy } from '../kube/list.js';
import { recordCut } from './guarded-source.js';
import type { CollectContext, CollectUnit, ItemSource, ItemState } from './types.js';

/** How to list one resource and what to do with each object on the way. */
export interface JsonListRequest {
  /** API path of the list, e.g. `/apis/apps/v1/namespaces/x/statefulsets`. */
  apiPath: string;
  /** Rewrites an object before it is stored (e.g. to drop ConfigMap values). */
  transform?: (item: RawObject) => RawObject;
  /** Sees every stored object, e.g. to build the inventory. */
  onItem?: (item: RawObject) => void;
}

/**
 * Opens a list and returns its JSON document as a stream: a `*List` object with
 * one item per line (so a finding can point at `pods.json:42`). The first page is
 * fetched before this resolves, so a denied or missing list fails the item
 * instead of storing an empty one; a later page that fails ends the document
 * validly, with the failure recorded in the item's state.
 */
export async function openJsonList(
  kube: KubeClient,
  request: JsonListRequest,
  options: { pageSize: number; requestOptions: RequestOptions; retry: RetryPolicy },
  state: ItemState,
): Promise<EntrySource> {
  const outcome: ListOutcome = { pages: 0, inconsistent: false };
  const pages = listPages(kube, request.apiPath, options.pageSize, options.requestOptions, options.retry, outcome);
  const first = await pages.next();
  if (first.done) throw new Error(`listing ${request.apiPath} returned no page`);
  return renderList(first.value, pages, request, state, outcome);
}

async function* renderList(
  first: ListPage,
  rest: AsyncGenerator<ListPage>,
  request: JsonListRequest,
  state: ItemState,
  outcome: ListOutcome,
): AsyncGenerator<string> {
  const metadata = first.metadata?.resourceVersion ? { resourceVersion: first.metadata.resourceVersion } : {};
  yield `{"kind":${JSON.stringify(first.kind ?? 'List')},"apiVersion":${JSON.stringify(first.apiVersion ?? 'v1')},"metadata":${JSON.stringify(metadata)},"items":[`;
  let count = 0;
  const renderPage = function* (page: ListPage): Generator<string> {
    for (const raw of page.items) {
      const item = request.transform ? request.transform(raw) : raw;
      request.onItem?.(item);
      yield `${count++ === 0 ? '\n' : ',\n'}${JSON.stringify(item)}`;
    }
  };
  yield* renderPage(first);
  try {
    for await (const page of rest) yield* renderPage(page);
  } catch (error) {
    recordCut(state, error, `listing ${request.apiPath} after ${count} objects`);
  }
  if (outcome.inconsistent) {
    state.notes.push('the continue token expired mid-list (410); the rest was listed inconsistently');
  }
  yield '\n]}\n';
}

/** A unit that stores one list at `path`. */
export function jsonListUnit(
  context: Pick<CollectContext, 'kube' | 'options' | 'request'>,
  path: string,
  source: ItemSource,
  request: JsonListRequest,
): CollectUnit {
  return {
    path,
    source,
    open: (_signal, state) =>
      openJsonList(context.kube, request, { pageSize: context.options.pageSize, requestOptions: context.request, retry: context.options.retry }, state),
  };
}
