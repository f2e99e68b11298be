import { describeError, EXIT, type ExitCode } from '../core/errors.js';
import { parseDurationMs } from '../core/units.js';
import { gcswebUrl, parseGcsUrl, type GcsLocation } from './gcs-url.js';
import { uploadDump, type UploadDumpOptions, type UploadResult } from './upload-dump.js';

/** `logdump upload`'s flags, as parsed. */
export interface UploadFlags {
  dump: string;
  target: string;
  mode: 'expanded' | 'archive';
  'gcs-endpoint'?: string | undefined;
  timeout?: string | undefined;
}

/**
 * The `upload` command: one line on stdout with what went where and its browse
 * URL; exit 1 when some objects failed (the local dump is intact and the line
 * says so). A bucket that cannot be reached at all is an UnreachableError.
 */
export async function runUpload(flags: UploadFlags): Promise<ExitCode> {
  const target = parseGcsUrl(flags.target);
  const timeoutMs = flags.timeout === undefined ? undefined : parseDurationMs(flags.timeout, '--timeout');
  const result = await uploadAndReport(flags.dump, target, { mode: flags.mode, endpoint: flags['gcs-endpoint'], timeoutMs }, (line) => process.stdout.write(`${line}\n`));
  return uploadExitCode(result);
}

/**
 * Uploads a local dump and hands `report` one line saying what arrived and
 * where to browse it. Throws BucketUnreachableError when nothing arrived.
 */
export async function uploadAndReport(local: string, target: GcsLocation, options: UploadDumpOptions, report: (line: string) => void, browseUrl = gcswebUrl(target)): Promise<UploadResult> {
  const result = await uploadDump(local, target, options);
  report(describeUpload(result, browseUrl));
  return result;
}

/** Exit 1 when some objects failed; the local dump is intact and the report line says so. */
export function uploadExitCode(result: UploadResult): ExitCode {
  return result.failed.length > 0 ? EXIT.partial : EXIT.ok;
}

/** "uploaded 212 objects, 4417 bytes: URL", naming the first failure and the intact local copy if any. */
function describeUpload(result: UploadResult, browseUrl: string): string {
  const failed = result.failed.length > 0 ? `, ${result.failed.length} failed (first: ${describeError(result.failed[0])}; the local dump ${result.local} is intact)` : '';
  return `uploaded ${result.uploaded.length} objects, ${result.bytes} bytes${failed}: ${browseUrl}`;
}
