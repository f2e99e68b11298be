import type { Argv, CommandModule } from 'yargs';
import { describeError, EXIT } from '../../core/errors.js';
import { parseDurationMs } from '../../core/units.js';
import { runCommand } from '../exit.js';

interface UploadArgs {
  dump: string;
  target: string;
  mode: 'expanded' | 'archive';
  'gcs-endpoint'?: string | undefined;
  timeout?: string | undefined;
}

/** `logdump upload DUMP gs://BUCKET/PREFIX`: a dump into Google Cloud Storage. */
export const uploadCommand: CommandModule<object, UploadArgs> = {
  command: 'upload <dump> <target>',
  describe: 'Upload a dump (.tar.gz or directory) to gs://BUCKET/PREFIX, one object per file or as one archive',
  builder: (yargs: Argv) =>
    yargs
      .positional('dump', { type: 'string', demandOption: true, describe: 'A .tar.gz made by logdump collect, or a directory with its layout' })
      .positional('target', { type: 'string', demandOption: true, describe: 'gs://BUCKET/PREFIX' })
      .option('mode', { type: 'string', choices: ['expanded', 'archive'], default: 'expanded', describe: 'expanded: one object per file; archive: the .tar.gz as one object' })
      .option('gcs-endpoint', { type: 'string', describe: 'A GCS-compatible endpoint, e.g. a test server (default: $STORAGE_EMULATOR_HOST, else Google)' })
      .option('timeout', { type: 'string', describe: 'Overall deadline, e.g. 10m; what is not uploaded by then fails' }) as unknown as Argv<UploadArgs>,
  handler: (args) =>
    runCommand(async () => {
      // Loaded only when used: the GCS client takes a while to import.
      const { parseGcsUrl, gcswebUrl } = await import('../../gcs/gcs-url.js');
      const target = parseGcsUrl(args.target);
      const timeoutMs = args.timeout === undefined ? undefined : parseDurationMs(args.timeout, '--timeout');
      const { BucketUnreachableError, uploadDump } = await import('../../gcs/upload-dump.js');
      try {
        const result = await uploadDump(args.dump, target, { mode: args.mode, endpoint: args['gcs-endpoint'], timeoutMs });
        const failed = result.failed.length > 0 ? `, ${result.failed.length} failed (first: ${describeError(result.failed[0])}; the local dump ${args.dump} is intact)` : '';
        process.stdout.write(`uploaded ${result.uploaded.length} objects, ${result.bytes} bytes${failed}: ${gcswebUrl(target)}\n`);
        return result.failed.length > 0 ? EXIT.partial : EXIT.ok;
      } catch (error: unknown) {
        // exitCodeFor only knows the cluster's unreachable error; the bucket's maps to the same code here.
        if (!(error instanceof BucketUnreachableError)) throw error;
        process.stderr.write(`logdump: ${describeError(error)}\n`);
        return EXIT.unreachable;
      }
    }),
};
