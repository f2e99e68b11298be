import cliProgress from 'cli-progress';

/** What progress needs to know of a finished item. */
export interface ProgressItem {
  bytes: number;
  error?: string;
}

/** Reports a run's progress on stderr; `stop` before printing the summary. */
export interface ProgressReporter {
  planned(count: number): void;
  finished(item: ProgressItem): void;
  stop(): void;
}

/** Plain progress lines come at most this often, so a CI log stays readable. */
const PLAIN_LINE_INTERVAL_MS = 5000;

/**
 * A bar when stderr is a terminal; otherwise a plain line now and then, because
 * carriage-return animations turn a CI log into noise.
 */
export function createProgress(stream: NodeJS.WriteStream, label: string): ProgressReporter {
  return stream.isTTY ? barProgress(stream, label) : plainProgress(stream, label);
}

function barProgress(stream: NodeJS.WriteStream, label: string): ProgressReporter {
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: `${label} [{bar}] {value}/{total} files | {size} | {failed} failed`,
      hideCursor: true,
      clearOnComplete: true,
      fps: 10,
    },
    cliProgress.Presets.shades_classic,
  );
  const totals = { planned: 0, bytes: 0, failed: 0 };
  bar.start(0, 0, { size: formatMiB(0), failed: 0 });
  return {
    planned(count) {
      totals.planned += count;
      bar.setTotal(totals.planned);
    },
    finished(item) {
      totals.bytes += item.bytes;
      if (item.error !== undefined && item.bytes === 0) totals.failed += 1;
      bar.increment(1, { size: formatMiB(totals.bytes), failed: totals.failed });
    },
    stop() {
      bar.stop();
    },
  };
}

function plainProgress(stream: NodeJS.WriteStream, label: string): ProgressReporter {
  const totals = { planned: 0, done: 0, bytes: 0, failed: 0 };
  let lastLineAt = performance.now();
  const line = (): void => {
    stream.write(`logdump: ${label}: ${totals.done}/${totals.planned} files, ${formatMiB(totals.bytes)}, ${totals.failed} failed\n`);
    lastLineAt = performance.now();
  };
  return {
    planned(count) {
      totals.planned += count;
    },
    finished(item) {
      totals.done += 1;
      totals.bytes += item.bytes;
      if (item.error !== undefined && item.bytes === 0) totals.failed += 1;
      if (performance.now() - lastLineAt >= PLAIN_LINE_INTERVAL_MS) line();
    },
    stop() {
      // The summary line that follows says the rest.
    },
  };
}

function formatMiB(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
