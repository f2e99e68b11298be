import { describeError, EXIT, type ExitCode } from '../core/errors.js';
import { parseDurationMs } from '../core/units.js';
import { gcswebUrl, parseGcsUrl } from './gcs-url.js';
import { uploadDump } from './upload-dump.js';

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
  const result = await uploadDump(flags.dump, target, { mode: flags.mode, endpoint: flags['gcs-endpoint'], timeoutMs });
  const failed = result.failed.length > 0 ? `, ${result.failed.length} failed (first: ${describeError(result.failed[0])}; the local dump ${flags.dump} is intact)` : '';
  process.stdout.write(`uploaded ${result.uploaded.length} objects, ${result.bytes} bytes${failed}: ${gcswebUrl(target)}\n`);
  return result.failed.length > 0 ? EXIT.partial : EXIT.ok;
}
