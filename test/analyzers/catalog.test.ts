import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compileRule, type CompiledRule } from '../../analyzers/rules/compile.js';
import { BUILTIN_RULES } from '../../analyzers/rules/builtin.js';
import type { Rule } from '../../analyzers/rules/rule.js';
import { SEVERITIES, type LineSource } from '../../analyzers/types.js';

const SOURCES: readonly LineSource[] = ['container-log', 'node-log', 'event'];
const KEBAB_CASE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const COMPILED: readonly CompiledRule[] = BUILTIN_RULES.map((rule) => compileRule(rule));

/** What the analyzer's prefilter does: a line reaches the regex only when it holds a needle. */
function passesPrefilter(compiled: CompiledRule, line: string): boolean {
  const haystack = compiled.caseInsensitive ? line.toLowerCase() : line;
  return compiled.needles.some((needle) => haystack.includes(needle));
}

/** Ids of every built-in rule that matches the line (prefilter included), in catalog order. */
function matchingRuleIds(line: string): string[] {
  return COMPILED.filter((compiled) => passesPrefilter(compiled, line) && compiled.match(line) !== undefined).map((compiled) => compiled.rule.id);
}

function captureNames(rule: Rule): Set<string> {
  return new Set([...rule.pattern.matchAll(/\(\?<([A-Za-z][A-Za-z0-9]*)>/g)].map((found) => found[1] ?? ''));
}

describe('built-in catalog: shape', () => {
  test('has rules', () => {
    assert.ok(BUILTIN_RULES.length >= 20, `only ${BUILTIN_RULES.length} rules`);
  });

  test('ids are kebab-case and unique', () => {
    const seen = new Set<string>();
    for (const rule of BUILTIN_RULES) {
      assert.match(rule.id, KEBAB_CASE, rule.id);
      assert.ok(!seen.has(rule.id), `duplicate id ${rule.id}`);
      seen.add(rule.id);
    }
  });

  test('severities and sources are valid', () => {
    for (const rule of BUILTIN_RULES) {
      assert.ok((SEVERITIES as readonly string[]).includes(rule.severity), `${rule.id}: severity ${rule.severity}`);
      assert.ok(rule.sources.length > 0, `${rule.id}: no sources`);
      assert.equal(new Set(rule.sources).size, rule.sources.length, `${rule.id}: repeated source`);
      for (const source of rule.sources) assert.ok(SOURCES.includes(source), `${rule.id}: source ${source}`);
    }
  });

  test('titles, explanations and remedies are written out', () => {
    for (const rule of BUILTIN_RULES) {
      assert.ok(rule.title.trim().length > 0, `${rule.id}: empty title`);
      assert.ok(rule.explanation.trim().length >= 80, `${rule.id}: explanation too short`);
      assert.ok(rule.remedy.trim().length >= 80, `${rule.id}: remedy too short`);
    }
  });

  test('docs URLs are https links to documentation sites', () => {
    for (const rule of BUILTIN_RULES) {
      if (rule.docsUrl === undefined) continue;
      const url = new URL(rule.docsUrl);
      assert.equal(url.protocol, 'https:', rule.id);
      assert.match(url.hostname, /(^|\.)(kubernetes\.io|etcd\.io|cockroachlabs\.com)$/, `${rule.id}: ${rule.docsUrl}`);
    }
  });

  test('groupBy names captures of the pattern (or `object`)', () => {
    for (const rule of BUILTIN_RULES) {
      const names = captureNames(rule);
      for (const key of rule.groupBy ?? []) assert.ok(key === 'object' || names.has(key), `${rule.id}: groupBy ${key} is not a capture`);
    }
  });

  test('every rule has match and near-miss examples', () => {
    for (const rule of BUILTIN_RULES) {
      assert.ok(rule.examples.match.length >= 2, `${rule.id}: fewer than 2 match examples`);
      assert.ok(rule.examples.noMatch.length >= 2, `${rule.id}: fewer than 2 noMatch examples`);
    }
  });
});

describe('built-in catalog: patterns', () => {
  test('every pattern compiles and yields needles', () => {
    for (const compiled of COMPILED) {
      assert.ok(compiled.needles.length > 0, `${compiled.rule.id}: no needle, the rule would run on every line`);
      for (const needle of compiled.needles) assert.ok(needle.length >= 4, `${compiled.rule.id}: needle ${JSON.stringify(needle)}`);
    }
  });

  for (const compiled of COMPILED) {
    const { rule } = compiled;
    test(`${rule.id}: examples`, () => {
      for (const line of rule.examples.match) {
        assert.ok(passesPrefilter(compiled, line), `${rule.id}: match example holds none of the needles ${JSON.stringify(compiled.needles)}: ${line}`);
        assert.ok(compiled.match(line) !== undefined, `${rule.id}: should match: ${line}`);
      }
      for (const line of rule.examples.noMatch) {
        assert.equal(compiled.match(line), undefined, `${rule.id}: should not match: ${line}`);
      }
    });
  }

  test('reemitsEvent rules capture the swallowed event on every match example', () => {
    const reemitting = COMPILED.filter((compiled) => compiled.rule.reemitsEvent === true);
    assert.ok(reemitting.length > 0);
    for (const compiled of reemitting) {
      for (const line of compiled.rule.examples.match) {
        const captures = compiled.match(line);
        assert.ok(captures, line);
        for (const key of ['eventType', 'eventReason', 'eventMessage']) {
          assert.ok((captures[key] ?? '').length > 0, `${compiled.rule.id}: no ${key} in ${line}`);
        }
        assert.match(captures['eventType'] ?? '', /^(Normal|Warning)$/);
      }
    }
  });

  test('the re-emitted event of every reemitsEvent example is matched by another rule', () => {
    for (const compiled of COMPILED.filter((candidate) => candidate.rule.reemitsEvent === true)) {
      for (const line of compiled.rule.examples.match) {
        const captures = compiled.match(line) ?? {};
        const event = `${captures['eventType']} ${captures['eventReason']}: ${captures['eventMessage']}`;
        const ids = matchingRuleIds(event).filter((id) => id !== compiled.rule.id);
        assert.ok(ids.length > 0, `no rule matches the swallowed event ${event}`);
      }
    }
  });
});

interface RealLine {
  /** Where the line comes from. */
  origin: string;
  line: string;
  /** Exactly the rules that must match, no more. */
  ids: string[];
  /** Captures expected of the first rule in `ids`. */
  captures?: Record<string, string>;
}

const COULD_NOT_CONSTRUCT = `E0210 19:12:45.046912    1353 event.go:259] Could not construct reference to: '&v1.ObjectReference{Kind:"Pod", Namespace:"e2e-tests-statefulset-vtc1w", Name:"cockroachdb-0", UID:"bd50bec4-efc4-11e6-8f42-42010af00002", APIVersion:"v1", ResourceVersion:"1521", FieldPath:"spec.containers{cockroachdb}"}' due to: 'object does not implement the List interfaces'. Will not report event: 'Warning' 'Unhealthy' 'Readiness probe failed: HTTP probe failed with statuscode: 404'`;

/** Real lines (the test-infra CockroachDB issue, kubelet and etcd source formats) and exactly which rules they trigger. */
const REAL_LINES: readonly RealLine[] = [
  {
    origin: 'kubernetes/test-infra CockroachDB StatefulSet issue, kubelet log',
    line: COULD_NOT_CONSTRUCT,
    ids: ['event-reference-failed'],
    captures: {
      kind: 'Pod',
      namespace: 'e2e-tests-statefulset-vtc1w',
      name: 'cockroachdb-0',
      cause: 'object does not implement the List interfaces',
      eventType: 'Warning',
      eventReason: 'Unhealthy',
      eventMessage: 'Readiness probe failed: HTTP probe failed with statuscode: 404',
    },
  },
  {
    origin: 'the event swallowed by the line above, rendered as TYPE REASON: MESSAGE',
    line: 'Warning Unhealthy: Readiness probe failed: HTTP probe failed with statuscode: 404',
    ids: ['readiness-probe-http-status'],
    captures: { status: '404' },
  },
  {
    origin: 'client-go tools/record, structured (1.2x)',
    line: `E0715 08:01:12.123456    2211 event.go:370] "Could not construct reference, will not report event" err="object does not implement the List interfaces" object="&ObjectReference{Kind:Pod,Namespace:e2e-tests-statefulset-vtc1w,Name:cockroachdb-0,UID:bd50bec4-efc4-11e6-8f42-42010af00002,APIVersion:v1,ResourceVersion:1521,FieldPath:spec.containers{cockroachdb},}" eventType="Warning" reason="Unhealthy" message="Readiness probe failed: HTTP probe failed with statuscode: 404"`,
    ids: ['event-reference-failed'],
    captures: { kind: 'Pod', namespace: 'e2e-tests-statefulset-vtc1w', name: 'cockroachdb-0', eventReason: 'Unhealthy', eventMessage: 'Readiness probe failed: HTTP probe failed with statuscode: 404' },
  },
  {
    origin: 'pkg/kubelet/prober/prober.go, structured (1.21+), journald',
    line: `Feb 10 19:12:45.046912 node-1 kubelet[1353]: I0210 19:12:45.046912    1353 prober.go:107] "Probe failed" probeType="Readiness" pod="e2e-tests-statefulset-vtc1w/cockroachdb-0" podUID=bd50bec4-efc4-11e6-8f42-42010af00002 containerName="cockroachdb" probeResult="failure" output="HTTP probe failed with statuscode: 404"`,
    ids: ['readiness-probe-http-status'],
    captures: { namespace: 'e2e-tests-statefulset-vtc1w', pod: 'cockroachdb-0', container: 'cockroachdb', status: '404' },
  },
  {
    origin: 'pkg/kubelet/prober/prober.go, printf (1.20)',
    line: `I0210 19:12:45.046912    1353 prober.go:116] Readiness probe for "cockroachdb-0_e2e-tests-statefulset-vtc1w(bd50bec4-efc4-11e6-8f42-42010af00002):cockroachdb" failed (failure): HTTP probe failed with statuscode: 503`,
    ids: ['readiness-probe-http-status'],
    captures: { status: '503' },
  },
  {
    origin: 'Unhealthy event, HTTP probe, Go 1.14+ error',
    line: 'Warning Unhealthy: Readiness probe failed: Get "http://10.0.0.5:8080/health": dial tcp 10.0.0.5:8080: connect: connection refused',
    ids: ['readiness-probe-connection-refused'],
    captures: { url: 'http://10.0.0.5:8080/health', address: '10.0.0.5:8080' },
  },
  {
    origin: 'Unhealthy event, HTTP probe timeout',
    line: 'Warning Unhealthy: Readiness probe failed: Get "http://10.0.0.5:8080/health": context deadline exceeded (Client.Timeout exceeded while awaiting headers)',
    ids: ['readiness-probe-timeout'],
  },
  {
    origin: 'Killing event, kuberuntime_manager computePodActions',
    line: 'Normal Killing: Container cockroachdb failed liveness probe, will be restarted',
    ids: ['liveness-probe-restart'],
    captures: { container: 'cockroachdb' },
  },
  {
    origin: 'BackOff event, kuberuntime_manager doBackOff (1.2x)',
    line: 'Warning BackOff: Back-off restarting failed container app in pod p_ns(0a1b2c3d-1111-2222-3333-444455556666)',
    ids: ['crash-loop-backoff'],
    captures: { container: 'app', pod: 'p', namespace: 'ns' },
  },
  {
    origin: 'pod_workers.go, printf (1.20)',
    line: `E0210 19:12:45.046912    1353 pod_workers.go:191] Error syncing pod bd50bec4-efc4-11e6-8f42-42010af00002 ("cockroachdb-0_e2e-tests-statefulset-vtc1w(bd50bec4-efc4-11e6-8f42-42010af00002)"), skipping: failed to "StartContainer" for "cockroachdb" with CrashLoopBackOff: "back-off 5m0s restarting failed container=cockroachdb pod=cockroachdb-0_e2e-tests-statefulset-vtc1w(bd50bec4-efc4-11e6-8f42-42010af00002)"`,
    ids: ['crash-loop-backoff'],
    captures: { container: 'cockroachdb', pod: 'cockroachdb-0', namespace: 'e2e-tests-statefulset-vtc1w' },
  },
  {
    origin: 'FailedScheduling event, scheduler FitError (1.25+)',
    line: 'Warning FailedScheduling: 0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.',
    ids: ['pod-unschedulable'],
    captures: {
      reasons:
        '0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.',
    },
  },
  {
    origin: 'Failed event, image manager, containerd',
    line: 'Warning Failed: Failed to pull image "nginx:1.25-typo": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:1.25-typo": failed to resolve reference "docker.io/library/nginx:1.25-typo": docker.io/library/nginx:1.25-typo: not found',
    ids: ['image-pull-not-found'],
    captures: { image: 'nginx:1.25-typo' },
  },
  {
    origin: 'kuberuntime_image.go, structured: the image is the image= value, not the one quoted in err',
    line: String.raw`E0301 10:02:03.000001    4242 kuberuntime_image.go:53] "Failed to pull image" err="rpc error: code = NotFound desc = failed to pull and unpack image \"docker.io/library/nginx:1.25-typo\": failed to resolve reference \"docker.io/library/nginx:1.25-typo\": docker.io/library/nginx:1.25-typo: not found" image="nginx:1.25-typo"`,
    ids: ['image-pull-not-found'],
    captures: { image: 'nginx:1.25-typo' },
  },
  {
    origin: 'FailedMount event, volume manager (1.18+)',
    line: 'Warning FailedMount: Unable to attach or mount volumes: unmounted volumes=[datadir], unattached volumes=[datadir kube-api-access-x2k9p]: timed out waiting for the condition',
    ids: ['volume-mount-timeout'],
    captures: { volume: 'datadir' },
  },
  {
    origin: 'Evicted event, eviction/helpers.go',
    line: 'Warning Evicted: The node was low on resource: memory. Threshold quantity: 100Mi, available: 81920Ki. Container app was using 1572864Ki, request is 0, has larger consumption of memory.',
    ids: ['pod-evicted'],
    captures: { resource: 'memory' },
  },
  {
    origin: 'kubelet setters.go, printf (1.20): NotReady because of PLEG',
    line: 'I0210 19:12:45.046912    1353 setters.go:555] Node became not ready: {Type:Ready Status:False LastHeartbeatTime:2021-02-10 19:12:45.046876 +0000 UTC m=+1234.5 LastTransitionTime:2021-02-10 19:12:45.046876 +0000 UTC m=+1234.5 Reason:KubeletNotReady Message:PLEG is not healthy: pleg was last seen active 3m0.5s ago; threshold is 3m0s}',
    ids: ['node-not-ready', 'pleg-not-healthy'],
    captures: { message: 'PLEG is not healthy: pleg was last seen active 3m0.5s ago; threshold is 3m0s' },
  },
  {
    origin: 'kube-apiserver admission dispatcher',
    line: 'W0424 17:32:15.123456       1 dispatcher.go:142] Failed calling webhook, failing closed mutate.security-scanner.io: failed calling webhook "mutate.security-scanner.io": failed to call webhook: Post "https://scanner.security.svc:443/mutate?timeout=10s": context deadline exceeded',
    ids: ['admission-webhook-failed'],
    captures: { webhook: 'mutate.security-scanner.io' },
  },
  {
    origin: 'kubelet node status against the API server',
    line: String.raw`E0301 10:02:03.000001    4242 kubelet_node_status.go:540] "Error updating node status, will retry" err="error getting node \"node-1\": Get \"https://10.0.0.1:6443/api/v1/nodes/node-1?resourceVersion=0&timeout=10s\": context deadline exceeded"`,
    ids: ['apiserver-request-timeout'],
    captures: { server: '10.0.0.1:6443' },
  },
  {
    origin: 'etcd 3.4+ raft, JSON',
    line: '{"level":"info","ts":"2023-03-03T01:45:12.001Z","logger":"raft","caller":"etcdserver/zap_raft.go:77","msg":"raft.node: 8e9e05c52164694d lost leader 91bc3c398fb3c146 at term 5"}',
    ids: ['etcd-leader-lost'],
    captures: { member: '8e9e05c52164694d', leader: '91bc3c398fb3c146', term: '5' },
  },
  {
    origin: 'etcd raft: an election that finished is not a finding',
    line: '2025-10-09 02:11:39.572242 I | raft: raft.node: 2331065cd4fb02ff elected leader ef44cc541c5f37c7 at term 10',
    ids: [],
  },
  {
    origin: 'etcd 3.4+ WAL, JSON',
    line: '{"level":"warn","ts":"2023-03-03T01:45:11.871Z","caller":"wal/wal.go:805","msg":"slow fdatasync","took":"1.044022245s","expected-duration":"1s"}',
    ids: ['etcd-slow-disk'],
    captures: { took: '1.044022245s' },
  },
  {
    origin: 'CockroachDB gossip, the reference quorum deadlock',
    line: 'W170210 19:12:45.046912 1 gossip/gossip.go:1241  [n1] first range unavailable; trying remaining resolvers',
    ids: ['database-quorum-lost'],
  },
  {
    origin: 'CockroachDB health check of the simulated quorum deadlock (sim/scenarios/statefulset-quorum-deadlock.ts)',
    line: 'E170210 19:11:13.232917 201 server/status.go:730  [n1] health check failed: not enough live nodes to make progress: 1 of 3 nodes live, range unavailable: r1 has no quorum',
    ids: ['database-quorum-lost'],
  },
  {
    origin: 'etcd 3.3 rafthttp',
    line: '2017-04-27 14:13:31.592650 W | rafthttp: lost the TCP streaming connection with peer 6d4f535bae3ab960 (stream MsgApp v2 reader)',
    ids: ['etcd-peer-connection-lost'],
    captures: { peer: '6d4f535bae3ab960' },
  },
  {
    origin: 'a healthy probe, never a finding',
    line: `I0210 19:12:45.046912    1353 prober.go:117] "Probe succeeded" probeType="Readiness" pod="e2e-tests-statefulset-vtc1w/cockroachdb-0" podUID=bd50bec4-efc4-11e6-8f42-42010af00002 containerName="cockroachdb"`,
    ids: [],
  },
];

describe('built-in catalog: real lines', () => {
  for (const real of REAL_LINES) {
    test(`${real.origin} -> ${real.ids.join(', ') || 'nothing'}`, () => {
      assert.deepEqual(matchingRuleIds(real.line), real.ids);
      if (real.captures === undefined) return;
      const first = COMPILED.find((compiled) => compiled.rule.id === real.ids[0]);
      assert.ok(first);
      const captures = first.match(real.line) ?? {};
      for (const [key, value] of Object.entries(real.captures)) assert.equal(captures[key], value, `${first.rule.id}: capture ${key}`);
    });
  }

  test('the swallowed probe failure still counts: re-rendered, it is a readiness HTTP status finding', () => {
    const reference = COMPILED.find((compiled) => compiled.rule.id === 'event-reference-failed');
    assert.ok(reference);
    const captures = reference.match(COULD_NOT_CONSTRUCT) ?? {};
    const event = `${captures['eventType']} ${captures['eventReason']}: ${captures['eventMessage']}`;
    assert.deepEqual(matchingRuleIds(event), ['readiness-probe-http-status']);
    const status = COMPILED.find((compiled) => compiled.rule.id === 'readiness-probe-http-status')?.match(event);
    assert.equal(status?.['status'], '404');
  });
});
