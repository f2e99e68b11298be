/**
 * Finds the lines of a log worth a closer look without decoding or splitting
 * every line: each chunk is searched as a whole for the rules' literal needles
 * (and error markers), and only the lines around a hit are cut out and decoded.
 * A gigabyte of logs mostly never reaches a regular expression per line.
 */

/** A line handed to the analyzers. */
export interface ScannedLine {
  /** UTF-8 decoded; invalid bytes become U+FFFD; at most MAX_LINE_BYTES of the line. */
  text: string;
  /** 1-based. */
  number: number;
  /** The line was longer than MAX_LINE_BYTES and only its start is in `text`. */
  cut: boolean;
}

/** Lines are matched on their first 64 KiB: enough for any log line a person reads. */
export const MAX_LINE_BYTES = 64 * 1024;

const NEWLINE = 10;
const CARRIAGE_RETURN = 13;

/** What makes a line a candidate: a regex over the chunk (latin1, so offsets are byte offsets). */
export interface CandidateFilter {
  /** Global (g) regexes; a match anywhere in a line makes the line a candidate. */
  patterns: RegExp[];
  /** Every line is a candidate (a rule without needles is active). */
  everyLine: boolean;
}

/**
 * Feeds a log's chunks in order; `onLine` receives candidate lines with their
 * line numbers, in order. Memory: one chunk plus at most MAX_LINE_BYTES of an
 * unfinished line.
 */
export class LineScanner {
  private carry: Buffer[] = [];
  private carryBytes = 0;
  /** The unfinished line grew past MAX_LINE_BYTES; the rest of it is skipped. */
  private carryCut = false;
  /** Lines completed so far. */
  private lines = 0;
  private bytes = 0;

  constructor(
    private readonly filter: CandidateFilter,
    private readonly onLine: (line: ScannedLine) => void,
  ) {}

  get lineCount(): number {
    return this.lines;
  }

  get byteCount(): number {
    return this.bytes;
  }

  push(chunk: Buffer): void {
    this.bytes += chunk.byteLength;
    const firstNewline = chunk.indexOf(NEWLINE);
    if (firstNewline === -1) {
      this.addToCarry(chunk);
      return;
    }
    // The line that was open ends in this chunk.
    this.addToCarry(chunk.subarray(0, firstNewline + 1));
    this.flushCarry();
    const lastNewline = chunk.lastIndexOf(NEWLINE);
    if (lastNewline > firstNewline) this.scanBlock(chunk.subarray(firstNewline + 1, lastNewline + 1));
    this.addToCarry(chunk.subarray(lastNewline + 1));
  }

  /** The log ended; a last line without a newline still counts. */
  end(): void {
    if (this.carryBytes > 0 || this.carryCut) this.flushCarry();
  }

  private addToCarry(bytes: Buffer): void {
    if (bytes.byteLength === 0) return;
    const room = MAX_LINE_BYTES + 1 - this.carryBytes;
    if (room <= 0) {
      this.carryCut = true;
      return;
    }
    // Copied: the chunk's memory is not ours to keep.
    const kept = Buffer.from(bytes.subarray(0, room));
    this.carry.push(kept);
    this.carryBytes += kept.byteLength;
    if (bytes.byteLength > room) this.carryCut = true;
  }

  private flushCarry(): void {
    const line = Buffer.concat(this.carry, this.carryBytes);
    this.carry = [];
    this.carryBytes = 0;
    const cut = this.carryCut;
    this.carryCut = false;
    this.scanBlock(line.at(-1) === NEWLINE ? line : Buffer.concat([line, Buffer.from('\n')]), cut);
  }

  /** Scans complete lines (the block ends with a newline). */
  private scanBlock(block: Buffer, cutLine = false): void {
    const starts = this.filter.everyLine ? allLineStarts(block) : candidateStarts(block.toString('latin1'), this.filter.patterns);
    let counted = 0;
    for (const start of starts) {
      this.lines += countNewlines(block, counted, start);
      const end = block.indexOf(NEWLINE, start);
      this.onLine({ ...decodeLine(block, start, end, cutLine), number: this.lines + 1 });
      this.lines += 1;
      counted = end + 1;
    }
    this.lines += countNewlines(block, counted, block.byteLength);
  }
}

/** Newlines in block[from, to); memchr-fast through indexOf. */
function countNewlines(block: Buffer, from: number, to: number): number {
  let count = 0;
  for (let at = block.indexOf(NEWLINE, from); at !== -1 && at < to; at = block.indexOf(NEWLINE, at + 1)) count += 1;
  return count;
}

function allLineStarts(block: Buffer): number[] {
  const starts: number[] = [];
  for (let start = 0; start < block.byteLength; ) {
    starts.push(start);
    const end = block.indexOf(NEWLINE, start);
    if (end === -1) break;
    start = end + 1;
  }
  return starts;
}

/** Start offsets of the lines holding a match of any pattern, ascending and unique. */
function candidateStarts(text: string, patterns: RegExp[]): number[] {
  const starts = new Set<number>();
  for (const pattern of patterns) {
    pattern.lastIndex = 0;
    for (let found = pattern.exec(text); found; found = pattern.exec(text)) {
      // A match may begin with the newline before its line (`(?:^|\n)E0210`); its last character is always in the line.
      const inLine = found.index + Math.max(0, found[0].length - 1);
      const start = text.lastIndexOf('\n', inLine - 1) + 1;
      starts.add(start);
      // Go on from this line's newline: one hit per line is enough, and a pattern
      // anchored on the newline (`\nE0210`) must still see the next line's.
      const end = text.indexOf('\n', inLine);
      pattern.lastIndex = end === -1 ? text.length : end;
    }
  }
  return [...starts].sort((a, b) => a - b);
}

function decodeLine(block: Buffer, start: number, end: number, cut: boolean): Omit<ScannedLine, 'number'> {
  let stop = end === -1 ? block.byteLength : end;
  if (stop > start && block[stop - 1] === CARRIAGE_RETURN) stop -= 1;
  const tooLong = stop - start > MAX_LINE_BYTES;
  const text = block.toString('utf8', start, tooLong ? start + MAX_LINE_BYTES : stop);
  return { text, cut: cut || tooLong };
}
