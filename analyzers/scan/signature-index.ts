import { objectKey, type ErrorShape, type EventRecord, type SignatureGroup } from '../evidence.js';
import { compileRule, type CompiledRule } from '../rules/compile.js';
import type { AllowEntry, Rule } from '../rules/rule.js';
import type { LineSource, ObjectRef, Sample } from '../types.js';
import { ERROR_LINE, isErrorLine, normalizeLine } from './normalize.js';
import type { CandidateFilter } from './line-scanner.js';

/** Distinct sample lines kept per finding; repeats are counted, not kept. */
const MAX_SAMPLES = 5;
/** Sample lines kept per unclassified error shape. */
const MAX_SHAPE_SAMPLES = 3;
/** Objects listed per finding. */
const MAX_OBJECTS = 50;
/** Distinct unclassified error shapes kept; later new shapes only count. */
const MAX_ERROR_SHAPES = 2000;

/** A line (or event) with what is known about where it came from. */
export interface Observation {
  source: LineSource;
  text: string;
  path: string;
  line: number;
  /** The object the file is about (a pod's log, a node's log, an event's object). */
  object: ObjectRef;
  time: number | undefined;
  /** When the observation first happened, if earlier than `time` (an event seen many times). */
  firstTime?: number | undefined;
  /** Times the observation stands for (an event's count). */
  count: number;
}

interface CompiledAllow {
  entry: AllowEntry;
  match: RegExp | undefined;
}

/**
 * Matches observations against the rules and keeps, per rule and grouping
 * key, counts, times, objects and a few samples. Bounded in memory whatever
 * the number of lines.
 */
export class SignatureIndex {
  private readonly bySource = new Map<LineSource, CompiledRule[]>();
  private readonly groups = new Map<string, SignatureGroup>();
  private readonly shapes = new Map<string, ErrorShape>();
  private readonly needleCache = new Map<LineSource, { patterns: RegExp[]; everyLine: boolean }>();
  private otherShapes = 0;
  private readonly allow: CompiledAllow[];
  readonly allowed = new Map<string, { rule: string; reason: string; count: number }>();
  /** Events the kubelet could not report, recovered from its log. */
  readonly swallowedEvents: EventRecord[] = [];

  constructor(rules: readonly Rule[], allow: readonly AllowEntry[]) {
    for (const rule of rules) {
      const compiled = compileRule(rule);
      for (const source of rule.sources) {
        const list = this.bySource.get(source) ?? [];
        list.push(compiled);
        this.bySource.set(source, list);
      }
    }
    this.allow = allow.map((entry) => ({ entry, match: entry.match === undefined ? undefined : new RegExp(entry.match) }));
  }

  /** What makes a line of `source` worth matching: any rule's needle, or an error marker. */
  candidateFilter(source: LineSource): CandidateFilter {
    const needles = this.needlesOf(source);
    const patterns = [new RegExp(ERROR_LINE.source, 'g'), ...needles.patterns.map((pattern) => new RegExp(pattern.source, `${pattern.flags}g`))];
    return { patterns, everyLine: needles.everyLine };
  }

  /** Matches one observation; returns whether any rule (allowed or not) knew it. */
  observe(observation: Observation): boolean {
    let known = false;
    const needles = this.needlesOf(observation.source);
    // Most candidate lines are error lines no rule is about: one combined test rules them all out.
    const anyNeedle = needles.everyLine || needles.patterns.some((pattern) => pattern.test(observation.text));
    const folded = anyNeedle ? observation.text.toLowerCase() : '';
    for (const compiled of anyNeedle ? (this.bySource.get(observation.source) ?? []) : []) {
      if (!hasNeedle(compiled, observation.text, folded)) continue;
      const captures = compiled.match(observation.text);
      if (!captures) continue;
      known = true;
      this.record(compiled.rule, captures, observation);
    }
    if (!known && observation.source !== 'event' && isErrorLine(observation.text)) this.recordErrorShape(observation);
    return known;
  }

  /** The rules' needles of a source as combined regular expressions, built once. */
  private needlesOf(source: LineSource): { patterns: RegExp[]; everyLine: boolean } {
    let cached = this.needleCache.get(source);
    if (!cached) {
      const rules = this.bySource.get(source) ?? [];
      const exact = [...new Set(rules.filter((rule) => !rule.caseInsensitive).flatMap((rule) => rule.needles))];
      const folded = [...new Set(rules.filter((rule) => rule.caseInsensitive).flatMap((rule) => rule.needles))];
      const patterns: RegExp[] = [];
      if (exact.length > 0) patterns.push(new RegExp(exact.map(escapeRegExp).join('|')));
      if (folded.length > 0) patterns.push(new RegExp(folded.map(escapeRegExp).join('|'), 'i'));
      cached = { patterns, everyLine: rules.some((rule) => rule.needles.length === 0) };
      this.needleCache.set(source, cached);
    }
    return cached;
  }

  signatureGroups(): SignatureGroup[] {
    return [...this.groups.values()];
  }

  errorShapes(): ErrorShape[] {
    return [...this.shapes.values()];
  }

  /** Error lines whose shape came after the cap, counted but not kept. */
  get uncountedShapes(): number {
    return this.otherShapes;
  }

  private record(rule: Rule, captures: Record<string, string>, observation: Observation): void {
    const object = objectFromCaptures(captures) ?? observation.object;
    const allowedBy = this.allow.find(
      ({ entry, match }) => entry.rule === rule.id && (entry.namespace === undefined || entry.namespace === object.namespace) && (match === undefined || match.test(observation.text)),
    );
    if (allowedBy) {
      const key = `${allowedBy.entry.rule}\u0000${allowedBy.entry.reason}`;
      const tally = this.allowed.get(key) ?? { rule: rule.id, reason: allowedBy.entry.reason, count: 0 };
      tally.count += observation.count;
      this.allowed.set(key, tally);
      return;
    }
    if (rule.reemitsEvent && captures['eventMessage'] !== undefined) this.swallowedEvents.push(swallowedEvent(captures, object, observation));
    const key: Record<string, string> = {};
    for (const name of rule.groupBy ?? []) key[name] = name === 'object' ? objectKey(object) : (captures[name] ?? '');
    const id = `${rule.id}\u0000${JSON.stringify(key)}`;
    let group = this.groups.get(id);
    if (!group) {
      group = { rule, key, count: 0, firstSeen: undefined, lastSeen: undefined, objects: new Map(), samples: new Map() };
      this.groups.set(id, group);
    }
    group.count += observation.count;
    widenTimes(group, observation.time);
    widenTimes(group, observation.firstTime);
    keepSmallest(group.objects, objectKey(object), object, MAX_OBJECTS, objectKey);
    addSample(group.samples, observation);
  }

  private recordErrorShape(observation: Observation): void {
    const shape = normalizeLine(observation.text);
    let entry = this.shapes.get(shape);
    if (!entry) {
      if (this.shapes.size >= MAX_ERROR_SHAPES) {
        this.otherShapes += observation.count;
        return;
      }
      entry = { shape, count: 0, firstSeen: undefined, lastSeen: undefined, samples: [], objects: new Map() };
      this.shapes.set(shape, entry);
    }
    entry.count += observation.count;
    widenTimes(entry, observation.time);
    keepSmallest(entry.objects, objectKey(observation.object), observation.object, MAX_OBJECTS, objectKey);
    addShapeSample(entry.samples, observation);
  }
}

function hasNeedle(compiled: CompiledRule, text: string, folded: string): boolean {
  if (compiled.needles.length === 0) return true;
  const haystack = compiled.caseInsensitive ? folded : text;
  return compiled.needles.some((needle) => haystack.includes(needle));
}

/** `namespace`/`name`/`kind`, `pod` and `node` captures name the object a line is about. */
function objectFromCaptures(captures: Record<string, string>): ObjectRef | undefined {
  if (captures['pod']) return { kind: 'Pod', namespace: captures['namespace'], name: captures['pod'] };
  if (captures['name']) return { kind: captures['kind'] ?? 'Pod', namespace: captures['namespace'], name: captures['name'] };
  if (captures['node']) return { kind: 'Node', name: captures['node'] };
  return undefined;
}

function swallowedEvent(captures: Record<string, string>, object: ObjectRef, observation: Observation): EventRecord {
  return {
    type: captures['eventType'] ?? 'Warning',
    reason: captures['eventReason'] ?? '',
    message: captures['eventMessage'] ?? '',
    object,
    count: observation.count,
    firstSeen: observation.time,
    lastSeen: observation.time,
    path: observation.path,
    line: observation.line,
    swallowed: true,
  };
}

function widenTimes(target: { firstSeen: number | undefined; lastSeen: number | undefined }, time: number | undefined): void {
  if (time === undefined) return;
  if (target.firstSeen === undefined || time < target.firstSeen) target.firstSeen = time;
  if (target.lastSeen === undefined || time > target.lastSeen) target.lastSeen = time;
}

/**
 * Samples are distinct per file and shape: the same line in events.json and in
 * a kubelet log are two pieces of evidence. Which are kept does not depend on
 * the order files come in (a tar's order is not stable): the first lines by
 * path and line number win, and repeats are counted on the kept ones.
 */
function addSample(samples: Map<string, Sample>, observation: Observation): void {
  const key = `${observation.path}\u0000${normalizeLine(observation.text)}`;
  const existing = samples.get(key);
  if (existing) existing.repeats += observation.count;
  else keepSmallest(samples, key, sampleOf(observation), MAX_SAMPLES, sampleOrder);
}

function sampleOrder(sample: Sample): string {
  return `${sample.path}\u0000${String(sample.line).padStart(12, '0')}`;
}

/** The first few error lines of a shape, by path and line number, whatever the order of the files. */
function addShapeSample(samples: Sample[], observation: Observation): void {
  samples.push(sampleOf(observation));
  samples.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
  if (samples.length > MAX_SHAPE_SAMPLES) samples.pop();
}

/**
 * Keeps at most `limit` entries, those first in `order`: deterministic whatever
 * the order of arrival. The last kept rank is remembered per map, so the
 * common case (a full map and a later entry) is one comparison.
 */
function keepSmallest<T>(map: Map<string, T>, key: string, value: T, limit: number, order: (value: T) => string): void {
  if (map.has(key)) return;
  if (map.size < limit) {
    map.set(key, value);
    LAST_RANKS.delete(map);
    return;
  }
  const rank = order(value);
  let last = LAST_RANKS.get(map);
  if (last === undefined) {
    for (const [existingKey, existing] of map) {
      const existingRank = order(existing);
      if (last === undefined || existingRank > last.rank) last = { key: existingKey, rank: existingRank };
    }
    if (last) LAST_RANKS.set(map, last);
  }
  if (last !== undefined && rank < last.rank) {
    map.delete(last.key);
    map.set(key, value);
    LAST_RANKS.delete(map);
  }
}

const LAST_RANKS = new WeakMap<Map<string, unknown>, { key: string; rank: string }>();

function sampleOf(observation: Observation): Sample {
  return { path: observation.path, line: observation.line, text: observation.text, repeats: observation.count };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
