import { readFileSync } from 'node:fs';

/** The tool's version, from the package.json shipped beside dist/. */
export function toolVersion(): string {
  const url = new URL('../../package.json', import.meta.url);
  const parsed = JSON.parse(readFileSync(url, 'utf8')) as { version?: string };
  return parsed.version ?? '0.0.0';
}
