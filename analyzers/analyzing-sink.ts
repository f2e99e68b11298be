import { Readable } from 'node:stream';
import { FINDINGS_PATH, SUMMARY_PATH } from '../archive/layout.js';
import type { ArchiveSink, EntrySource } from '../archive/sink.js';
import { analyzeEvidence } from './analyze.js';
import { renderJson } from './render/json.js';
import { renderMarkdown } from './render/markdown.js';
import { EvidenceBuilder } from './scan/read-evidence.js';
import { SignatureIndex } from './scan/signature-index.js';
import type { RuleSet } from './rules/load-rules.js';
import type { Analysis } from './types.js';

/**
 * `collect --analyze`: analyzes every entry as it streams into the real sink,
 * so nothing is read twice, and adds `analysis/findings.json` and
 * `analysis/summary.md` before the archive is closed.
 */
export class AnalyzingSink implements ArchiveSink {
  private readonly builder: EvidenceBuilder;
  /** Set once `close` has run the analysis. */
  analysis: Analysis | undefined;

  constructor(
    private readonly inner: ArchiveSink,
    rules: RuleSet,
    private readonly toolVersion: string,
  ) {
    this.builder = new EvidenceBuilder(inner.location, new SignatureIndex(rules.rules, rules.allow));
  }

  get location(): string {
    return this.inner.location;
  }

  writeEntry(path: string, source: EntrySource): Promise<number> {
    return this.inner.writeEntry(path, this.tee(path, source));
  }

  async close(): Promise<void> {
    const analysis = analyzeEvidence(this.builder.finish(), this.toolVersion);
    this.analysis = analysis;
    await this.inner.writeEntry(FINDINGS_PATH, Readable.from([renderJson(analysis)]));
    await this.inner.writeEntry(SUMMARY_PATH, Readable.from([renderMarkdown(analysis)]));
    await this.inner.close();
  }

  /** Passes the bytes on unchanged; a chunk the analysis chokes on never stops the dump. */
  private async *tee(path: string, source: EntrySource): AsyncGenerator<Buffer> {
    let consumer: ReturnType<EvidenceBuilder['addEntry']> | undefined = this.builder.addEntry(path);
    for await (const chunk of source as AsyncIterable<Uint8Array | string>) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      if (consumer) {
        try {
          consumer.push(bytes);
        } catch (error) {
          this.builder.recordUnreadable(path, error);
          consumer = undefined;
        }
      }
      yield bytes;
    }
    try {
      consumer?.end();
    } catch (error) {
      this.builder.recordUnreadable(path, error);
    }
  }
}
