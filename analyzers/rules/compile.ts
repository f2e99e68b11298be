import { UsageError } from '../../core/errors.js';
import type { Rule } from './rule.js';

/** A rule ready to run: its regular expression and the literals a line must hold to match. */
export interface CompiledRule {
  rule: Rule;
  regex: RegExp;
  /**
   * Literal substrings, one of which every matching line contains (lower-cased
   * when the pattern is case-insensitive). Lines without any are never given to
   * the regex, which is what keeps a scan of a gigabyte fast. Empty when no
   * literal could be derived: the rule then runs on every line.
   */
  needles: string[];
  caseInsensitive: boolean;
  /** Captures of the first match in `text`, or undefined. */
  match(text: string): Record<string, string> | undefined;
}

/** Needles shorter than this would let most lines through. */
const MIN_NEEDLE_LENGTH = 4;

/** Compiles a rule; a pattern that is not a valid regular expression is a UsageError naming the rule. */
export function compileRule(rule: Rule): CompiledRule {
  const caseInsensitive = rule.pattern.startsWith('(?i)');
  const source = caseInsensitive ? rule.pattern.slice(4) : rule.pattern;
  let regex: RegExp;
  try {
    regex = new RegExp(source, caseInsensitive ? 'i' : '');
  } catch (error) {
    throw new UsageError(`rule ${rule.id}: pattern is not a valid regular expression: ${error instanceof Error ? error.message : String(error)}`);
  }
  const needles = deriveNeedles(source).map((needle) => (caseInsensitive ? needle.toLowerCase() : needle));
  return {
    rule,
    regex,
    needles,
    caseInsensitive,
    match(text) {
      const found = regex.exec(text);
      if (!found) return undefined;
      const captures: Record<string, string> = {};
      for (const [name, value] of Object.entries(found.groups ?? {})) {
        if (value !== undefined) captures[name] = value;
      }
      return captures;
    },
  };
}

/**
 * The longest literal run of each top-level alternative of a pattern, or none
 * when some alternative has no literal long enough. A conservative reading of
 * the pattern: anything it does not understand ends a literal run, so a needle
 * is always a substring every match contains.
 */
export function deriveNeedles(source: string): string[] {
  const alternatives = splitTopLevel(source);
  const needles: string[] = [];
  for (const alternative of alternatives) {
    const longest = longestLiteral(alternative);
    if (longest.length < MIN_NEEDLE_LENGTH) return [];
    needles.push(longest);
  }
  return [...new Set(needles)];
}

/** Splits on `|` outside groups and classes. */
function splitTopLevel(source: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let inClass = false;
  let start = 0;
  for (let index = 0; index < source.length; index++) {
    const char = source[index];
    if (char === '\\') {
      index += 1;
    } else if (inClass) {
      if (char === ']') inClass = false;
    } else if (char === '[') {
      inClass = true;
    } else if (char === '(') {
      depth += 1;
    } else if (char === ')') {
      depth -= 1;
    } else if (char === '|' && depth === 0) {
      parts.push(source.slice(start, index));
      start = index + 1;
    }
  }
  parts.push(source.slice(start));
  return parts;
}

/** Escapes whose character stands for itself. */
const LITERAL_ESCAPES = new Set(['.', '\\', '/', '(', ')', '[', ']', '{', '}', '*', '+', '?', '|', '^', '$', '-', "'", '"', ':', ' ', '=', '<', '>', '!', '&', ',', '#', '@', '%', '~', '`', ';']);

/**
 * The longest run of characters that must appear literally, in order, at top
 * level of one alternative. A quantifier after a character makes that
 * character optional or repeatable, so it is taken off the run; groups,
 * classes and character escapes (`\d`) end a run.
 */
function longestLiteral(alternative: string): string {
  let best = '';
  let run = '';
  const endRun = (): void => {
    if (run.length > best.length) best = run;
    run = '';
  };
  let depth = 0;
  for (let index = 0; index < alternative.length; index++) {
    const char = alternative[index] ?? '';
    if (depth > 0) {
      // Inside a group nothing is kept, but a class may hold a bare ( or ) that must not count.
      if (char === '\\') index += 1;
      else if (char === '[') index = skipClass(alternative, index);
      else if (char === '(') depth += 1;
      else if (char === ')') depth -= 1;
      continue;
    }
    let literal: string | undefined;
    let width = 1;
    if (char === '\\') {
      const next = alternative[index + 1] ?? '';
      literal = LITERAL_ESCAPES.has(next) ? next : undefined;
      width = 2;
    } else if (char === '(') {
      depth = 1;
    } else if (char === '[') {
      index = skipClass(alternative, index);
    } else if (!'.^$*+?{}|)'.includes(char)) {
      literal = char;
    }
    const quantifier = alternative[index + width] ?? '';
    if (literal !== undefined && '*?{'.includes(quantifier) && quantifier !== '') {
      endRun();
    } else if (literal !== undefined && quantifier === '+') {
      run += literal;
      endRun();
    } else if (literal !== undefined) {
      run += literal;
    } else {
      endRun();
    }
    index += width - 1;
  }
  endRun();
  return best;
}

function skipClass(source: string, open: number): number {
  for (let index = open + 1; index < source.length; index++) {
    if (source[index] === '\\') index += 1;
    else if (source[index] === ']') return index;
  }
  return source.length;
}
