import { fork } from 'node:child_process';
import type { KubeConfig } from '@kubernetes/client-node';
import { UsageError } from '../core/errors.js';

/** Where to find the cluster: kubectl's flags, with the same precedence. */
export interface KubeTarget {
  /** `--kubeconfig`; otherwise KUBECONFIG, ~/.kube/config, then in-cluster config. */
  kubeconfig?: string | undefined;
  /** `--context`; otherwise the kubeconfig's current context. */
  context?: string | undefined;
}

/** Everything a request needs, as plain data: no library objects cross threads. */
export interface Credentials {
  /** The server URL as the kubeconfig gives it (it may hold a user:password). */
  server: string;
  context: string;
  /** Authorization and any other headers the kubeconfig's user implies. Never print these. */
  headers: Record<string, string>;
  basicAuth: string | undefined;
  tls: {
    ca: Buffer | undefined;
    cert: Buffer | undefined;
    key: Buffer | undefined;
    rejectUnauthorized: boolean | undefined;
    servername: string | undefined;
  };
}

/** What the credentials process answers. `pending` is internal to it. */
export type CredentialsReply =
  | { kind: 'credentials'; credentials: Credentials }
  | { kind: 'usage'; message: string }
  | { kind: 'pending'; server: string; context: string; config: KubeConfig };

/**
 * Resolves a kubeconfig into credentials in a short-lived child process (see
 * credentials-process.ts for why). Its stderr is ours, so an exec plugin's
 * messages reach the user. Problems with the kubeconfig, its context or its
 * auth plugin are usage errors: they are found before any request is made.
 */
export async function loadCredentials(target: KubeTarget): Promise<Credentials> {
  // 'advanced' serialization carries the certificate Buffers across.
  const child = fork(new URL('./credentials-process.js', import.meta.url), [], {
    serialization: 'advanced',
    stdio: ['inherit', 'ignore', 'inherit', 'ipc'],
  });
  try {
    const reply = await new Promise<CredentialsReply>((resolve, reject) => {
      child.once('message', (message) => resolve(message as CredentialsReply));
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`resolving credentials: the helper process exited with code ${code} before answering`)));
      child.send(target);
    });
    if (reply.kind === 'usage') throw new UsageError(reply.message);
    if (reply.kind !== 'credentials') throw new Error(`resolving credentials: the helper process answered ${reply.kind}`);
    return reply.credentials;
  } finally {
    if (child.exitCode === null) child.kill();
  }
}
