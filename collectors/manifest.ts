import type { ItemSource, ManifestItem } from './types.js';

/** Why collection stopped before everything was asked for. */
export type Interruption = 'deadline' | 'SIGINT' | 'SIGTERM';

/**
 * `manifest.json`: what the dump holds and what it misses. Its shape is part of
 * the archive layout the README documents; readers (the analyzer, people) rely
 * on it to tell a silent absence from a failure.
 */
export interface Manifest {
  /** Bumped when a field changes meaning. */
  schemaVersion: 1;
  tool: { name: 'kube-logdump'; version: string };
  cluster: { server: string; version: string | undefined; reachable: boolean; error?: string };
  startedAt: string;
  endedAt: string;
  /** The options that shaped the dump (no credentials). */
  options: Record<string, unknown>;
  /** Set when the deadline or a signal stopped collection early. */
  interrupted: Interruption | undefined;
  summary: ManifestSummary;
  /** Sorted by path. */
  items: ManifestItem[];
}

/** Counts over the items, for the summary line and quick reading. */
export interface ManifestSummary {
  items: number;
  stored: number;
  failed: number;
  truncated: number;
  skipped: number;
  bytes: number;
  bySource: Partial<Record<ItemSource, { stored: number; failed: number; bytes: number }>>;
}

export function summarize(items: readonly ManifestItem[]): ManifestSummary {
  const summary: ManifestSummary = { items: items.length, stored: 0, failed: 0, truncated: 0, skipped: 0, bytes: 0, bySource: {} };
  for (const item of items) {
    const source = (summary.bySource[item.source] ??= { stored: 0, failed: 0, bytes: 0 });
    const failed = item.error !== undefined && item.bytes === 0;
    if (failed) {
      summary.failed += 1;
      source.failed += 1;
    } else if (item.skipped !== undefined) {
      summary.skipped += 1;
    } else {
      summary.stored += 1;
      source.stored += 1;
    }
    if (item.truncated) summary.truncated += 1;
    summary.bytes += item.bytes;
    source.bytes += item.bytes;
  }
  return summary;
}

/** Complete: nothing failed or was cut. Partial: the dump has gaps the manifest lists. */
export function isComplete(manifest: Manifest): boolean {
  return manifest.cluster.reachable && manifest.interrupted === undefined && manifest.summary.failed === 0 && !manifest.items.some((item) => item.error !== undefined);
}

/**
 * One line for stderr: what was stored, and what was not, with the first few
 * failures named so a CI log shows the gap without opening the manifest.
 */
export function renderSummaryLine(manifest: Manifest, location: string): string {
  const { summary } = manifest;
  const parts = [`${summary.stored} files (${formatBytes(summary.bytes)}) written to ${location}`];
  if (summary.failed > 0) parts.push(`${summary.failed} failed`);
  if (summary.truncated > 0) parts.push(`${summary.truncated} truncated`);
  if (summary.skipped > 0) parts.push(`${summary.skipped} skipped`);
  if (manifest.interrupted) parts.push(`stopped early (${manifest.interrupted})`);
  if (!manifest.cluster.reachable) parts.push(`cluster unreachable: ${manifest.cluster.error ?? 'unknown error'}`);
  const failures = manifest.items.filter((item) => item.error !== undefined && item.bytes === 0);
  if (failures.length > 0) {
    const named = failures.slice(0, 3).map((item) => `${item.path} (${item.error})`);
    parts.push(`e.g. ${named.join('; ')}${failures.length > 3 ? `; ${failures.length - 3} more in manifest.json` : ''}`);
  }
  return `logdump: ${parts.join(', ')}`;
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}
