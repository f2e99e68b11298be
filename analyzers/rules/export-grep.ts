import type { Rule } from './rule.js';

/**
 * A rule's pattern as a POSIX extended regular expression for `grep -E`, or
 * undefined when it uses what ERE cannot say (lookaround, backreferences).
 * Used to give grep the same patterns in bench/analyze.
 */
export function toExtendedRegExp(rule: Rule): string | undefined {
  let source = rule.pattern.startsWith('(?i)') ? rule.pattern.slice(4) : rule.pattern;
  if (/\(\?(?:[=!]|<[=!])|\\[1-9]|\\k</.test(source)) return undefined;
  source = source
    .replace(/\(\?<[A-Za-z][\w]*>/g, '(')
    .replace(/\(\?:/g, '(')
    .replace(/\\d/g, '[0-9]')
    .replace(/\\D/g, '[^0-9]')
    .replace(/\\s/g, '[[:space:]]')
    .replace(/\\S/g, '[^[:space:]]')
    .replace(/\\w/g, '[[:alnum:]_]')
    .replace(/\\W/g, '[^[:alnum:]_]')
    .replace(/([*+?}])\?/g, '$1');
  return source;
}
