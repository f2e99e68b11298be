import { describeError } from '../core/errors.js';
import type { ItemState } from './types.js';

/**
 * Passes a response body through, ending cleanly when it fails: the error goes
 * to the item's state and the bytes received so far are kept, because a log cut
 * short by a reset or the deadline is still evidence.
 */
export async function* guardedSource(body: AsyncIterable<unknown>, state: ItemState, context: string): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of body) yield chunk as Buffer;
  } catch (error) {
    recordCut(state, error, context);
  }
}

/** Marks an item as cut short by `error`, keeping the first error seen. */
export function recordCut(state: ItemState, error: unknown, context: string): void {
  state.truncated = true;
  state.error ??= new Error(`${context}: ${describeError(error)}`, { cause: error });
}
