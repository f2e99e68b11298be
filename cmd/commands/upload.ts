import type { Argv, CommandModule } from 'yargs';
import type { UploadFlags } from '../../gcs/run-upload.js';
import { runCommand } from '../exit.js';

/** `logdump upload DUMP gs://BUCKET/PREFIX`: a dump into Google Cloud Storage. */
export const uploadCommand: CommandModule<object, UploadFlags> = {
  command: 'upload <dump> <target>',
  describe: 'Upload a dump (.tar.gz or directory) to gs://BUCKET/PREFIX, one object per file or as one archive',
  builder: (yargs: Argv) =>
    yargs
      .positional('dump', { type: 'string', demandOption: true, describe: 'A .tar.gz made by logdump collect, or a directory with its layout' })
      .positional('target', { type: 'string', demandOption: true, describe: 'gs://BUCKET/PREFIX' })
      .option('mode', { type: 'string', choices: ['expanded', 'archive'], default: 'expanded', describe: 'expanded: one object per file; archive: the .tar.gz as one object' })
      .option('gcs-endpoint', { type: 'string', describe: 'A GCS-compatible endpoint, e.g. a test server (default: $STORAGE_EMULATOR_HOST, else Google)' })
      .option('timeout', { type: 'string', describe: 'Overall deadline, e.g. 10m; what is not uploaded by then fails' }) as unknown as Argv<UploadFlags>,
  handler: (args) =>
    runCommand(async () => {
      // Loaded only when used: the GCS client takes a while to import.
      const { runUpload } = await import('../../gcs/run-upload.js');
      return runUpload(args);
    }),
};
