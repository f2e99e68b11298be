/**
 * Real RBAC (--authorization-mode=RBAC): a user who may read everything but one
 * namespace and `nodes/proxy`. The collector must write a partial dump (exit 1)
 * with exactly those gaps recorded in manifest.json, and lose nothing else.
 * The same cluster collected by an admin (system:masters) is the reference.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { readArchiveToMap } from '../../archive/read-archive.js';
import type { Manifest } from '../../collectors/manifest.js';
import { runLogdump, tempDir, type CliResult } from '../support/cli.js';
import { RESTRICTED_USER, realClusterUnavailable } from './cluster.js';
import { apiRequest } from './load-scenario.js';
import { startRealScenario, type RealScenario } from './real-scenario.js';

const UNAVAILABLE = await realClusterUnavailable();
const DENIED_NAMESPACE = 'kube-system';
const ALLOWED_NAMESPACE = 'e2e-tests-statefulset-vtc1w';
const READ = ['get', 'list'];

/** What the restricted user may do: cluster-wide lists of cluster objects, and per allowed namespace the rest. */
const CLUSTER_READER = {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name: 'logdump-cluster-reader' },
  // No nodes/proxy: the kubelet logs are what this user may not read.
  rules: [{ apiGroups: [''], resources: ['namespaces', 'nodes', 'persistentvolumes'], verbs: READ }],
};
const NAMESPACE_READER = {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name: 'logdump-namespace-reader' },
  rules: [
    { apiGroups: [''], resources: ['pods', 'pods/log', 'services', 'endpoints', 'persistentvolumeclaims', 'configmaps', 'replicationcontrollers', 'events'], verbs: READ },
    { apiGroups: ['apps'], resources: ['statefulsets', 'deployments', 'daemonsets', 'replicasets'], verbs: READ },
    { apiGroups: ['batch'], resources: ['jobs'], verbs: READ },
    { apiGroups: ['events.k8s.io'], resources: ['events'], verbs: READ },
  ],
};

interface Dump {
  result: CliResult;
  files: Map<string, string>;
  manifest: Manifest;
}

async function collect(kubeconfig: string, out: string): Promise<Dump> {
  const result = await runLogdump(['collect', '--kubeconfig', kubeconfig, '-o', out, '--since', '3h'], { timeoutMs: 120_000 });
  const files = await readArchiveToMap(out, { maxBytesPerEntry: 64 * 1024 * 1024 });
  const manifestText = files.get('manifest.json');
  assert.ok(manifestText, `the archive has a manifest.json (exit ${result.code}, stderr: ${result.stderr})`);
  return { result, files, manifest: JSON.parse(manifestText) as Manifest };
}

async function grant(real: RealScenario): Promise<void> {
  const create = async (path: string, body: unknown): Promise<void> => {
    const response = await apiRequest(real.cluster, 'POST', path, { body });
    assert.ok(response.status === 201, `POST ${path}: ${response.status} ${response.body}`);
  };
  const subjects = [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: RESTRICTED_USER }];
  await create('/apis/rbac.authorization.k8s.io/v1/clusterroles', CLUSTER_READER);
  await create('/apis/rbac.authorization.k8s.io/v1/clusterroles', NAMESPACE_READER);
  await create('/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: 'logdump-cluster-reader' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: CLUSTER_READER.metadata.name },
    subjects,
  });
  const namespaces = JSON.parse((await apiRequest(real.cluster, 'GET', '/api/v1/namespaces')).body) as { items: { metadata: { name: string } }[] };
  for (const { metadata } of namespaces.items) {
    if (metadata.name === DENIED_NAMESPACE) continue;
    await create(`/apis/rbac.authorization.k8s.io/v1/namespaces/${metadata.name}/rolebindings`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'logdump-namespace-reader', namespace: metadata.name },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: NAMESPACE_READER.metadata.name },
      subjects,
    });
  }
  // The RBAC authorizer reads bindings from an informer: wait until the last one is seen.
  const probe = `/api/v1/namespaces/${ALLOWED_NAMESPACE}/pods`;
  for (let attempt = 0; ; attempt++) {
    const response = await apiRequest(real.cluster, 'GET', probe, { token: real.cluster.restrictedToken });
    if (response.status === 200) return;
    assert.ok(attempt < 50, `the restricted user still cannot list ${probe}: ${response.status} ${response.body}`);
    await sleep(100);
  }
}

describe('real RBAC: a user denied one namespace and nodes/proxy gets a partial dump', { skip: UNAVAILABLE }, () => {
  let real: RealScenario;
  let workdir: { dir: string; cleanup: () => Promise<void> };
  let admin: Dump;
  let restricted: Dump;
  before(async () => {
    workdir = await tempDir('logdump-real-rbac-');
    real = await startRealScenario('statefulset-quorum-deadlock', { authorizationMode: 'RBAC' });
    await grant(real);
    const restrictedKubeconfig = join(workdir.dir, 'restricted.kubeconfig');
    await real.cluster.writeKubeconfig(restrictedKubeconfig, real.cluster.restrictedToken);
    [admin, restricted] = await Promise.all([
      collect(real.cluster.kubeconfig, join(workdir.dir, 'admin.tar.gz')),
      collect(restrictedKubeconfig, join(workdir.dir, 'restricted.tar.gz')),
    ]);
  });
  after(async () => {
    await real?.close();
    await workdir?.cleanup();
  });

  it('the admin (system:masters) dump is complete', () => {
    assert.equal(admin.result.code, 0, admin.result.stderr);
  });

  it('the restricted dump is partial: exit 1', () => {
    assert.equal(restricted.result.code, 1, restricted.result.stderr);
    assert.match(restricted.result.stderr, /forbidden|403/i);
  });

  it('records every list of the denied namespace as forbidden', () => {
    const denied = restricted.manifest.items.filter((item) => item.path.startsWith(`namespaces/${DENIED_NAMESPACE}/`));
    assert.ok(denied.length > 0, 'the denied namespace has items in the manifest');
    for (const item of denied) {
      assert.ok(item.error, `${item.path} has an error`);
      assert.match(item.error, /forbidden/i, item.path);
      assert.match(item.error, new RegExp(`User "${RESTRICTED_USER}" cannot list resource`), item.path);
    }
    const podsList = denied.find((item) => item.path === `namespaces/${DENIED_NAMESPACE}/pods.json`);
    assert.ok(podsList, 'the pods list of the denied namespace is recorded');
  });

  it('records every kubelet log as forbidden (nodes/proxy)', () => {
    const nodeItems = restricted.manifest.items.filter((item) => item.path.startsWith('nodes/'));
    const adminNodeItems = admin.manifest.items.filter((item) => item.path.startsWith('nodes/'));
    assert.deepEqual(nodeItems.map((item) => item.path).sort(), adminNodeItems.map((item) => item.path).sort());
    for (const item of nodeItems) {
      assert.ok(item.error, `${item.path} has an error`);
      assert.match(item.error, /nodes\/proxy/, item.path);
    }
  });

  it('loses nothing else: every other file is there with the same bytes', () => {
    const other = (path: string): boolean => !path.startsWith(`namespaces/${DENIED_NAMESPACE}/`) && !path.startsWith('nodes/') && path !== 'manifest.json';
    const expected = [...admin.files.keys()].filter(other).sort();
    assert.ok(expected.some((path) => path.endsWith('.log')), 'the reference has container logs');
    assert.deepEqual([...restricted.files.keys()].filter(other).sort(), expected);
    for (const path of expected.filter((candidate) => candidate.endsWith('.log'))) {
      assert.equal(restricted.files.get(path), admin.files.get(path), path);
    }
    const otherFailures = restricted.manifest.items.filter((item) => item.error !== undefined && other(item.path));
    assert.deepEqual(otherFailures.map((item) => `${item.path}: ${item.error}`), []);
  });
});
