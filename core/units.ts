import { UsageError } from './errors.js';

const DURATION_UNITS_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * Parses kubectl-style durations: `30s`, `5m`, `1h30m`, `250ms`; a bare number
 * is seconds, as in `kubectl logs --since`. Throws a UsageError naming the flag.
 */
export function parseDurationMs(text: string, flag: string): number {
  const trimmed = text.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const pattern = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/gy;
  let total = 0;
  let consumed = 0;
  for (const match of trimmed.matchAll(pattern)) {
    total += Number(match[1]) * (DURATION_UNITS_MS[match[2] ?? ''] ?? Number.NaN);
    consumed += match[0].length;
  }
  if (trimmed === '' || consumed !== trimmed.length || !Number.isFinite(total) || total <= 0) {
    throw new UsageError(`${flag} "${text}" is not a duration like 30s, 5m or 1h30m`);
  }
  return Math.round(total);
}

const SIZE_UNITS: Record<string, number> = {
  '': 1,
  k: 1e3, m: 1e6, g: 1e9,
  ki: 1024, mi: 1024 ** 2, gi: 1024 ** 3,
};

/** Parses byte sizes: `1048576`, `10Mi`, `500k`, `2G` (case-insensitive, optional `B`). */
export function parseBytes(text: string, flag: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([kmg]i?)?b?$/i.exec(text.trim());
  const factor = SIZE_UNITS[(match?.[2] ?? '').toLowerCase()];
  const value = match && factor !== undefined ? Math.floor(Number(match[1]) * factor) : Number.NaN;
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new UsageError(`${flag} "${text}" is not a size like 1048576, 10Mi or 1G`);
  }
  return value;
}
