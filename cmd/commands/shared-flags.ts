import type { Argv } from 'yargs';
import { COLLECT_DEFAULTS } from '../../collectors/defaults.js';

/** What to collect and where to write it: the flags `collect`, `run` and `ci` share. */
export function withCollectFlags(yargs: Argv): Argv {
  return yargs
    .option('kubeconfig', { type: 'string', describe: 'Path to the kubeconfig file (default: $KUBECONFIG, ~/.kube/config, in-cluster)' })
    .option('context', { type: 'string', describe: 'The kubeconfig context to use' })
    .option('namespace', { alias: 'n', type: 'string', array: true, default: [] as string[], describe: 'Only these namespaces (repeatable)' })
    .option('all-namespaces', { alias: 'A', type: 'boolean', default: false, describe: 'All namespaces (the default when no -n is given)' })
    .option('out', { alias: 'o', type: 'string', describe: 'Write a .tar.gz here (default: ./logdump-TIMESTAMP.tar.gz)' })
    .option('out-dir', { type: 'string', describe: 'Write the dump as a directory tree instead' })
    .option('since', { type: 'string', describe: 'Only logs newer than this duration, e.g. 2h (default: everything)' })
    .option('max-log-bytes', { type: 'string', describe: 'Cap per container log instance, e.g. 50Mi (default: no cap)' })
    .option('node-log', { type: 'string', array: true, default: [] as string[], describe: "Extra node log to collect besides the kubelet's, e.g. kube-proxy (repeatable)" })
    .option('concurrency', { type: 'number', default: COLLECT_DEFAULTS.concurrency, describe: 'Requests in flight at once' })
    .option('chunk-size', { type: 'number', default: COLLECT_DEFAULTS.chunkSize, describe: "Objects per list request, as kubectl's --chunk-size" })
    .option('gzip-level', { type: 'number', default: COLLECT_DEFAULTS.gzipLevel, describe: 'Archive compression, 1 (fastest) to 9 (smallest)' })
    .option('request-timeout', { type: 'string', default: COLLECT_DEFAULTS.requestTimeout, describe: 'Give up a request that sends nothing for this long' })
    .option('rules', { type: 'string', array: true, default: [] as string[], describe: 'A YAML file of extra rules and allow entries for the analysis (repeatable)' })
    .option('sim', { type: 'string', describe: 'Collect from an embedded simulated cluster running this scenario instead' })
    .conflicts('sim', ['kubeconfig', 'context']);
}

/** Where the finished dump is uploaded. */
export function withUploadFlags(yargs: Argv): Argv {
  return yargs
    .option('upload', { type: 'string', describe: 'Upload the finished dump to gs://BUCKET/PREFIX (the local copy stays)' })
    .option('upload-mode', { type: 'string', choices: ['expanded', 'archive'], default: 'expanded', describe: 'expanded: one object per file; archive: the .tar.gz as one object' })
    .option('gcs-endpoint', { type: 'string', describe: 'A GCS-compatible endpoint, e.g. a test server (default: $STORAGE_EMULATOR_HOST, else Google)' });
}

/** Runs `body` against `--sim SCENARIO` when asked (with its kubeconfig), else against the cluster the flags name. */
export async function onCluster<A extends { sim?: string | undefined; kubeconfig?: string | undefined }, T>(args: A, body: (flags: A) => Promise<T>): Promise<T> {
  if (args.sim === undefined) return body(args);
  const { withSimulatedCluster } = await import('../../sim/embedded.js');
  return withSimulatedCluster(args.sim, (kubeconfig) => body({ ...args, kubeconfig }));
}
