/**
 * Runs as a short-lived child process: the only place @kubernetes/client-node
 * is loaded. The library costs about 60 MB of memory once imported, more than a
 * whole collection needs, and a worker thread would leave half of that behind
 * in our heap; here it turns a kubeconfig into plain credentials and exits.
 */
import type https from 'node:https';
import { KubeConfig } from '@kubernetes/client-node';
import type { CredentialsReply, KubeTarget } from './credentials.js';

function load(target: KubeTarget): CredentialsReply {
  const config = new KubeConfig();
  try {
    if (target.kubeconfig) config.loadFromFile(target.kubeconfig);
    else config.loadFromDefault();
  } catch (error) {
    const where = target.kubeconfig ? `--kubeconfig ${target.kubeconfig}` : 'the default kubeconfig';
    return { kind: 'usage', message: `cannot load ${where}: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (target.context) {
    if (!config.getContextObject(target.context)) {
      const known = config.getContexts().map((context) => context.name);
      return { kind: 'usage', message: `--context ${target.context} is not in the kubeconfig (contexts: ${known.join(', ') || 'none'})` };
    }
    config.setCurrentContext(target.context);
  }
  const cluster = config.getCurrentCluster();
  if (!cluster) return { kind: 'usage', message: 'the kubeconfig has no current cluster; pass --context or --kubeconfig' };
  if (cluster.server.startsWith('http:')) allowPlainHttp(config);
  return { kind: 'pending', server: cluster.server, context: config.getCurrentContext(), config };
}

/**
 * @kubernetes/client-node refuses an `http:` server unless the cluster entry
 * says `insecure-skip-tls-verify`, yet plain HTTP is what `kubectl proxy` and
 * local test servers offer, and TLS verification means nothing there.
 */
function allowPlainHttp(config: KubeConfig): void {
  const current = config.getCurrentCluster();
  config.loadFromOptions({
    clusters: config.clusters.map((cluster) => (cluster.name === current?.name ? { ...cluster, skipTLSVerify: true } : cluster)),
    users: config.users,
    contexts: config.contexts,
    currentContext: config.currentContext,
  });
}

async function resolve(target: KubeTarget): Promise<CredentialsReply> {
  const loaded = load(target);
  if (loaded.kind !== 'pending') return loaded;
  const options: https.RequestOptions = {};
  try {
    // Runs exec plugins, reads token files and client certificates, as kubectl would.
    await loaded.config.applyToHTTPSOptions(options);
  } catch (error) {
    return { kind: 'usage', message: `cannot get credentials for context ${loaded.context}: ${error instanceof Error ? error.message : String(error)}` };
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (typeof value === 'string') headers[name] = value;
  }
  return {
    kind: 'credentials',
    credentials: {
      server: loaded.server,
      context: loaded.context,
      headers,
      basicAuth: typeof options.auth === 'string' ? options.auth : undefined,
      tls: {
        ca: toBuffer(options.ca),
        cert: toBuffer(options.cert),
        key: toBuffer(options.key),
        rejectUnauthorized: options.rejectUnauthorized,
        servername: options.servername,
      },
    },
  };
}

function toBuffer(value: unknown): Buffer | undefined {
  if (Buffer.isBuffer(value)) return value;
  if (typeof value === 'string') return Buffer.from(value);
  return undefined;
}

process.once('message', (target: KubeTarget) => {
  resolve(target).then(
    (reply) => process.send?.(reply, () => process.disconnect()),
    (error: unknown) => {
      process.stderr.write(`logdump: resolving credentials: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
});
