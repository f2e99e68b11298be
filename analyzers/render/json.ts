import type { Analysis } from '../types.js';

/** `findings.json`: the Analysis object as is; its schema is documented in the README. */
export function renderJson(analysis: Analysis): string {
  return `${JSON.stringify(analysis, null, 2)}\n`;
}
