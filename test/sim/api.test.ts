import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { startSimulator, type RunningSimulator } from '../../sim/index.js';
import { get, getJson } from '../support/http.js';

interface List {
  kind: string;
  apiVersion: string;
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  items: { metadata: { name: string; namespace?: string }; [key: string]: unknown }[];
}

describe('simulator API', () => {
  let sim: RunningSimulator;
  before(async () => {
    sim = await startSimulator({ scenario: 'generated', params: { nodes: 4, namespaces: 3, podsPerNode: 5 } });
  });
  after(() => sim.close());

  it('answers 401 with a Status without the bearer token', async () => {
    const response = await get(sim, '/api/v1/pods', { token: null });
    assert.equal(response.status, 401);
    assert.deepEqual(JSON.parse(response.body), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
  });

  it('serves discovery with short names and namespaced flags', async () => {
    const core = await getJson<{ resources: { name: string; namespaced: boolean; shortNames?: string[]; kind: string }[] }>(sim, '/api/v1');
    const pods = core.json.resources.find((resource) => resource.name === 'pods');
    assert.deepEqual([pods?.kind, pods?.namespaced, pods?.shortNames], ['Pod', true, ['po']]);
    assert.equal(core.json.resources.find((resource) => resource.name === 'nodes')?.namespaced, false);
    const groups = await getJson<{ groups: { name: string }[] }>(sim, '/apis');
    assert.deepEqual(groups.json.groups.map((group) => group.name), ['apps', 'batch', 'events.k8s.io']);
    const apps = await getJson<{ resources: { name: string; shortNames?: string[] }[] }>(sim, '/apis/apps/v1');
    assert.deepEqual(apps.json.resources.find((resource) => resource.name === 'statefulsets')?.shortNames, ['sts']);
  });

  it('lists typed, ordered by namespace then name, with items without type meta', async () => {
    const { json } = await getJson<List>(sim, '/api/v1/pods');
    assert.equal(json.kind, 'PodList');
    assert.ok(json.metadata.resourceVersion);
    const keys = json.items.map((pod) => `${pod.metadata.namespace}/${pod.metadata.name}`);
    assert.deepEqual(keys, [...keys].sort());
    assert.equal(json.items[0]?.['kind'], undefined);
    assert.equal(json.items.length, 4 * 5 + 4 + 1); // workload pods, kube-proxy per node, coredns
  });

  it('pages with limit and continue, counting the remaining items', async () => {
    const all = (await getJson<List>(sim, '/api/v1/pods')).json.items.map((pod) => pod.metadata.name);
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const query = `limit=7${token ? `&continue=${encodeURIComponent(token)}` : ''}`;
      const { json } = await getJson<List>(sim, `/api/v1/pods?${query}`);
      seen.push(...json.items.map((pod) => pod.metadata.name));
      token = json.metadata.continue;
      if (token) assert.equal(json.metadata.remainingItemCount, all.length - seen.length);
      else assert.equal(json.metadata.remainingItemCount, undefined);
      pages++;
    } while (token);
    assert.deepEqual(seen, all);
    assert.equal(pages, Math.ceil(all.length / 7));
  });

  it('rejects an unreadable continue token with 400', async () => {
    const response = await get(sim, '/api/v1/pods?limit=2&continue=garbage');
    assert.equal(response.status, 400);
    assert.equal(JSON.parse(response.body).reason, 'BadRequest');
  });

  it('filters by label selector (=, !=, in, notin, exists, !key)', async () => {
    const names = async (selector: string): Promise<number> =>
      (await getJson<List>(sim, `/api/v1/namespaces/load-000/pods?labelSelector=${encodeURIComponent(selector)}`)).json.items.length;
    const total = await names('');
    assert.equal(await names('app=load'), total);
    assert.equal(await names('app==load,shard=0'), (await names('shard in (0)')));
    assert.equal((await names('shard in (0,1)')) + (await names('shard notin (0,1)')), total);
    assert.equal(await names('app!=load'), 0);
    assert.equal(await names('shard'), total);
    assert.equal(await names('!shard'), 0);
  });

  it('filters by field selector and omits remainingItemCount when filtering', async () => {
    const { json } = await getJson<List>(sim, '/api/v1/pods?fieldSelector=spec.nodeName%3Dnode-0001');
    assert.ok(json.items.length > 0);
    assert.ok(json.items.every((pod) => (pod['spec'] as { nodeName: string }).nodeName === 'node-0001'));
    const paged = await getJson<List>(sim, '/api/v1/pods?limit=1&fieldSelector=status.phase%3DRunning');
    assert.ok(paged.json.metadata.continue);
    assert.equal(paged.json.metadata.remainingItemCount, undefined);
    const bad = await get(sim, '/api/v1/pods?fieldSelector=spec.bogus%3Dx');
    assert.equal(bad.status, 400);
    assert.equal(JSON.parse(bad.body).message, 'field label not supported: spec.bogus');
  });

  it('gets single objects and answers 404 Status for unknown ones', async () => {
    const pod = await getJson<{ kind: string; metadata: { name: string } }>(sim, '/api/v1/namespaces/load-000/pods/app-000000');
    assert.deepEqual([pod.status, pod.json.kind, pod.json.metadata.name], [200, 'Pod', 'app-000000']);
    const missing = await getJson(sim, '/api/v1/namespaces/load-000/pods/nope');
    assert.deepEqual(missing, {
      status: 404,
      json: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'pods "nope" not found', reason: 'NotFound', details: { name: 'nope', kind: 'pods' }, code: 404 },
    });
    const sts = await getJson(sim, '/apis/apps/v1/namespaces/load-000/statefulsets/nope');
    assert.equal((sts.json as { message: string }).message, 'statefulsets.apps "nope" not found');
    const unknown = await getJson(sim, '/apis/nothing/v1/things');
    assert.deepEqual([unknown.status, (unknown.json as { reason: string }).reason], [404, 'NotFound']);
  });

  it('serves the same events in core/v1 and events.k8s.io/v1 shapes', async () => {
    const core = (await getJson<List>(sim, '/api/v1/namespaces/load-000/events')).json;
    const v1 = (await getJson<List>(sim, '/apis/events.k8s.io/v1/namespaces/load-000/events')).json;
    assert.deepEqual([core.kind, core.apiVersion, v1.kind, v1.apiVersion], ['EventList', 'v1', 'EventList', 'events.k8s.io/v1']);
    assert.deepEqual(v1.items.map((event) => event.metadata.name), core.items.map((event) => event.metadata.name));
    const [coreEvent, v1Event] = [core.items[0] as Record<string, unknown>, v1.items[0] as Record<string, unknown>];
    assert.equal(v1Event['note'], coreEvent['message']);
    assert.deepEqual(v1Event['regarding'], coreEvent['involvedObject']);
    assert.equal(v1Event['reportingController'], coreEvent['reportingComponent']);
    assert.equal(v1Event['deprecatedCount'], coreEvent['count']);
    assert.equal(v1Event['deprecatedFirstTimestamp'], coreEvent['firstTimestamp']);
    assert.deepEqual(v1Event['deprecatedSource'], coreEvent['source']);
    assert.equal(v1Event['eventTime'], null);
    const byName = await getJson<List>(sim, '/api/v1/events?fieldSelector=involvedObject.name%3Dapp-000003');
    assert.equal(byName.json.items.length, 1);
  });

  it('works with @kubernetes/client-node, paging included', async () => {
    const config = new KubeConfig();
    config.loadFromString(sim.kubeconfig());
    const api = config.makeApiClient(CoreV1Api);
    const first = await api.listPodForAllNamespaces({ limit: 10 });
    assert.equal(first.items.length, 10);
    assert.ok(first.metadata?._continue);
    const second = await api.listPodForAllNamespaces({ limit: 10, _continue: first.metadata._continue });
    assert.notEqual(second.items[0]?.metadata?.name, first.items[0]?.metadata?.name);
    const nodes = await api.listNode();
    assert.equal(nodes.items.length, 4);
    await assert.rejects(api.readNamespacedPod({ name: 'nope', namespace: 'load-000' }), (error: { code?: number }) => error.code === 404);
  });

  it('records every request it served', () => {
    assert.ok(sim.requests.some((request) => request.path === '/api/v1/pods' && request.status === 200));
    assert.ok(sim.requests.every((request) => !request.path.includes('/secrets')));
  });
});
