import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { UsageError } from '../../core/errors.js';
import { SEVERITIES, type LineSource } from '../types.js';
import { BUILTIN_RULES } from './builtin.js';
import { compileRule } from './compile.js';
import type { AllowEntry, Rule } from './rule.js';

/** The rules and allow-list in force: the catalog plus any user files. */
export interface RuleSet {
  rules: Rule[];
  allow: AllowEntry[];
}

const SOURCES: readonly LineSource[] = ['container-log', 'node-log', 'event'];

/** Loads the catalog and each `--rules FILE`; any problem is a UsageError naming the file and entry. */
export async function loadRuleSet(files: readonly string[]): Promise<RuleSet> {
  const rules: Rule[] = [...BUILTIN_RULES];
  const allow: AllowEntry[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      throw new UsageError(`--rules ${file} cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { cause: error });
    }
    const parsed = parseRuleFile(text, file);
    rules.push(...parsed.rules);
    allow.push(...parsed.allow);
  }
  const seen = new Set<string>();
  for (const rule of rules) {
    if (seen.has(rule.id)) throw new UsageError(`rule id "${rule.id}" is defined twice (ids must be unique across the catalog and --rules files)`);
    seen.add(rule.id);
  }
  for (const entry of allow) {
    if (!seen.has(entry.rule)) throw new UsageError(`allow entry for "${entry.rule}": no rule has that id`);
  }
  return { rules, allow };
}

/** Validates a YAML rules file: `rules:` and `allow:` lists. */
export function parseRuleFile(text: string, origin: string): RuleSet {
  let document: unknown;
  try {
    document = parse(text);
  } catch (error) {
    throw new UsageError(`${origin}: not valid YAML: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`, { cause: error });
  }
  if (document === null || document === undefined) return { rules: [], allow: [] };
  if (typeof document !== 'object' || Array.isArray(document)) throw new UsageError(`${origin}: expected a mapping with "rules:" and/or "allow:"`);
  const { rules = [], allow = [], ...rest } = document as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) throw new UsageError(`${origin}: unknown top-level key${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (expected rules, allow)`);
  if (!Array.isArray(rules) || !Array.isArray(allow)) throw new UsageError(`${origin}: "rules" and "allow" must be lists`);
  return {
    rules: rules.map((raw, index) => validateRule(raw, `${origin}: rules[${index}]`)),
    allow: allow.map((raw, index) => validateAllow(raw, `${origin}: allow[${index}]`)),
  };
}

function validateRule(raw: unknown, where: string): Rule {
  const value = record(raw, where);
  const id = text(value, 'id', where);
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(id)) throw new UsageError(`${where}: id "${id}" must be kebab-case`);
  const at = `${where} (${id})`;
  const severity = text(value, 'severity', at);
  if (!(SEVERITIES as readonly string[]).includes(severity)) throw new UsageError(`${at}: severity must be one of ${SEVERITIES.join(', ')}`);
  const sources = list(value, 'sources', at);
  for (const source of sources) {
    if (!(SOURCES as readonly string[]).includes(source)) throw new UsageError(`${at}: source "${source}" must be one of ${SOURCES.join(', ')}`);
  }
  const examples = value['examples'] === undefined ? { match: [], noMatch: [] } : record(value['examples'], `${at}: examples`);
  const rule: Rule = {
    id,
    title: text(value, 'title', at),
    severity: severity as Rule['severity'],
    sources: sources as LineSource[],
    pattern: text(value, 'pattern', at),
    ...(value['groupBy'] !== undefined ? { groupBy: list(value, 'groupBy', at) } : {}),
    explanation: text(value, 'explanation', at),
    remedy: text(value, 'remedy', at),
    ...(value['docsUrl'] !== undefined ? { docsUrl: text(value, 'docsUrl', at) } : {}),
    ...(value['reemitsEvent'] === true ? { reemitsEvent: true } : {}),
    examples: { match: optionalList(examples, 'match', at), noMatch: optionalList(examples, 'noMatch', at) },
  };
  const compiled = compileRule(rule);
  // A user's examples are checked like the catalog's: a rule that misses its own example is a typo.
  for (const line of rule.examples.match) {
    if (!compiled.match(line)) throw new UsageError(`${at}: pattern does not match its example "${line}"`);
  }
  for (const line of rule.examples.noMatch) {
    if (compiled.match(line)) throw new UsageError(`${at}: pattern matches its noMatch example "${line}"`);
  }
  return rule;
}

function validateAllow(raw: unknown, where: string): AllowEntry {
  const value = record(raw, where);
  const entry: AllowEntry = { rule: text(value, 'rule', where), reason: text(value, 'reason', where) };
  if (value['namespace'] !== undefined) entry.namespace = text(value, 'namespace', where);
  if (value['match'] !== undefined) {
    entry.match = text(value, 'match', where);
    try {
      new RegExp(entry.match);
    } catch (error) {
      throw new UsageError(`${where}: match is not a valid regular expression: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return entry;
}

function record(raw: unknown, where: string): Record<string, unknown> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new UsageError(`${where}: expected a mapping`);
  return raw as Record<string, unknown>;
}

function text(value: Record<string, unknown>, key: string, where: string): string {
  const found = value[key];
  if (typeof found !== 'string' || found.trim() === '') throw new UsageError(`${where}: "${key}" is required and must be a non-empty string`);
  return found;
}

function list(value: Record<string, unknown>, key: string, where: string): string[] {
  const found = value[key];
  if (!Array.isArray(found) || found.length === 0 || found.some((item) => typeof item !== 'string')) {
    throw new UsageError(`${where}: "${key}" must be a non-empty list of strings`);
  }
  return found as string[];
}

function optionalList(value: Record<string, unknown>, key: string, where: string): string[] {
  return value[key] === undefined ? [] : list(value, key, where);
}
