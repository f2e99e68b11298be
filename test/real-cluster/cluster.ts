/**
 * A real control plane for tests: etcd and kube-apiserver 1.20.2 (built by
 * test/real-cluster/setup) on 127.0.0.1 only, on free ports, with token auth.
 * No controllers or scheduler run, so objects stay exactly as they are created.
 * Flags are the ones checked on this kind of machine (shared notes,
 * real-apiserver.md): 1.20 serves HTTPS only, so --insecure-port=0.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { access, constants, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createSelfSignedTls } from '../../sim/tls.js';

/** Where test/real-cluster/setup caches the binary. */
export const KUBE_APISERVER = join(
  process.env['LOGDUMP_REAL_CACHE'] ?? join(process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache'), 'kube-logdump'),
  'kube-apiserver-1.20.2/kube-apiserver',
);

/** The user whose token is in tokens.csv as a member of system:masters. */
export const ADMIN_USER = 'logdump-admin';
/** A user with no group: RBAC decides everything it may do. */
export const RESTRICTED_USER = 'logdump-restricted';

const READY_TIMEOUT_MS = 90_000;

/** How to start a control plane. */
export interface RealClusterOptions {
  authorizationMode: 'AlwaysAllow' | 'RBAC';
}

/** A running etcd + kube-apiserver. */
export interface RealCluster {
  /** `https://127.0.0.1:PORT`. */
  url: string;
  /** The serving certificate (self-signed, CA:true), for clients to trust. */
  caCert: string;
  adminToken: string;
  restrictedToken: string;
  /** A kubeconfig for the admin, written with mode 0600. */
  kubeconfig: string;
  /** Writes a kubeconfig for `token` to `path`. */
  writeKubeconfig(path: string, token: string): Promise<void>;
  /** A directory for the test's own files, removed by close(). */
  dir: string;
  /** Stops kube-apiserver and etcd (by their pids) and removes the directory. */
  close(): Promise<void>;
}

/**
 * Why the real-cluster suites cannot run here, or undefined when they can. They
 * run only under `npm run test:real` (LOGDUMP_REAL_TESTS=1), which builds the
 * binary first; `npm test` finds them too and skips them.
 */
export async function realClusterUnavailable(): Promise<string | undefined> {
  if (process.env['LOGDUMP_REAL_TESTS'] !== '1') return 'real API server tests run with npm run test:real';
  try {
    await access(KUBE_APISERVER, constants.X_OK);
  } catch {
    return `no ${KUBE_APISERVER}: run test/real-cluster/setup (npm run test:real does)`;
  }
  return undefined;
}

/** A port nothing listens on right now. */
async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

function renderKubeconfig(url: string, caCert: string, user: string, token: string): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: real',
    '  cluster:',
    `    server: ${url}`,
    `    certificate-authority-data: ${Buffer.from(caCert).toString('base64')}`,
    'users:',
    `- name: ${user}`,
    '  user:',
    `    token: ${token}`,
    'contexts:',
    '- name: real',
    '  context:',
    '    cluster: real',
    `    user: ${user}`,
    'current-context: real',
    '',
  ].join('\n');
}

/** Starts a child with its output in a log file; rejects nothing, the caller checks readiness. */
function startLogged(command: string, args: string[], logFile: string): ChildProcess {
  const log = createWriteStream(logFile);
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  process.kill(child.pid, 'SIGTERM');
  const timer = setTimeout(() => {
    if (child.pid !== undefined && child.exitCode === null) process.kill(child.pid, 'SIGKILL');
  }, 5_000);
  await exited;
  clearTimeout(timer);
}

function getStatus(url: string, caCert: string, token: string): Promise<number> {
  return new Promise((resolveStatus) => {
    const req = request(url, { ca: caCert, headers: { Authorization: `Bearer ${token}` }, timeout: 2_000 }, (res) => {
      res.resume();
      resolveStatus(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolveStatus(0));
    req.end();
  });
}

async function tail(file: string, lines: number): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').slice(-lines).join('\n');
}

/** Starts etcd and kube-apiserver; resolves when /readyz answers 200. */
export async function startRealCluster(options: RealClusterOptions): Promise<RealCluster> {
  // etcd on tmpfs when there is one: its fsyncs are most of a cold start.
  const base = await access('/dev/shm', constants.W_OK).then(() => '/dev/shm', () => tmpdir());
  const dir = await mkdtemp(join(base, 'logdump-real-'));
  const children: ChildProcess[] = [];
  const closeAll = async (): Promise<void> => {
    for (const child of children.reverse()) await stop(child);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const [etcdClient, etcdPeer, apiPort] = [await freePort(), await freePort(), await freePort()];
    const etcd = `http://127.0.0.1:${etcdClient}`;
    children.push(
      startLogged('etcd', [
        '--name', 'logdump',
        '--data-dir', join(dir, 'etcd'),
        '--listen-client-urls', etcd,
        '--advertise-client-urls', etcd,
        '--listen-peer-urls', `http://127.0.0.1:${etcdPeer}`,
        '--initial-advertise-peer-urls', `http://127.0.0.1:${etcdPeer}`,
        '--initial-cluster', `logdump=http://127.0.0.1:${etcdPeer}`,
        '--log-level', 'warn',
      ], join(dir, 'etcd.log')),
    );

    const tls = createSelfSignedTls();
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const adminToken = randomBytes(24).toString('hex');
    const restrictedToken = randomBytes(24).toString('hex');
    await mkdir(join(dir, 'certs'), { mode: 0o700 });
    await Promise.all([
      writeFile(join(dir, 'serving.crt'), tls.cert),
      writeFile(join(dir, 'serving.key'), tls.key, { mode: 0o600 }),
      writeFile(join(dir, 'sa.key'), privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 }),
      writeFile(join(dir, 'sa.pub'), publicKey.export({ type: 'spki', format: 'pem' })),
      writeFile(join(dir, 'tokens.csv'), `${adminToken},${ADMIN_USER},admin-uid,system:masters\n${restrictedToken},${RESTRICTED_USER},restricted-uid\n`, { mode: 0o600 }),
    ]);
    const apiserver = startLogged(KUBE_APISERVER, [
      `--etcd-servers=${etcd}`,
      '--bind-address=127.0.0.1',
      '--advertise-address=127.0.0.1',
      `--secure-port=${apiPort}`,
      '--insecure-port=0',
      `--cert-dir=${join(dir, 'certs')}`,
      `--tls-cert-file=${join(dir, 'serving.crt')}`,
      `--tls-private-key-file=${join(dir, 'serving.key')}`,
      `--token-auth-file=${join(dir, 'tokens.csv')}`,
      `--authorization-mode=${options.authorizationMode}`,
      '--service-account-issuer=https://kubernetes.default.svc',
      `--service-account-key-file=${join(dir, 'sa.pub')}`,
      `--service-account-signing-key-file=${join(dir, 'sa.key')}`,
      // A /16: the scenarios' services use fixed cluster IPs such as 10.0.171.52.
      '--service-cluster-ip-range=10.0.0.0/16',
      '--endpoint-reconciler-type=none',
      '--disable-admission-plugins=ServiceAccount',
      '--kubelet-preferred-address-types=InternalIP',
      '--profiling=false',
    ], join(dir, 'kube-apiserver.log'));
    children.push(apiserver);

    const url = `https://127.0.0.1:${apiPort}`;
    const deadline = Date.now() + READY_TIMEOUT_MS;
    for (;;) {
      if (apiserver.exitCode !== null) {
        throw new Error(`kube-apiserver exited with ${apiserver.exitCode}:\n${await tail(join(dir, 'kube-apiserver.log'), 30)}`);
      }
      // Ready, and the bootstrap controller has made `default` and the `kubernetes`
      // Service: a scenario's own copy of that Service must meet the server's.
      if (
        (await getStatus(`${url}/readyz`, tls.cert, adminToken)) === 200 &&
        (await getStatus(`${url}/api/v1/namespaces/default/services/kubernetes`, tls.cert, adminToken)) === 200
      ) {
        break;
      }
      if (Date.now() > deadline) {
        throw new Error(`kube-apiserver was not ready within ${READY_TIMEOUT_MS} ms:\n${await tail(join(dir, 'kube-apiserver.log'), 30)}\netcd:\n${await tail(join(dir, 'etcd.log'), 10)}`);
      }
      await sleep(250);
    }

    const kubeconfig = join(dir, 'kubeconfig');
    const writeKubeconfig = async (path: string, token: string): Promise<void> => {
      const user = token === adminToken ? ADMIN_USER : RESTRICTED_USER;
      await writeFile(path, renderKubeconfig(url, tls.cert, user, token), { mode: 0o600 });
    };
    await writeKubeconfig(kubeconfig, adminToken);
    return { url, caCert: tls.cert, adminToken, restrictedToken, kubeconfig, writeKubeconfig, dir, close: closeAll };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
