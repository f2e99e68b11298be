import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSimulator, type RunningSimulator } from '../../sim/index.js';
import { get } from '../support/http.js';

const NS = 'e2e-tests-statefulset-vtc1w';
const POD_LOG = `/api/v1/namespaces/${NS}/pods/cockroachdb-0/log`;
const NODE = 'bootstrap-e2e-minion-group-6n2k';
const OTHER_NODE = 'bootstrap-e2e-minion-group-9rqb';

function lines(body: string): string[] {
  return body.split('\n').filter((line) => line !== '');
}

describe('pod logs', () => {
  let sim: RunningSimulator;
  let generated: RunningSimulator;
  before(async () => {
    sim = await startSimulator({ scenario: 'statefulset-quorum-deadlock' });
    generated = await startSimulator({ scenario: 'generated', params: { nodes: 1, podsPerNode: 2, restarts: 1, logBytes: 100_000 } });
  });
  after(async () => {
    await sim.close();
    await generated.close();
  });

  it('streams a container log as text/plain', async () => {
    const response = await get(sim, `${POD_LOG}?container=cockroachdb`);
    assert.equal(response.status, 200);
    assert.equal(response.headers['content-type'], 'text/plain');
    assert.match(response.body, /not enough live nodes/);
    assert.match(response.body, /cockroachdb-1\.cockroachdb/);
  });

  it('requires a container name when the pod has several (init containers named too)', async () => {
    const seen = await get(generated, '/api/v1/namespaces/load-000/pods/app-000000/log');
    assert.equal(seen.status, 200, 'one container: defaulted');
    const multi = await startSimulator({ scenario: 'generated', params: { nodes: 1, podsPerNode: 1, containersPerPod: 2 } });
    try {
      const response = await get(multi, '/api/v1/namespaces/load-000/pods/app-000000/log');
      assert.equal(response.status, 400);
      assert.equal(JSON.parse(response.body).message, 'a container name must be specified for pod app-000000, choose one of: [app sidecar-1]');
    } finally {
      await multi.close();
    }
    const unknown = await get(sim, `${POD_LOG}?container=nope`);
    assert.deepEqual([unknown.status, JSON.parse(unknown.body).message], [400, 'container nope is not valid for pod cockroachdb-0']);
  });

  it('serves init container logs', async () => {
    const response = await get(sim, `${POD_LOG}?container=bootstrap`);
    assert.equal(response.status, 200);
    assert.match(response.body, /cockroach-k8s-init/);
  });

  it('answers the kubelet\'s 400 when there is no previous instance, and serves it when there is', async () => {
    const response = await get(sim, `${POD_LOG}?container=cockroachdb&previous=true`);
    assert.equal(response.status, 400);
    const status = JSON.parse(response.body);
    assert.deepEqual([status.reason, status.message], ['BadRequest', 'previous terminated container "cockroachdb" in pod "cockroachdb-0" not found']);
    const previous = await get(generated, '/api/v1/namespaces/load-000/pods/app-000000/log?previous=true');
    const current = await get(generated, '/api/v1/namespaces/load-000/pods/app-000000/log');
    assert.equal(previous.status, 200);
    assert.equal(previous.body.length, 100_000);
    assert.notEqual(previous.body, current.body);
  });

  it('answers 404 for an unknown pod', async () => {
    const response = await get(sim, `/api/v1/namespaces/${NS}/pods/cockroachdb-1/log`);
    assert.deepEqual([response.status, JSON.parse(response.body).message], [404, 'pods "cockroachdb-1" not found']);
  });

  it('applies tailLines, limitBytes, timestamps and sinceTime', async () => {
    const full = lines((await get(generated, '/api/v1/namespaces/load-000/pods/app-000000/log')).body);
    const tail = lines((await get(generated, '/api/v1/namespaces/load-000/pods/app-000000/log?tailLines=3')).body);
    assert.deepEqual(tail, full.slice(-3));
    const limited = await get(generated, '/api/v1/namespaces/load-000/pods/app-000000/log?limitBytes=1000');
    assert.equal(limited.body.length, 1000);
    const stamped = lines((await get(generated, '/api/v1/namespaces/load-000/pods/app-000000/log?timestamps=true&tailLines=2')).body);
    for (const [index, line] of stamped.entries()) {
      const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d*[1-9])?Z) (.*)$/.exec(line);
      assert.ok(match, line);
      assert.equal(match[3], full.at(index - 2));
    }
    const stampedAll = lines((await get(generated, '/api/v1/namespaces/load-000/pods/app-000000/log?timestamps=true')).body);
    const middle = (stampedAll[Math.floor(stampedAll.length / 2)] ?? '').split(' ')[0] ?? '';
    // sinceTime reaches the kubelet with whole seconds (metav1.Time), so the cut is at the second.
    const second = `${middle.slice(0, 19)}Z`;
    const expected = stampedAll.filter((line) => line.slice(0, 19) >= second.slice(0, 19)).map((line) => line.slice(line.indexOf(' ') + 1));
    const since = lines((await get(generated, `/api/v1/namespaces/load-000/pods/app-000000/log?sinceTime=${encodeURIComponent(middle)}`)).body);
    assert.deepEqual(since, expected);
    assert.ok(since.length > 0 && since.length < full.length);
  });

  it('validates PodLogOptions like the apiserver (422 Invalid)', async () => {
    const response = await get(sim, `${POD_LOG}?container=cockroachdb&tailLines=-1`);
    assert.equal(response.status, 422);
    assert.equal(JSON.parse(response.body).message, 'PodLogOptions "cockroachdb-0" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0');
  });

  it('refuses a container that has not started with the waiting reason', async () => {
    const scenario = (await import('../../sim/index.js')).loadScenario('healthy');
    const pod = scenario.objects.find((object) => object.kind === 'Pod' && object.metadata.name === 'db-0');
    const status = (pod?.['status'] as { containerStatuses: Record<string, unknown>[] }).containerStatuses[0] as Record<string, unknown>;
    status['state'] = { waiting: { reason: 'ContainerCreating' } };
    delete status['containerID'];
    const waiting = await startSimulator({ scenario });
    try {
      const response = await get(waiting, '/api/v1/namespaces/shop/pods/db-0/log');
      assert.deepEqual([response.status, JSON.parse(response.body).message], [400, 'container "postgres" in pod "db-0" is waiting to start: ContainerCreating']);
    } finally {
      await waiting.close();
    }
  });
});

describe('node logs (kubelet behind the node proxy)', () => {
  let sim: RunningSimulator;
  before(async () => {
    sim = await startSimulator({ scenario: 'statefulset-quorum-deadlock' });
  });
  after(() => sim.close());

  it('lists /var/log as Go\'s FileServer does', async () => {
    const response = await get(sim, `/api/v1/nodes/${NODE}/proxy/logs/`);
    assert.equal(response.status, 200);
    assert.equal(response.headers['content-type'], 'text/html; charset=utf-8');
    assert.match(response.body, /<pre>\n[\s\S]*<a href="kubelet\.log">kubelet\.log<\/a>\n[\s\S]*<\/pre>\n$/);
  });

  it('serves log files in klog format and 404s unknown ones', async () => {
    const kubelet = await get(sim, `/api/v1/nodes/${NODE}/proxy/logs/kubelet.log`);
    assert.equal(kubelet.status, 200);
    assert.match(kubelet.body, /^I\d{4} \d{2}:\d{2}:\d{2}\.\d{6} +1353 /);
    assert.match(kubelet.body, /object does not implement the List interfaces/);
    const missing = await get(sim, `/api/v1/nodes/${NODE}/proxy/logs/nope.log`);
    assert.deepEqual([missing.status, missing.body], [404, '404 page not found\n']);
    const unknownNode = await get(sim, '/api/v1/nodes/nope/proxy/logs/');
    assert.equal(JSON.parse(unknownNode.body).message, 'nodes "nope" not found');
  });

  it('answers a NodeLogQuery in journal format, filtered by time, pattern and tail', async () => {
    const all = lines((await get(sim, `/api/v1/nodes/${NODE}/proxy/logs/?query=kubelet`)).body);
    assert.match(all[0] ?? '', new RegExp(`^Feb 10 \\d{2}:\\d{2}:\\d{2}\\.\\d{6} ${NODE} kubelet\\[1353\\]: I0210 `));
    const tail = lines((await get(sim, `/api/v1/nodes/${NODE}/proxy/logs/?query=kubelet&tailLines=4`)).body);
    assert.deepEqual(tail, all.slice(-4));
    const pattern = lines((await get(sim, `/api/v1/nodes/${NODE}/proxy/logs/?query=kubelet&pattern=${encodeURIComponent('event\\.go')}`)).body);
    assert.ok(pattern.length > 10 && pattern.every((line) => line.includes('event.go:259')));
    const window = lines((await get(sim, `/api/v1/nodes/${NODE}/proxy/logs/?query=kubelet&sinceTime=2017-02-10T19:15:00Z&untilTime=2017-02-10T19:16:00Z`)).body);
    assert.ok(window.length > 0 && window.length < all.length);
    assert.ok(window.every((line) => /^Feb 10 19:1(5:\d{2}|6:00)\./.test(line)), window.join('\n'));
    const none = await get(sim, `/api/v1/nodes/${NODE}/proxy/logs/?query=kubelet&sinceTime=2030-01-01T00:00:00Z`);
    assert.equal(none.body, '-- No entries --\n');
  });

  it('reproduces the kubelet\'s query validation and file-logger answers', async () => {
    const path = await get(sim, `/api/v1/nodes/${NODE}/proxy/logs/kubelet.log?query=kubelet`);
    assert.deepEqual([path.status, path.body], [406, 'path not allowed in query mode\n']);
    const boot = await get(sim, `/api/v1/nodes/${NODE}/proxy/logs/?query=kubelet&boot=1`);
    assert.deepEqual([boot.status, boot.body], [406, 'boot: Invalid value: 1: must be less than 1\n']);
    const badTime = await get(sim, `/api/v1/nodes/${NODE}/proxy/logs/?query=kubelet&sinceTime=yesterday`);
    assert.equal(badTime.status, 400);
    const fileLogger = await get(sim, `/api/v1/nodes/${NODE}/proxy/logs/?query=kube-proxy&tailLines=2`);
    assert.match(fileLogger.body, /options present and query resolved to log files for \[kube-proxy\]\ntry without specifying options/);
    const notFound = await get(sim, `/api/v1/nodes/${NODE}/proxy/logs/?query=containerd`);
    assert.equal(notFound.body, '\nlog not found for containerd\n');
  });

  it('ignores ?query= and serves the listing when NodeLogQuery is off', async () => {
    const response = await get(sim, `/api/v1/nodes/${OTHER_NODE}/proxy/logs/?query=kubelet&tailLines=5`);
    assert.equal(response.status, 200);
    assert.match(response.body, /^<!doctype html>/);
  });

  it('ends a NodeLogQuery cleanly after the cut', async () => {
    const big = await startSimulator({
      scenario: 'generated',
      params: { nodes: 1, podsPerNode: 1, nodeLogBytes: 4_000_000 },
      faults: { nodeLogQueryCutMs: 150, nodeLogQueryChunkDelayMs: 20 },
    });
    try {
      const started = Date.now();
      const response = await get(big, '/api/v1/nodes/node-0000/proxy/logs/?query=kubelet');
      assert.equal(response.status, 200);
      assert.ok(Date.now() - started < 2000);
      assert.ok(response.body.length > 0 && response.body.length < 4_000_000, `got ${response.body.length} bytes`);
      assert.ok(response.body.endsWith('\n'));
      const file = await get(big, '/api/v1/nodes/node-0000/proxy/logs/kubelet.log');
      assert.equal(file.body.length, 4_000_000, 'the file server has no deadline');
    } finally {
      await big.close();
    }
  });
});
