import type { Rule } from './rule.js';

/*
 * The built-in catalog of known error signatures, as data.
 *
 * Patterns are written with String.raw so they read exactly as they would in a
 * user's YAML rules file. Message formats are taken from the Kubernetes source
 * of the versions people run (1.20 to 1.31) and from etcd 3.3 to 3.5; where a
 * message changed (glog/klog printf lines became structured `"msg" key="value"`
 * lines in 1.21+, Go 1.14 started quoting URLs in errors, etcd 3.4 moved to
 * JSON logs) both forms are matched.
 *
 * Conventions that keep these patterns honest:
 * - Event alternatives are anchored at `^TYPE REASON: ` (how events are
 *   rendered, see rule.ts), so a kubelet line that merely quotes an event
 *   (`Will not report event: ... 'Readiness probe failed: ...'`, or the event
 *   broadcaster's own log of it) is not counted twice.
 * - Every top-level alternative carries a literal of at least 4 characters
 *   outside any group: compile.ts derives its prefilter needles from those.
 * - A capture name appears once per pattern (Node 20 rejects duplicate names
 *   even in different alternatives); a capture that only some forms have sits
 *   in the alternative of that form. An optional capture that must not consume
 *   input sits in a mandatory lookahead holding an optional group, because a
 *   quantified lookahead `(?=...)?` always discards its captures.
 * - In structured klog lines, values with quotes are escaped (`\"`), hence the
 *   `\\?"` in patterns that match both a plain and a quoted rendering.
 */

/** Probe outputs of HTTP, TCP and gRPC probes; anything else an exec probe printed. */
const NETWORK_PROBE_OUTPUT = String.raw`HTTP probe failed|Get \\?"?https?://|dial tcp |timeout: failed to connect service|service unhealthy \(responded with|failed to connect service`;

/** Probe outputs of a request that ran out of time: Go net/http and net.Dial errors, the gRPC prober's own message. */
const PROBE_TIMEOUT_OUTPUT = String.raw`(?:Get |dial tcp ).*(?:context deadline exceeded|Client\.Timeout exceeded|request canceled|i/o timeout)|timeout: failed to connect service`;

/** Registry answers that the image or tag does not exist (containerd, CRI-O, dockershim). */
const IMAGE_NOT_FOUND = String.raw`: not found|manifest unknown|manifest for \S+ not found|repository does not exist|code = NotFound`;
/** Registry answers that the credentials are missing or wrong. */
const IMAGE_UNAUTHORIZED = String.raw`401 Unauthorized|403 Forbidden|unauthorized:|authorization failed|failed to authorize|no basic auth credentials|denied: `;
/** Registry answers that the pull rate limit was hit (Docker Hub and others). */
const IMAGE_RATE_LIMITED = String.raw`toomanyrequests|429 Too Many Requests|pull rate limit`;

const PROBES_DOCS = 'https://kubernetes.io/docs/tasks/configure-pod-container/configure-liveness-readiness-startup-probes/';
const IMAGES_DOCS = 'https://kubernetes.io/docs/concepts/containers/images/#imagepullbackoff';
const ETCD_FAQ = 'https://etcd.io/docs/v3.5/faq/';

/** The catalog, roughly in the order a failed e2e run is investigated: pods, nodes, control plane, workloads. */
export const BUILTIN_RULES: readonly Rule[] = [
  /**
   * client-go's event recorder (tools/record/event.go) could not turn the
   * object into an ObjectReference and dropped the event. Up to 1.2x it logs
   * `Could not construct reference to: '%#v' due to: '%v'. Will not report
   * event: '%v' '%v' '%v'`; later releases log the structured `"Could not
   * construct reference, will not report event" err=... object=... eventType=...
   * reason=... message=...`. The object is `&v1.ObjectReference{Kind:"Pod", ...}`
   * (%#v), `&ObjectReference{Kind:Pod,...}` (its String()), or a whole object
   * dump whose fields come in another order, hence the lookaheads.
   * Seen in the CockroachDB StatefulSet e2e failure (kubernetes/test-infra),
   * where it hid every readiness probe failure.
   */
  {
    id: 'event-reference-failed',
    title: 'The kubelet dropped an event it could not attach to its object',
    severity: 'warning',
    sources: ['node-log'],
    pattern: String.raw`Could not construct reference(?=(?:.*?\bKind:"?(?<kind>[^",}]*))?)(?=(?:.*?[{ ,]Namespace:"?(?<namespace>[^",}]*))?)(?=(?:.*?[{ ,]Name:"?(?<name>[^",}]*))?)(?=(?:.*?(?:due to: '|err=")(?<cause>[^'"]*))?).*?(?:Will not report event: '|eventType=")(?<eventType>[A-Za-z]+)(?:' '|" reason=")(?<eventReason>[A-Za-z]+)(?:' '|" message=")(?<eventMessage>.*)['"]$`,
    groupBy: ['cause'],
    reemitsEvent: true,
    explanation:
      'The kubelet tried to record an event (here usually a probe failure) but client-go could not build a reference to the object it is about, so the event never reached the API server. `kubectl get events` and `kubectl describe pod` then show nothing, although the condition is real: the message the event would have carried is analyzed as if it had been stored. The cause is a bug or version skew in the kubelet or client-go, not in the workload.',
    remedy:
      'Treat the swallowed event (its reason and message are in the finding) as the real problem and look for its own finding. To get events back, upgrade the kubelet so it matches the API server version (`kubectl get nodes -o wide` shows kubelet versions); until then read probe and container failures from the kubelet log (`kubectl get --raw /api/v1/nodes/NODE/proxy/logs/kubelet.log`).',
    examples: {
      match: [
        `E0210 19:12:45.046912    1353 event.go:259] Could not construct reference to: '&v1.ObjectReference{Kind:"Pod", Namespace:"e2e-tests-statefulset-vtc1w", Name:"cockroachdb-0", UID:"bd50bec4-efc4-11e6-8f42-42010af00002", APIVersion:"v1", ResourceVersion:"1521", FieldPath:"spec.containers{cockroachdb}"}' due to: 'object does not implement the List interfaces'. Will not report event: 'Warning' 'Unhealthy' 'Readiness probe failed: HTTP probe failed with statuscode: 404'`,
        `Feb 10 19:12:45.046912 node-1 kubelet[1353]: E0210 19:12:45.046912    1353 event.go:259] Could not construct reference to: '&v1.ObjectReference{Kind:"Pod", Namespace:"e2e-tests-statefulset-vtc1w", Name:"cockroachdb-1", UID:"c1a2b3c4-efc4-11e6-8f42-42010af00002", APIVersion:"v1", ResourceVersion:"1533", FieldPath:"spec.containers{cockroachdb}"}' due to: 'object does not implement the List interfaces'. Will not report event: 'Warning' 'Unhealthy' 'Liveness probe failed: Get "http://10.64.1.7:8080/health": dial tcp 10.64.1.7:8080: connect: connection refused'`,
        `E0715 08:01:12.123456    2211 event.go:370] "Could not construct reference, will not report event" err="object does not implement the List interfaces" object="&ObjectReference{Kind:Pod,Namespace:e2e-tests-statefulset-vtc1w,Name:cockroachdb-0,UID:bd50bec4-efc4-11e6-8f42-42010af00002,APIVersion:v1,ResourceVersion:1521,FieldPath:spec.containers{cockroachdb},}" eventType="Warning" reason="Unhealthy" message="Readiness probe failed: HTTP probe failed with statuscode: 503"`,
      ],
      noMatch: [
        // The event was recorded: client-go's broadcaster logging it at -v=3 is not a failure.
        `I0210 19:12:45.046912    1353 event.go:291] "Event occurred" object="e2e-tests-statefulset-vtc1w/cockroachdb-0" fieldPath="spec.containers{cockroachdb}" kind="Pod" apiVersion="v1" type="Warning" reason="Unhealthy" message="Readiness probe failed: HTTP probe failed with statuscode: 404"`,
        `I0210 19:12:45.046912    1353 event.go:218] Event(v1.ObjectReference{Kind:"Pod", Namespace:"e2e-tests-statefulset-vtc1w", Name:"cockroachdb-0", UID:"bd50bec4-efc4-11e6-8f42-42010af00002", APIVersion:"v1", ResourceVersion:"1521", FieldPath:"spec.containers{cockroachdb}"}): type: 'Warning' reason: 'Unhealthy' Readiness probe failed: HTTP probe failed with statuscode: 404`,
        `E0210 19:12:45.046912    1353 event.go:273] Unable to write event: 'Post "https://10.0.0.1:6443/api/v1/namespaces/default/events": dial tcp 10.0.0.1:6443: connect: connection refused' (may retry after sleeping)`,
      ],
    },
  },

  /**
   * HTTP probe answered outside 200-399: pkg/probe/http `HTTP probe failed with
   * statuscode: %d`, in the Unhealthy event (`%s probe failed: %s`), the
   * structured prober line (1.21+, `"Probe failed" probeType="Readiness" ...
   * output="..."`) and the printf prober line of 1.20 (`%s probe for %q failed
   * (%v): %s`).
   */
  {
    id: 'readiness-probe-http-status',
    title: 'Readiness probe gets an HTTP error status',
    severity: 'warning',
    sources: ['event', 'node-log'],
    pattern: String.raw`(?:^Warning Unhealthy: Readiness probe failed: |"Probe failed" probeType="Readiness" pod="(?<namespace>[^"/]+)/(?<pod>[^"]+)".*? containerName="(?<container>[^"]+)".*? output="|Readiness probe for "[^"]*" failed \(failure\): )HTTP probe failed with statuscode: (?<status>\d{3})`,
    groupBy: ['status'],
    explanation:
      "The container's readiness endpoint answers, but with a status outside 200-399 (a 404 usually means a wrong `path`, a 503 that the application itself says it is not ready). While it fails, the pod is not Ready: it is removed from Service endpoints, and a StatefulSet with OrderedReady pod management does not create the next pod. A quorum-based database whose health endpoint requires a quorum can therefore deadlock: pod 0 waits for peers that are only created once pod 0 is Ready.",
    remedy:
      "Call the endpoint yourself: `kubectl exec POD -c CONTAINER -- wget -qSO- http://localhost:PORT/PATH` (or `kubectl port-forward POD PORT` and curl it) and compare with `kubectl get pod POD -o jsonpath='{.spec.containers[*].readinessProbe}'`. Fix the probe's `path`/`port`, or the application. For a quorum-based StatefulSet, probe an endpoint that does not need a quorum, or set `podManagementPolicy: Parallel` so all members start together.",
    docsUrl: PROBES_DOCS,
    examples: {
      match: [
        'Warning Unhealthy: Readiness probe failed: HTTP probe failed with statuscode: 404',
        'Warning Unhealthy: Readiness probe failed: HTTP probe failed with statuscode: 503',
        `I0210 19:12:45.046912    1353 prober.go:107] "Probe failed" probeType="Readiness" pod="e2e-tests-statefulset-vtc1w/cockroachdb-0" podUID=bd50bec4-efc4-11e6-8f42-42010af00002 containerName="cockroachdb" probeResult="failure" output="HTTP probe failed with statuscode: 404"`,
        `Feb 10 19:12:45.046912 node-1 kubelet[1353]: I0210 19:12:45.046912    1353 prober.go:116] Readiness probe for "cockroachdb-0_e2e-tests-statefulset-vtc1w(bd50bec4-efc4-11e6-8f42-42010af00002):cockroachdb" failed (failure): HTTP probe failed with statuscode: 500`,
      ],
      noMatch: [
        'Warning Unhealthy: Liveness probe failed: HTTP probe failed with statuscode: 500',
        'Warning Unhealthy: Readiness probe failed: Get "http://10.64.1.7:8080/health": dial tcp 10.64.1.7:8080: connect: connection refused',
        'Warning ProbeWarning: Readiness probe warning: Probe terminated redirects, Response body: <html>moved</html>',
        `I0210 19:12:45.046912    1353 prober.go:117] "Probe succeeded" probeType="Readiness" pod="e2e-tests-statefulset-vtc1w/cockroachdb-0" podUID=bd50bec4-efc4-11e6-8f42-42010af00002 containerName="cockroachdb"`,
        // Swallowed events are re-analyzed through event-reference-failed; the kubelet line itself must not count twice.
        `E0210 19:12:45.046912    1353 event.go:259] Could not construct reference to: '&v1.ObjectReference{Kind:"Pod", Namespace:"ns", Name:"p", UID:"u", APIVersion:"v1", ResourceVersion:"1", FieldPath:"spec.containers{c}"}' due to: 'object does not implement the List interfaces'. Will not report event: 'Warning' 'Unhealthy' 'Readiness probe failed: HTTP probe failed with statuscode: 404'`,
      ],
    },
  },

  /**
   * Nothing listens on the probed port: the Go dialer's `dial tcp ADDR:
   * connect: connection refused` (`getsockopt:` before Go 1.10), wrapped in
   * `Get "URL": ` by HTTP probes (unquoted URL before Go 1.14).
   */
  {
    id: 'readiness-probe-connection-refused',
    title: 'Readiness probe connection refused',
    severity: 'warning',
    sources: ['event', 'node-log'],
    pattern: String.raw`(?:^Warning Unhealthy: Readiness probe failed: |"Probe failed" probeType="Readiness" pod="(?<namespace>[^"/]+)/(?<pod>[^"]+)".*? containerName="(?<container>[^"]+)".*? output="|Readiness probe for "[^"]*" failed \(failure\): )(?:Get \\?"?(?<url>https?://[^"\\ ]+)\\?"?: )?dial tcp (?<address>[^ ]+): (?:connect|getsockopt): connection refused`,
    explanation:
      'The kubelet could not open a TCP connection to the probed port: nothing listens there yet (the application is still starting or crashed) or the probe names the wrong port. The pod stays not Ready and gets no Service traffic.',
    remedy:
      "Compare the probe's port with the port the process listens on: `kubectl get pod POD -o jsonpath='{.spec.containers[*].readinessProbe}'` and `kubectl exec POD -- netstat -tln` (or `ss -tln`). If the application only starts slowly, add a `startupProbe` or raise `initialDelaySeconds`; if it binds to 127.0.0.1, make it listen on 0.0.0.0, since the kubelet probes the pod IP. Check `kubectl logs POD --previous` if the container restarted.",
    docsUrl: PROBES_DOCS,
    examples: {
      match: [
        'Warning Unhealthy: Readiness probe failed: Get "http://10.64.1.7:8080/health": dial tcp 10.64.1.7:8080: connect: connection refused',
        'Warning Unhealthy: Readiness probe failed: Get http://10.64.1.7:8080/health: dial tcp 10.64.1.7:8080: connect: connection refused',
        'Warning Unhealthy: Readiness probe failed: dial tcp 10.64.1.7:26257: connect: connection refused',
        String.raw`I0301 10:02:03.000001    4242 prober.go:107] "Probe failed" probeType="Readiness" pod="default/web-6d4cf56db6-7xk2p" podUID="3f8a1c2e-1111-2222-3333-444455556666" containerName="web" probeResult="failure" output="Get \"http://10.244.1.5:8080/ready\": dial tcp 10.244.1.5:8080: connect: connection refused"`,
      ],
      noMatch: [
        'Warning Unhealthy: Liveness probe failed: Get "http://10.64.1.7:8080/health": dial tcp 10.64.1.7:8080: connect: connection refused',
        'Warning Unhealthy: Readiness probe failed: HTTP probe failed with statuscode: 503',
        'Warning Unhealthy: Readiness probe failed: psql: error: connection to server on socket "/var/run/postgresql/.s.PGSQL.5432" failed: Connection refused',
        'Normal Started: Started container web',
      ],
    },
  },

  /** The probe ran out of `timeoutSeconds`: Go HTTP client, dialer and gRPC prober wordings. */
  {
    id: 'readiness-probe-timeout',
    title: 'Readiness probe times out',
    severity: 'warning',
    sources: ['event', 'node-log'],
    pattern: String.raw`^Warning Unhealthy: Readiness probe failed: (?:${PROBE_TIMEOUT_OUTPUT})|"Probe failed" probeType="Readiness" pod="(?<namespace>[^"/]+)/(?<pod>[^"]+)".*? containerName="(?<container>[^"]+)".*? output="(?:${PROBE_TIMEOUT_OUTPUT})|Readiness probe for "[^"]*" failed \(failure\): (?:${PROBE_TIMEOUT_OUTPUT})`,
    explanation:
      "The probe's request got no answer within `timeoutSeconds` (default 1 second): the application is overloaded, blocked (for example waiting on a database or a quorum), or the node is starved of CPU. The pod stays not Ready while it lasts.",
    remedy:
      "Time the endpoint from inside the pod: `kubectl exec POD -- sh -c 'time wget -qO- http://localhost:PORT/PATH'`. Make the health handler cheap and independent of slow dependencies, or raise `timeoutSeconds`/`failureThreshold`. Check CPU throttling with `kubectl top pod POD` against its limits.",
    docsUrl: PROBES_DOCS,
    examples: {
      match: [
        'Warning Unhealthy: Readiness probe failed: Get "http://10.244.1.5:8080/healthz": context deadline exceeded (Client.Timeout exceeded while awaiting headers)',
        'Warning Unhealthy: Readiness probe failed: Get http://10.244.1.5:8080/healthz: net/http: request canceled (Client.Timeout exceeded while awaiting headers)',
        'Warning Unhealthy: Readiness probe failed: dial tcp 10.244.1.5:5432: i/o timeout',
        'Warning Unhealthy: Readiness probe failed: timeout: failed to connect service "10.244.1.5:9090" within 1s',
        String.raw`Mar  1 10:02:03.000001 worker-2 kubelet[4242]: I0301 10:02:03.000001    4242 prober.go:107] "Probe failed" probeType="Readiness" pod="shop/checkout-7d9f8b-zx4q2" podUID="3f8a1c2e-1111-2222-3333-444455556666" containerName="checkout" probeResult="failure" output="Get \"http://10.244.1.5:8080/ready\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)"`,
      ],
      noMatch: [
        'Warning Unhealthy: Liveness probe failed: Get "http://10.244.1.5:8080/healthz": context deadline exceeded (Client.Timeout exceeded while awaiting headers)',
        'Warning Unhealthy: Readiness probe failed: HTTP probe failed with statuscode: 504',
        'Warning Unhealthy: Readiness probe errored: rpc error: code = DeadlineExceeded desc = context deadline exceeded',
        'Normal Pulled: Successfully pulled image "registry.k8s.io/e2e-test-images/agnhost:2.39" in 1.2s',
      ],
    },
  },

  /** An exec probe's command exited non-zero: its output is whatever the command printed. */
  {
    id: 'readiness-probe-exec-failed',
    title: 'Readiness exec probe command fails',
    severity: 'warning',
    sources: ['event', 'node-log'],
    pattern: String.raw`^Warning Unhealthy: Readiness probe failed: (?!${NETWORK_PROBE_OUTPUT})|"Probe failed" probeType="Readiness" pod="(?<namespace>[^"/]+)/(?<pod>[^"]+)".*? containerName="(?<container>[^"]+)".*? output=(?:<|"(?!${NETWORK_PROBE_OUTPUT}))|Readiness probe for "[^"]*" failed \(failure\): (?!${NETWORK_PROBE_OUTPUT})`,
    explanation:
      "The command of an `exec` readiness probe ran in the container and exited non-zero; what it printed is the message (for example `cat: /tmp/ready: No such file or directory`, or a client tool's error). The pod stays not Ready. A probe command that timed out reads `command ... timed out` (since 1.20 exec probes honour `timeoutSeconds`).",
    remedy:
      "Run the probe command yourself and look at its exit code: `kubectl exec POD -c CONTAINER -- sh -c 'CMD; echo exit=$?'`. Fix the command (a tool missing from the image, wrong credentials or socket path) or the condition it checks; raise `timeoutSeconds` if it is merely slow.",
    docsUrl: PROBES_DOCS,
    examples: {
      match: [
        'Warning Unhealthy: Readiness probe failed: cat: /tmp/ready: No such file or directory',
        'Warning Unhealthy: Readiness probe failed: /var/run/postgresql:5432 - no response',
        'Warning Unhealthy: Readiness probe failed: command "/bin/sh -c pg_isready -U postgres" timed out',
        `I0301 10:02:03.000001    4242 prober.go:107] "Probe failed" probeType="Readiness" pod="db/postgres-0" podUID="3f8a1c2e-1111-2222-3333-444455556666" containerName="postgres" probeResult="failure" output="/var/run/postgresql:5432 - rejecting connections"`,
        `I0210 19:12:45.046912    1353 prober.go:116] Readiness probe for "zk-0_e2e-tests-statefulset-abcde(1f2e3d4c-efc4-11e6-8f42-42010af00002):zookeeper" failed (failure): This ZooKeeper instance is not currently serving requests`,
      ],
      noMatch: [
        'Warning Unhealthy: Readiness probe failed: HTTP probe failed with statuscode: 404',
        'Warning Unhealthy: Readiness probe failed: Get "http://10.244.1.5:8080/ready": dial tcp 10.244.1.5:8080: connect: connection refused',
        'Warning Unhealthy: Liveness probe failed: cat: /tmp/healthy: No such file or directory',
        'Warning Unhealthy: Readiness probe errored: rpc error: code = NotFound desc = failed to exec in container: container is in CONTAINER_EXITED state',
      ],
    },
  },

  /** Liveness failures of any kind; the kill they cause is liveness-probe-restart. */
  {
    id: 'liveness-probe-failed',
    title: 'Liveness probe fails',
    severity: 'warning',
    sources: ['event', 'node-log'],
    pattern: String.raw`^Warning Unhealthy: Liveness probe failed: |"Probe failed" probeType="Liveness" pod="(?<namespace>[^"/]+)/(?<pod>[^"]+)".*? containerName="(?<container>[^"]+)"|Liveness probe for "[^"]*" failed \(failure\): `,
    explanation:
      "The container's liveness probe failed. After `failureThreshold` consecutive failures (default 3) the kubelet kills the container and restarts it, so a liveness probe that fails for a reason a restart cannot fix (a dependency down, a quorum not reached) turns into a restart loop.",
    remedy:
      "Read the failure message (status code, connection refused, timeout) and check the endpoint as for readiness: `kubectl describe pod POD`, `kubectl logs POD --previous`. A liveness probe should only check that the process itself is alive: move dependency and quorum checks to the readiness probe, and give slow starters a `startupProbe` instead of a long `initialDelaySeconds`.",
    docsUrl: PROBES_DOCS,
    examples: {
      match: [
        'Warning Unhealthy: Liveness probe failed: HTTP probe failed with statuscode: 500',
        'Warning Unhealthy: Liveness probe failed: Get "http://10.244.2.9:8080/healthz": context deadline exceeded (Client.Timeout exceeded while awaiting headers)',
        'Warning Unhealthy: Liveness probe failed: cat: /tmp/healthy: No such file or directory',
        `I0210 19:12:45.046912    1353 prober.go:107] "Probe failed" probeType="Liveness" pod="default/liveness-http" podUID=0a1b2c3d-1111-2222-3333-444455556666 containerName="liveness" probeResult="failure" output="HTTP probe failed with statuscode: 500"`,
        `Feb 10 19:12:45.046912 node-1 kubelet[1353]: I0210 19:12:45.046912    1353 prober.go:116] Liveness probe for "liveness-http_default(0a1b2c3d-1111-2222-3333-444455556666):liveness" failed (failure): HTTP probe failed with statuscode: 500`,
      ],
      noMatch: [
        'Warning Unhealthy: Readiness probe failed: HTTP probe failed with statuscode: 500',
        'Warning Unhealthy: Startup probe failed: HTTP probe failed with statuscode: 500',
        `I0210 19:12:45.046912    1353 prober.go:117] "Probe succeeded" probeType="Liveness" pod="default/liveness-http" podUID=0a1b2c3d-1111-2222-3333-444455556666 containerName="liveness"`,
        'Normal Killing: Container liveness failed liveness probe, will be restarted',
      ],
    },
  },

  /**
   * kuberuntime_manager computePodActions: `Container %s failed liveness probe`
   * + `, will be restarted`, recorded as a Normal Killing event and logged by
   * the kubelet at -v=2.
   */
  {
    id: 'liveness-probe-restart',
    title: 'Container killed and restarted after failing its liveness probe',
    severity: 'warning',
    sources: ['event', 'node-log'],
    pattern: String.raw`Container (?<container>[^ ]+) failed liveness probe, will be restarted`,
    groupBy: ['container'],
    explanation:
      'The kubelet killed the container because its liveness probe failed `failureThreshold` times in a row, and started it again. Each kill loses in-flight work and restarts the application from scratch; repeated kills end in CrashLoopBackOff.',
    remedy:
      'Find the probe failures that preceded the kill (the liveness-probe-failed finding) and fix their cause. If the application is only slow to start or under load, add a `startupProbe`, raise `timeoutSeconds`/`failureThreshold`, and make sure the liveness endpoint does not depend on other services. `kubectl logs POD --previous` shows the killed instance.',
    docsUrl: PROBES_DOCS,
    examples: {
      match: [
        'Normal Killing: Container liveness failed liveness probe, will be restarted',
        'Normal Killing: Container cockroachdb failed liveness probe, will be restarted',
        `I0301 10:02:03.000001    4242 kuberuntime_manager.go:1009] "Message for Container of pod" containerName="api-server" containerStatusID={Type:containerd ID:5b1c2d3e4f} pod="prod/api-server-7f8b9c6d4-x2k9p" containerMessage="Container api-server failed liveness probe, will be restarted"`,
      ],
      noMatch: [
        'Normal Killing: Stopping container api-server',
        'Normal Killing: Container app failed startup probe, will be restarted',
        'Normal Killing: Container app definition changed, will be restarted',
      ],
    },
  },

  /** Startup probe failures and the kills they cause (`Container %s failed startup probe, will be restarted`). */
  {
    id: 'startup-probe-failed',
    title: 'Startup probe fails',
    severity: 'warning',
    sources: ['event', 'node-log'],
    pattern: String.raw`^Warning Unhealthy: Startup probe failed: |"Probe failed" probeType="Startup" pod="(?<namespace>[^"/]+)/(?<pod>[^"]+)".*? containerName="(?<container>[^"]+)"|Startup probe for "[^"]*" failed \(failure\): |failed startup probe, will be restarted`,
    explanation:
      'The container did not pass its startup probe. Liveness and readiness probes wait until it does; once the probe has failed `failureThreshold` times the kubelet kills and restarts the container, so an application that needs longer to start than `failureThreshold x periodSeconds` never starts.',
    remedy:
      "Measure how long the application takes to start (`kubectl logs POD --previous` shows how far it got) and set `failureThreshold x periodSeconds` above it. Check that the startup probe's port and path are right: `kubectl get pod POD -o jsonpath='{.spec.containers[*].startupProbe}'`.",
    docsUrl: PROBES_DOCS,
    examples: {
      match: [
        'Warning Unhealthy: Startup probe failed: HTTP probe failed with statuscode: 503',
        'Warning Unhealthy: Startup probe failed: Get "http://10.244.0.12:9000/started": dial tcp 10.244.0.12:9000: connect: connection refused',
        'Normal Killing: Container minio failed startup probe, will be restarted',
        `I0301 10:02:03.000001    4242 prober.go:107] "Probe failed" probeType="Startup" pod="storage/minio-0" podUID="3f8a1c2e-1111-2222-3333-444455556666" containerName="minio" probeResult="failure" output="HTTP probe failed with statuscode: 503"`,
      ],
      noMatch: [
        'Warning Unhealthy: Readiness probe failed: HTTP probe failed with statuscode: 503',
        'Normal Started: Started container minio',
        `I0301 10:02:03.000001    4242 prober.go:117] "Probe succeeded" probeType="Startup" pod="storage/minio-0" podUID="3f8a1c2e-1111-2222-3333-444455556666" containerName="minio"`,
      ],
    },
  },

  /**
   * kuberuntime_manager doBackOff: event `Back-off restarting failed container
   * %s in pod %s` (older releases: without the names) and the error `back-off
   * %s restarting failed container=%s pod=%s` that pod_workers logs as `Error
   * syncing pod ... with CrashLoopBackOff: "..."`.
   */
  {
    id: 'crash-loop-backoff',
    title: 'Container in CrashLoopBackOff',
    severity: 'error',
    sources: ['event', 'node-log'],
    pattern: String.raw`(?:^Warning BackOff: Back-off|with CrashLoopBackOff: \\*"back-off [0-9a-z.]+) restarting failed container(?:[ =](?<container>[^ ]+) (?:in pod |pod=)(?<pod>[^_ ]+)_(?<namespace>[^\( ]+)\()?`,
    explanation:
      'The container keeps exiting, and the kubelet waits longer before each restart (10s doubling up to 5 minutes). The container is not running most of the time; the reason is in its own output or exit code, not in this message.',
    remedy:
      "Read the last crashed instance: `kubectl logs POD -c CONTAINER --previous` and `kubectl get pod POD -o jsonpath='{.status.containerStatuses[*].lastState}'` (exit code, reason: 137/OOMKilled means the memory limit, 1 an application error). Check the command, config maps, secrets and environment it expects, and whether a liveness probe is killing it (liveness-probe-restart).",
    docsUrl: 'https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#container-restarts',
    examples: {
      match: [
        'Warning BackOff: Back-off restarting failed container app in pod p_ns(0a1b2c3d-1111-2222-3333-444455556666)',
        'Warning BackOff: Back-off restarting failed container',
        `E0210 19:12:45.046912    1353 pod_workers.go:191] Error syncing pod bd50bec4-efc4-11e6-8f42-42010af00002 ("cockroachdb-0_e2e-tests-statefulset-vtc1w(bd50bec4-efc4-11e6-8f42-42010af00002)"), skipping: failed to "StartContainer" for "cockroachdb" with CrashLoopBackOff: "back-off 5m0s restarting failed container=cockroachdb pod=cockroachdb-0_e2e-tests-statefulset-vtc1w(bd50bec4-efc4-11e6-8f42-42010af00002)"`,
        String.raw`Jul 15 08:01:12.123456 worker-1 kubelet[2211]: E0715 08:01:12.123456    2211 pod_workers.go:1298] "Error syncing pod, skipping" err="failed to \"StartContainer\" for \"app\" with CrashLoopBackOff: \"back-off 40s restarting failed container=app pod=web-0_shop(3f8a1c2e-1111-2222-3333-444455556666)\"" pod="shop/web-0" podUID="3f8a1c2e-1111-2222-3333-444455556666"`,
      ],
      noMatch: [
        'Normal BackOff: Back-off pulling image "nginx:1.25-typo"',
        'Normal Started: Started container app',
        'Normal Pulled: Container image "registry.k8s.io/pause:3.9" already present on machine',
        // Logged at -v=3 just before the pod_workers line above; counting it too would double every back-off.
        `I0715 08:01:12.123400    2211 kuberuntime_manager.go:1222] "Back-off restarting failed container" err="back-off 40s restarting failed container=app pod=web-0_shop(3f8a1c2e-1111-2222-3333-444455556666)"`,
      ],
    },
  },

  /**
   * OOM kills: the kernel's `Memory cgroup out of memory: Killed process`
   * (`Kill process ... or sacrifice child` before 5.x) and `oom-kill:` summary,
   * the kubelet's SystemOOM node event (oom_watcher), node-problem-detector's
   * OOMKilling event, and the OOMKilled terminated reason in kubelet status logs.
   */
  {
    id: 'container-oom-killed',
    title: 'Container killed for running out of memory (OOMKilled)',
    severity: 'error',
    sources: ['event', 'node-log'],
    pattern: String.raw`^Warning OOMKilling: |^Warning SystemOOM: System OOM encountered|(?:Memory cgroup out|Out) of memory: Kill(?:ed)? process (?<pid>\d+) \((?<process>[^\)]+)\)|\boom-kill:constraint=|\\*"reason\\*":\\*"OOMKilled|Reason:OOMKilled`,
    explanation:
      "A process was killed by the kernel's OOM killer: within a container that reached its memory limit (a cgroup OOM; the container's last state reads `OOMKilled`, exit code 137), or because the whole node ran out of memory (a system OOM). The container restarts and may end in CrashLoopBackOff.",
    remedy:
      "Find the container: `kubectl get pods -A -o jsonpath='{range .items[*]}{.metadata.namespace}/{.metadata.name} {.status.containerStatuses[*].lastState.terminated.reason}{\"\\n\"}{end}' | grep OOMKilled`. Compare its usage (`kubectl top pod POD --containers`) with `resources.limits.memory` and raise the limit, or lower the application's heap/cache sizes (JVM `-XX:MaxRAMPercentage`, database cache settings). For system OOMs, set memory requests so the scheduler does not overcommit the node.",
    docsUrl: 'https://kubernetes.io/docs/tasks/configure-pod-container/assign-memory-resource/',
    examples: {
      match: [
        'Warning OOMKilling: Memory cgroup out of memory: Killed process 4711 (cockroach) total-vm:2843952kB, anon-rss:1047552kB, file-rss:31000kB, shmem-rss:0kB, UID:0 pgtables:2300kB oom_score_adj:984',
        'Warning SystemOOM: System OOM encountered, victim process: java, pid: 31337',
        'Feb 10 19:12:45 node-1 kernel: Memory cgroup out of memory: Killed process 4711 (cockroach) total-vm:2843952kB, anon-rss:1047552kB, file-rss:31000kB, shmem-rss:0kB, UID:0 pgtables:2300kB oom_score_adj:984',
        'Feb 10 19:12:45 node-1 kernel: Memory cgroup out of memory: Kill process 4711 (cockroach) score 1984 or sacrifice child',
        'Feb 10 19:12:45 node-1 kernel: oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=cri-containerd-5b1c2d3e.scope,mems_allowed=0,oom_memcg=/kubepods.slice/kubepods-burstable.slice,task_memcg=/kubepods.slice/kubepods-burstable.slice/cri-containerd-5b1c2d3e.scope,task=cockroach,pid=4711,uid=0',
        String.raw`I0301 10:02:03.000001    4242 status_manager.go:874] "Patch status for pod" pod="db/cockroachdb-0" patch="{\"status\":{\"containerStatuses\":[{\"lastState\":{\"terminated\":{\"exitCode\":137,\"reason\":\"OOMKilled\"}}}]}}"`,
      ],
      noMatch: [
        // The first line of the same kernel report: counting it too would double every kill.
        'Feb 10 19:12:45 node-1 kernel: cockroach invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, oom_score_adj=984',
        `I0301 10:02:03.000001    4242 kubelet.go:2453] "SyncLoop (PLEG): event for pod" pod="db/cockroachdb-0" event={ID:3f8a1c2e Type:ContainerDied Data:5b1c2d3e}`,
        'level=info msg="memory usage within limits" oom_kills_total=0',
      ],
    },
  },

  /** `Failed to pull image "X": ...` (event, and the kubelet's structured `"Failed to pull image" err=... image="X"`) where the registry says the image does not exist. */
  {
    id: 'image-pull-not-found',
    title: 'Image or tag does not exist',
    severity: 'error',
    sources: ['event', 'node-log'],
    pattern: String.raw`^(?=(?:.*? image="|(?!.* image=").*?image \\?")(?<image>[^"\\]+)).*?Failed to pull image.*(?:${IMAGE_NOT_FOUND})`,
    groupBy: ['image'],
    explanation:
      'The registry answered that the image reference does not exist: a typo in the repository or tag, a tag that was never pushed or was deleted, or an image name without its registry (it then defaults to docker.io). The container cannot start (ErrImagePull, then ImagePullBackOff). Docker Hub also answers `repository does not exist or may require docker login` for private repositories.',
    remedy:
      "Check the exact reference in the pod spec (`kubectl get pod POD -o jsonpath='{.spec.containers[*].image}'`) against the registry, e.g. `crane ls REPO` or `docker manifest inspect IMAGE`. Fix the name or tag in the Deployment/StatefulSet; for a private repository add an `imagePullSecrets` entry.",
    docsUrl: IMAGES_DOCS,
    examples: {
      match: [
        'Warning Failed: Failed to pull image "nginx:1.25-typo": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:1.25-typo": failed to resolve reference "docker.io/library/nginx:1.25-typo": docker.io/library/nginx:1.25-typo: not found',
        'Warning Failed: Failed to pull image "cockroachdb/cockroach:v99.1": rpc error: code = Unknown desc = Error response from daemon: manifest for cockroachdb/cockroach:v99.1 not found: manifest unknown: manifest unknown',
        'Warning Failed: Failed to pull image "acme/private-api:1.0": rpc error: code = Unknown desc = Error response from daemon: pull access denied for acme/private-api, repository does not exist or may require \'docker login\': denied: requested access to the resource is denied',
        String.raw`E0301 10:02:03.000001    4242 kuberuntime_image.go:53] "Failed to pull image" err="rpc error: code = NotFound desc = failed to pull and unpack image \"docker.io/library/nginx:1.25-typo\": failed to resolve reference \"docker.io/library/nginx:1.25-typo\": docker.io/library/nginx:1.25-typo: not found" image="nginx:1.25-typo"`,
      ],
      noMatch: [
        'Normal Pulled: Successfully pulled image "nginx:1.25" in 2.1s (2.1s including waiting)',
        'Normal Pulling: Pulling image "nginx:1.25-typo"',
        'Warning Failed: Failed to pull image "nginx:1.25": rpc error: code = Unknown desc = failed to pull and unpack image "docker.io/library/nginx:1.25": failed to copy: httpReadSeeker: failed open: unexpected status code https://registry-1.docker.io/v2/library/nginx/manifests/sha256:abc: 429 Too Many Requests - Server message: toomanyrequests: You have reached your pull rate limit.',
      ],
    },
  },

  /** `Failed to pull image` where the registry refused the credentials (or got none). */
  {
    id: 'image-pull-unauthorized',
    title: 'Registry refused to serve the image (authentication)',
    severity: 'error',
    sources: ['event', 'node-log'],
    pattern: String.raw`^(?=(?:.*? image="|(?!.* image=").*?image \\?")(?<image>[^"\\]+)).*?Failed to pull image(?!.*(?:${IMAGE_NOT_FOUND})).*(?:${IMAGE_UNAUTHORIZED})`,
    groupBy: ['image'],
    explanation:
      'The registry requires credentials the node did not send or did not accept (401/403). The pod has no usable `imagePullSecrets`, the secret is in another namespace or expired, or the node identity has no read access to the registry.',
    remedy:
      "Check the pod's pull secrets: `kubectl get pod POD -o jsonpath='{.spec.imagePullSecrets}'` and that the secret exists in the pod's namespace. Create one with `kubectl create secret docker-registry regcred --docker-server=REGISTRY --docker-username=... --docker-password=... -n NS` and reference it from the pod spec or the service account (`kubectl patch serviceaccount default -n NS -p '{\"imagePullSecrets\":[{\"name\":\"regcred\"}]}'`).",
    docsUrl: 'https://kubernetes.io/docs/tasks/configure-pod-container/pull-image-private-registry/',
    examples: {
      match: [
        'Warning Failed: Failed to pull image "ghcr.io/acme/checkout:v1.4.2": rpc error: code = Unknown desc = failed to pull and unpack image "ghcr.io/acme/checkout:v1.4.2": failed to resolve reference "ghcr.io/acme/checkout:v1.4.2": failed to authorize: failed to fetch anonymous token: unexpected status: 401 Unauthorized',
        'Warning Failed: Failed to pull image "123456789012.dkr.ecr.us-east-1.amazonaws.com/api:7": rpc error: code = Unknown desc = Error response from daemon: Get https://123456789012.dkr.ecr.us-east-1.amazonaws.com/v2/api/manifests/7: no basic auth credentials',
      ],
      noMatch: [
        'Warning Failed: Failed to pull image "nginx:1.25-typo": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:1.25-typo": failed to resolve reference "docker.io/library/nginx:1.25-typo": docker.io/library/nginx:1.25-typo: not found',
        'Normal Pulled: Successfully pulled image "ghcr.io/acme/checkout:v1.4.2" in 3.4s',
      ],
    },
  },

  /** `Failed to pull image` with Docker Hub's `toomanyrequests` (HTTP 429). */
  {
    id: 'image-pull-rate-limited',
    title: 'Registry pull rate limit reached',
    severity: 'warning',
    sources: ['event', 'node-log'],
    pattern: String.raw`^(?=(?:.*? image="|(?!.* image=").*?image \\?")(?<image>[^"\\]+)).*?Failed to pull image.*(?:${IMAGE_RATE_LIMITED})`,
    groupBy: ['image'],
    explanation:
      'The registry refused the pull because this client (often the whole cluster behind one NAT address) exceeded its pull quota; Docker Hub limits anonymous pulls per IP address. The image exists and later pulls may succeed, but pods wait in ImagePullBackOff meanwhile.',
    remedy:
      'Pull with an authenticated account (an `imagePullSecrets` entry for docker.io), mirror the images to your own registry or a pull-through cache and change the image references, or pre-load the images on the nodes (`crictl pull`). Use `imagePullPolicy: IfNotPresent` with pinned tags so nodes do not pull again.',
    docsUrl: IMAGES_DOCS,
    examples: {
      match: [
        'Warning Failed: Failed to pull image "nginx:1.25": rpc error: code = Unknown desc = failed to pull and unpack image "docker.io/library/nginx:1.25": failed to copy: httpReadSeeker: failed open: unexpected status code https://registry-1.docker.io/v2/library/nginx/manifests/sha256:abc: 429 Too Many Requests - Server message: toomanyrequests: You have reached your pull rate limit. You may increase the limit by authenticating and upgrading: https://www.docker.com/increase-rate-limit',
        'Warning Failed: Failed to pull image "busybox:1.36": rpc error: code = Unknown desc = Error response from daemon: toomanyrequests: You have reached your pull rate limit. You may increase the limit by authenticating and upgrading: https://www.docker.com/increase-rate-limit',
      ],
      noMatch: [
        'Normal Pulling: Pulling image "busybox:1.36"',
        'Warning Failed: Failed to pull image "busybox:1.36": rpc error: code = Unknown desc = failed to pull and unpack image "docker.io/library/busybox:1.36": failed to resolve reference "docker.io/library/busybox:1.36": failed to do request: Head "https://registry-1.docker.io/v2/library/busybox/manifests/1.36": dial tcp: lookup registry-1.docker.io: i/o timeout',
      ],
    },
  },

  /** Any other `Failed to pull image`: registry unreachable, TLS, disk full, wrong platform. */
  {
    id: 'image-pull-failed',
    title: 'Image pull failed',
    severity: 'error',
    sources: ['event', 'node-log'],
    pattern: String.raw`^(?=(?:.*? image="|(?!.* image=").*?image \\?")(?<image>[^"\\]+)).*?Failed to pull image(?!.*(?:${IMAGE_NOT_FOUND}|${IMAGE_UNAUTHORIZED}|${IMAGE_RATE_LIMITED}))`,
    groupBy: ['image'],
    explanation:
      'The node could not pull the image for a reason other than a missing image, credentials or a rate limit: the registry is unreachable (DNS, proxy, firewall), its certificate is not trusted, the node disk is full, or the image has no variant for the node architecture. The container stays in ErrImagePull/ImagePullBackOff.',
    remedy:
      "Read the error after `Failed to pull image`. From the node (`kubectl debug node/NODE -it --image=busybox`), check DNS and reachability of the registry; for `x509` errors add the registry CA to the container runtime; for `no space left on device` free the image filesystem; for `no match for platform` use a multi-arch image or a node selector on `kubernetes.io/arch`.",
    docsUrl: IMAGES_DOCS,
    examples: {
      match: [
        'Warning Failed: Failed to pull image "busybox:1.36": rpc error: code = Unknown desc = failed to pull and unpack image "docker.io/library/busybox:1.36": failed to resolve reference "docker.io/library/busybox:1.36": failed to do request: Head "https://registry-1.docker.io/v2/library/busybox/manifests/1.36": dial tcp: lookup registry-1.docker.io: i/o timeout',
        'Warning Failed: Failed to pull image "registry.internal:5000/api:7": rpc error: code = Unknown desc = failed to pull and unpack image "registry.internal:5000/api:7": failed to resolve reference "registry.internal:5000/api:7": failed to do request: Head "https://registry.internal:5000/v2/api/manifests/7": x509: certificate signed by unknown authority',
        String.raw`E0301 10:02:03.000001    4242 kuberuntime_image.go:53] "Failed to pull image" err="rpc error: code = Unknown desc = failed to pull and unpack image \"docker.io/library/postgres:16\": failed to extract layer sha256:abc: write /var/lib/containerd/io.containerd.snapshotter.v1.overlayfs/snapshots/42/fs/usr/lib/x: no space left on device: unknown" image="postgres:16"`,
      ],
      noMatch: [
        'Warning Failed: Failed to pull image "nginx:1.25-typo": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:1.25-typo": failed to resolve reference "docker.io/library/nginx:1.25-typo": docker.io/library/nginx:1.25-typo: not found',
        'Normal Pulled: Successfully pulled image "busybox:1.36" in 812ms (812ms including waiting)',
        'Warning Failed: Error: ErrImagePull',
      ],
    },
  },

  /** `Back-off pulling image "X"` (Normal BackOff event) and the kubelet's `with ImagePullBackOff: "Back-off pulling image \"X\""`. */
  {
    id: 'image-pull-backoff',
    title: 'Image pull in back-off (ImagePullBackOff)',
    severity: 'warning',
    sources: ['event', 'node-log'],
    pattern: String.raw`(?:^(?:Normal|Warning) BackOff: |with ImagePullBackOff: \\*")Back-off pulling image \\*"(?<image>[^"\\]+)`,
    groupBy: ['image'],
    explanation:
      'Earlier pulls of this image failed, so the kubelet waits before trying again (up to 5 minutes between attempts). The container does not start until a pull succeeds; the reason is in the preceding `Failed to pull image` message (see the image-pull findings).',
    remedy:
      "Look at the first failure: `kubectl describe pod POD` (Events) or the image-pull-* finding for the same image, fix the reference, credentials or registry access, then delete the pod (`kubectl delete pod POD`) to retry at once instead of waiting for the back-off.",
    docsUrl: IMAGES_DOCS,
    examples: {
      match: [
        'Normal BackOff: Back-off pulling image "nginx:1.25-typo"',
        String.raw`E0301 10:02:03.000001    4242 pod_workers.go:1298] "Error syncing pod, skipping" err="failed to \"StartContainer\" for \"web\" with ImagePullBackOff: \"Back-off pulling image \\\"nginx:1.25-typo\\\"\"" pod="default/web-0" podUID="3f8a1c2e-1111-2222-3333-444455556666"`,
        `E0210 19:12:45.046912    1353 pod_workers.go:191] Error syncing pod 3f8a1c2e-1111-2222-3333-444455556666 ("web-0_default(3f8a1c2e-1111-2222-3333-444455556666)"), skipping: failed to "StartContainer" for "web" with ImagePullBackOff: "Back-off pulling image \\"nginx:1.25-typo\\""`,
      ],
      noMatch: [
        'Warning BackOff: Back-off restarting failed container web in pod web-0_default(3f8a1c2e-1111-2222-3333-444455556666)',
        'Normal Pulling: Pulling image "nginx:1.25-typo"',
      ],
    },
  },

  /**
   * The scheduler's FitError: `0/3 nodes are available: <reasons>.` (since 1.24
   * followed by ` preemption: ...`); also in kube-scheduler's log `"Unable to
   * schedule pod; no fit; waiting" pod=... err="..."` (1.21+) and `Unable to
   * schedule %v/%v: no fit: %v; waiting` (1.20).
   */
  {
    id: 'pod-unschedulable',
    title: 'Pod cannot be scheduled',
    severity: 'warning',
    sources: ['event', 'container-log'],
    pattern: String.raw`(?:^Warning FailedScheduling: |"Unable to schedule pod; no fit; waiting" pod="(?<namespace>[^"/]+)/(?<pod>[^"]+)" err="|Unable to schedule \S+: no fit: )(?=(?<reasons>[^"]+?)(?:; waiting)?(?:"|$))\d+/\d+ nodes are available|^Warning FailedScheduling: no nodes available to schedule pods`,
    groupBy: ['reasons'],
    explanation:
      'The scheduler found no node the pod fits on, and says why per node: `Insufficient cpu`/`memory` (requests larger than what is free), `untolerated taint` (or `had taint ..., that the pod didn\'t tolerate` before 1.25), `didn\'t match Pod\'s node affinity/selector`, `unbound immediate PersistentVolumeClaims` or `volume node affinity conflict`. The pod stays Pending until something changes.',
    remedy:
      "Act on the reasons: compare requests with `kubectl describe nodes` (Allocated resources) and lower them or add nodes; check taints (`kubectl get nodes -o custom-columns=NAME:.metadata.name,TAINTS:.spec.taints`) against the pod's tolerations; check `nodeSelector`/affinity against node labels (`kubectl get nodes --show-labels`); for PVC reasons see `kubectl get pvc -n NS` and the StorageClass.",
    docsUrl: 'https://kubernetes.io/docs/concepts/scheduling-eviction/kube-scheduler/',
    examples: {
      match: [
        'Warning FailedScheduling: 0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.',
        "Warning FailedScheduling: 0/3 nodes are available: 1 node(s) had taint {node-role.kubernetes.io/master: }, that the pod didn't tolerate, 2 node(s) didn't match Pod's node affinity/selector.",
        'Warning FailedScheduling: 0/1 nodes are available: 1 pod has unbound immediate PersistentVolumeClaims. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
        'Warning FailedScheduling: no nodes available to schedule pods',
        `I0301 10:02:03.000001       1 schedule_one.go:1006] "Unable to schedule pod; no fit; waiting" pod="e2e-tests-statefulset-vtc1w/cockroachdb-1" err="0/3 nodes are available: 3 Insufficient memory. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod."`,
        "I0210 19:12:45.046912       1 scheduler.go:638] Unable to schedule e2e-tests-statefulset-vtc1w/cockroachdb-1: no fit: 0/3 nodes are available: 3 Insufficient memory.; waiting",
      ],
      noMatch: [
        'Normal Scheduled: Successfully assigned e2e-tests-statefulset-vtc1w/cockroachdb-0 to node-1',
        'Warning FailedCreate: create Pod cockroachdb-1 in StatefulSet cockroachdb failed error: pods "cockroachdb-1" is forbidden: exceeded quota: compute-resources',
        `I0301 10:02:03.000001       1 schedule_one.go:286] "Successfully bound pod to node" pod="e2e-tests-statefulset-vtc1w/cockroachdb-0" node="node-1" evaluatedNodes=3 feasibleNodes=2`,
      ],
    },
  },

  /**
   * The kubelet's operation executor: `MountVolume.SetUp failed for volume "X" :
   * ...` (also MountDevice, WaitForAttach, NewMounter initialization), as a
   * FailedMount event and in nestedpendingoperations' `Operation for ... failed`.
   */
  {
    id: 'volume-mount-failed',
    title: 'Volume cannot be mounted',
    severity: 'error',
    sources: ['event', 'node-log'],
    pattern: String.raw`MountVolume\.(?<operation>\w+) failed for volume \\?"(?<volume>[^"\\]+)`,
    groupBy: ['volume'],
    explanation:
      "The kubelet tried to mount a volume of the pod and failed, so none of its containers start (the pod stays ContainerCreating and the kubelet retries with back-off). Typical causes: the referenced Secret or ConfigMap does not exist, the CSI driver is not running on the node, formatting or mounting the device failed, or an NFS/iSCSI server does not answer.",
    remedy:
      "Read the error after the volume name (`kubectl describe pod POD`). For `secret \"x\" not found` or `configmap \"x\" not found`, create it in the pod's namespace (`kubectl get secret,configmap -n NS`). For CSI volumes, check the driver pods on that node (`kubectl get pods -A -o wide --field-selector spec.nodeName=NODE`) and their logs; for NFS, check the server export from the node.",
    docsUrl: 'https://kubernetes.io/docs/concepts/storage/volumes/',
    examples: {
      match: [
        'Warning FailedMount: MountVolume.SetUp failed for volume "certs" : secret "cockroachdb-node-certs" not found',
        'Warning FailedMount: MountVolume.MountDevice failed for volume "pvc-8d5f4f2e-1111-2222-3333-444455556666" : rpc error: code = Internal desc = format of disk "/dev/xvdba" failed',
        String.raw`E0301 10:02:03.000001    4242 nestedpendingoperations.go:348] Operation for "{volumeName:kubernetes.io/secret/3f8a1c2e-certs podName:3f8a1c2e nodeName:}" failed. No retries permitted until 2024-03-01 10:04:05.000001 +0000 UTC m=+1234.5 (durationBeforeRetry 2m2s). Error: MountVolume.SetUp failed for volume "certs" (UniqueName: "kubernetes.io/secret/3f8a1c2e-certs") pod "cockroachdb-0" (UID: "3f8a1c2e"): secret "cockroachdb-node-certs" not found`,
      ],
      noMatch: [
        `I0301 10:02:03.000001    4242 operation_generator.go:721] "MountVolume.SetUp succeeded for volume \\"certs\\" (UniqueName: \\"kubernetes.io/secret/3f8a1c2e-certs\\") pod \\"cockroachdb-0\\" (UID: \\"3f8a1c2e\\") " pod="db/cockroachdb-0"`,
        'Normal SuccessfulAttachVolume: AttachVolume.Attach succeeded for volume "pvc-8d5f4f2e-1111-2222-3333-444455556666"',
        'Warning FailedAttachVolume: Multi-Attach error for volume "pvc-8d5f4f2e-1111-2222-3333-444455556666" Volume is already exclusively attached to one node and can\'t be attached to another',
      ],
    },
  },

  /**
   * The volume manager gave up waiting: `Unable to attach or mount volumes:
   * unmounted volumes=[X], unattached volumes=[...]: timed out waiting for the
   * condition` (1.18+; structured `"Unable to attach or mount volumes for pod;
   * skipping pod" err="unmounted volumes=[X], ..."`) and `Unable to mount
   * volumes for pod ...: timeout expired ... list of unmounted volumes=[X]` before.
   */
  {
    id: 'volume-mount-timeout',
    title: 'Pod volumes not attached or mounted in time',
    severity: 'error',
    sources: ['event', 'node-log'],
    pattern: String.raw`Unable to (?:attach or )?mount volumes[^\[]*unmounted volumes=\[(?<volume>[^\]\s,]+)`,
    groupBy: ['volume'],
    explanation:
      "The kubelet waited about two minutes for the pod's volumes to be attached and mounted and gave up for this round; it keeps retrying and the pod stays ContainerCreating. This message only says that something is slow or failing: the reason is in a MountVolume or AttachVolume message about the same volume (volume-mount-failed, volume-attach-failed), or the volume is still attached to another node.",
    remedy:
      "Look for the underlying error: `kubectl describe pod POD` and `kubectl get events -n NS --field-selector involvedObject.name=POD`. Check that the PVC is Bound (`kubectl get pvc -n NS`) and where the volume is attached (`kubectl get volumeattachments`); if nothing else is reported, check the CSI node plugin on the pod's node.",
    docsUrl: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/',
    examples: {
      match: [
        'Warning FailedMount: Unable to attach or mount volumes: unmounted volumes=[datadir], unattached volumes=[datadir kube-api-access-x2k9p]: timed out waiting for the condition',
        'Warning FailedMount: Unable to mount volumes for pod "cockroachdb-0_e2e-tests-statefulset-vtc1w(bd50bec4-efc4-11e6-8f42-42010af00002)": timeout expired waiting for volumes to attach or mount for pod "e2e-tests-statefulset-vtc1w"/"cockroachdb-0". list of unmounted volumes=[datadir]. list of unattached volumes=[datadir default-token-abcde]',
        `E0301 10:02:03.000001    4242 kubelet.go:1881] "Unable to attach or mount volumes for pod; skipping pod" err="unmounted volumes=[datadir], unattached volumes=[datadir kube-api-access-x2k9p]: timed out waiting for the condition" pod="db/cockroachdb-0"`,
      ],
      noMatch: [
        'Warning FailedMount: MountVolume.SetUp failed for volume "certs" : secret "cockroachdb-node-certs" not found',
        `I0301 10:02:03.000001    4242 volume_manager.go:404] "All volumes are attached and mounted for pod" pod="db/cockroachdb-0"`,
      ],
    },
  },

  /** The attach/detach controller: `AttachVolume.Attach failed for volume "X" : ...` and `Multi-Attach error for volume "X"`. */
  {
    id: 'volume-attach-failed',
    title: 'Volume cannot be attached to the node',
    severity: 'error',
    sources: ['event', 'container-log'],
    pattern: String.raw`(?:AttachVolume\.Attach failed|Multi-Attach error) for volume \\?"(?<volume>[^"\\]+)`,
    groupBy: ['volume'],
    explanation:
      "The attach/detach controller could not attach the volume to the pod's node: a ReadWriteOnce volume is still attached to another node (Multi-Attach, common after a node failure or while the old pod terminates), the cloud or CSI driver returned an error, or the node has no free attachment slots. The pod cannot start until it is attached.",
    remedy:
      "See where the volume is attached: `kubectl get volumeattachments | grep PV` and `kubectl get pods -A -o wide | grep CLAIM`. Delete the pod still using it, or if its node is gone, delete that node's VolumeAttachment after confirming the node is really down. For driver errors, check the CSI controller logs (`kubectl logs -n kube-system deploy/CSI-CONTROLLER -c csi-attacher`).",
    docsUrl: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#access-modes',
    examples: {
      match: [
        'Warning FailedAttachVolume: Multi-Attach error for volume "pvc-8d5f4f2e-1111-2222-3333-444455556666" Volume is already exclusively attached to one node and can\'t be attached to another',
        'Warning FailedAttachVolume: AttachVolume.Attach failed for volume "pvc-8d5f4f2e-1111-2222-3333-444455556666" : rpc error: code = Internal desc = Could not attach volume "vol-0abc" to node "i-0def": attachment of disk "vol-0abc" failed, expected device to be attached but was attaching',
        `E0301 10:02:03.000001       1 nestedpendingoperations.go:348] Operation for "{volumeName:kubernetes.io/csi/ebs.csi.aws.com^vol-0abc podName: nodeName:ip-10-0-1-5.ec2.internal}" failed. No retries permitted until 2024-03-01 10:02:03.500001 +0000 UTC m=+1234.5 (durationBeforeRetry 500ms). Error: AttachVolume.Attach failed for volume "pvc-8d5f4f2e-1111-2222-3333-444455556666" (UniqueName: "kubernetes.io/csi/ebs.csi.aws.com^vol-0abc") from node "ip-10-0-1-5.ec2.internal" : rpc error: code = Internal desc = Could not attach volume "vol-0abc" to node "i-0def": context deadline exceeded`,
      ],
      noMatch: [
        'Normal SuccessfulAttachVolume: AttachVolume.Attach succeeded for volume "pvc-8d5f4f2e-1111-2222-3333-444455556666"',
        'Warning FailedMount: MountVolume.SetUp failed for volume "certs" : secret "cockroachdb-node-certs" not found',
      ],
    },
  },

  /**
   * Node-pressure eviction: the Evicted event (eviction/helpers.go `The node was
   * low on resource: %v.` and `The node had condition: %v.`) and the eviction
   * manager's `"Eviction manager: pod is evicted successfully" pod=...`.
   */
  {
    id: 'pod-evicted',
    title: 'Pod evicted by the kubelet under node pressure',
    severity: 'error',
    sources: ['event', 'node-log'],
    pattern: String.raw`^Warning Evicted: (?:The node was low on resource: (?<resource>[a-z.-]*[a-z])|The node had condition: \[(?<condition>\w+)\]|.)|"Eviction manager: pod is evicted successfully" pod="(?<namespace>[^"/]+)/(?<pod>[^"]+)"`,
    groupBy: ['resource'],
    explanation:
      'The kubelet terminated the pod to reclaim a resource the node was running out of (memory, disk, inodes or PIDs). The pod is marked Failed with reason Evicted; its controller creates a replacement, which may be evicted again or land elsewhere. Pods using more than they requested are evicted first.',
    remedy:
      "See what ran out: `kubectl describe node NODE` (Conditions, Events) and the pod's `status.message`. For memory, set requests close to real usage (`kubectl top pod`) so the scheduler does not overcommit the node; for ephemeral-storage, set `resources.limits.ephemeral-storage`, reduce log and emptyDir usage, and clean the node's image filesystem. Evicted pods stay listed: `kubectl delete pod -A --field-selector=status.phase=Failed` removes them.",
    docsUrl: 'https://kubernetes.io/docs/concepts/scheduling-eviction/node-pressure-eviction/',
    examples: {
      match: [
        'Warning Evicted: The node was low on resource: memory. Threshold quantity: 100Mi, available: 81920Ki. Container app was using 1572864Ki, request is 0, has larger consumption of memory.',
        'Warning Evicted: The node was low on resource: ephemeral-storage. Threshold quantity: 10Gi, available: 5Gi. Container app was using 8Gi, request is 0, has larger consumption of ephemeral-storage.',
        'Warning Evicted: The node had condition: [DiskPressure]. ',
        `Jun 17 16:18:47 homelab-1 k3s[3814777]: I0617 16:18:47.120011 3814777 eviction_manager.go:615] "Eviction manager: pod is evicted successfully" pod="default/log-heavy-5f6d7c8b9-abcde"`,
      ],
      noMatch: [
        `I0617 16:18:42.080925 3814777 eviction_manager.go:381] "Eviction manager: attempting to reclaim" resourceName="ephemeral-storage"`,
        'Normal Killing: Stopping container app',
        'Normal SuccessfulDelete: Deleted pod: web-5f6d7c8b9-abcde',
      ],
    },
  },

  /**
   * A node under memory, disk or PID pressure: node condition events
   * (`NodeHasDiskPressure` etc., recorded as Normal by the kubelet), the
   * EvictionThresholdMet event (`Attempting to reclaim %s`) and the eviction
   * manager's `attempting to reclaim` log (printf before 1.21, structured after).
   */
  {
    id: 'node-resource-pressure',
    title: 'Node under memory, disk or PID pressure',
    severity: 'warning',
    sources: ['event', 'node-log'],
    pattern: String.raw`^(?:Normal|Warning) NodeHas(?<condition>DiskPressure|MemoryPressure|PIDPressure|InsufficientMemory|InsufficientPID)\b|(?:^Warning EvictionThresholdMet: A|[Ee]viction manager: a)ttempting to reclaim(?:" resourceName=")? ?(?<resource>[\w.-]+)`,
    explanation:
      "A node crossed one of the kubelet's eviction thresholds (by default memory.available<100Mi, nodefs.available<10%, imagefs.available<15%). The kubelet first tries to free the resource (deleting unused images and dead containers), then evicts pods, and the node gets a taint that keeps new pods away while the pressure lasts.",
    remedy:
      "Check the node: `kubectl describe node NODE` (Conditions, Allocated resources) and `kubectl top node`. For disk pressure, look for large container logs, emptyDir volumes and unused images (`crictl images`, `crictl rmi --prune` on the node); for memory, pods without memory requests or limits. Size the node or the workloads, or adjust `evictionHard` in the kubelet configuration.",
    docsUrl: 'https://kubernetes.io/docs/concepts/scheduling-eviction/node-pressure-eviction/',
    examples: {
      match: [
        'Normal NodeHasDiskPressure: Node node-3 status is now: NodeHasDiskPressure',
        'Normal NodeHasInsufficientMemory: Node node-3 status is now: NodeHasInsufficientMemory',
        'Warning EvictionThresholdMet: Attempting to reclaim ephemeral-storage',
        `Mar 08 00:29:47 deb11mk8s microk8s.daemon-kubelite[24749]: I0308 00:29:47.496864   24749 eviction_manager.go:338] "Eviction manager: attempting to reclaim" resourceName="ephemeral-storage"`,
        '10月 16 09:50:55 ubuntu-k8s-3 kubelet[17144]: W1016 09:50:55.056703 17144 eviction_manager.go:331] eviction manager: attempting to reclaim nodefs',
      ],
      noMatch: [
        'Normal NodeHasNoDiskPressure: Node node-3 status is now: NodeHasNoDiskPressure',
        'Normal NodeHasSufficientMemory: Node node-3 status is now: NodeHasSufficientMemory',
        `I0308 00:29:47.496864   24749 eviction_manager.go:360] "Eviction manager: no resources are starved"`,
      ],
    },
  },

  /**
   * A node's Ready condition turned false: the NodeNotReady event (on the Node
   * from the kubelet or the node lifecycle controller, on its pods from the
   * latter) and the kubelet's `Node became not ready` (printf `%+v` of the
   * condition before 1.21, structured `condition={...}` after).
   */
  {
    id: 'node-not-ready',
    title: 'Node became NotReady',
    severity: 'error',
    sources: ['event', 'node-log'],
    pattern: String.raw`^(?:Normal|Warning) NodeNotReady: (?:Node (?<node>[^ ]+) status is now: NodeNotReady|Node is not ready)|Node became not ready(?=(?:.*?(?:Message:|"message":")(?<message>[^"}]*))?)`,
    explanation:
      "The node stopped being Ready: the kubelet reports a failing runtime, network or PLEG, or stopped posting status altogether (node unreachable). New pods are not scheduled there, and after the eviction timeout (5 minutes by default) the node's pods are deleted and recreated elsewhere; a StatefulSet pod is not replaced until the node is confirmed gone.",
    remedy:
      "Read the Ready condition's message: `kubectl get node NODE -o jsonpath='{.status.conditions[?(@.type==\"Ready\")]}'`. Then check the kubelet and runtime on the node (`journalctl -u kubelet -u containerd` via `kubectl debug node/NODE`), its resources (`kubectl describe node NODE`) and network reachability from the control plane.",
    docsUrl: 'https://kubernetes.io/docs/concepts/architecture/nodes/#condition',
    examples: {
      match: [
        'Normal NodeNotReady: Node node-2 status is now: NodeNotReady',
        'Warning NodeNotReady: Node is not ready',
        `Jan 12 10:56:20 green-master-3 kubelet[3112080]: I0112 10:56:20.222397 3112080 setters.go:552] "Node became not ready" node="green-master-3" condition={"type":"Ready","status":"False","lastHeartbeatTime":"2026-01-12T02:56:20Z","lastTransitionTime":"2026-01-12T02:56:20Z","reason":"KubeletNotReady","message":"node is shutting down"}`,
        'I0210 19:12:45.046912    1353 setters.go:555] Node became not ready: {Type:Ready Status:False LastHeartbeatTime:2021-02-10 19:12:45.046876 +0000 UTC m=+1234.5 LastTransitionTime:2021-02-10 19:12:45.046876 +0000 UTC m=+1234.5 Reason:KubeletNotReady Message:PLEG is not healthy: pleg was last seen active 3m0.5s ago; threshold is 3m0s}',
      ],
      noMatch: [
        'Normal NodeReady: Node node-2 status is now: NodeReady',
        `I0112 10:58:20.222397 3112080 kubelet_node_status.go:76] "Successfully registered node" node="green-master-3"`,
      ],
    },
  },

  /** pleg/generic.go Healthy(): `pleg was last seen active %v ago; threshold is %v`, behind `PLEG is not healthy: `. */
  {
    id: 'pleg-not-healthy',
    title: 'Kubelet PLEG is not healthy (container runtime too slow)',
    severity: 'error',
    sources: ['node-log', 'event'],
    pattern: String.raw`PLEG is not healthy: pleg (?:was last seen active (?<since>[0-9a-z.]+) ago; threshold is (?<threshold>[0-9a-z.]+)|has yet to be successful)`,
    explanation:
      "The kubelet's pod lifecycle event generator could not list the containers from the container runtime within its threshold (3 minutes): the runtime is hung or overloaded, or the node is starved of CPU or I/O. The kubelet then reports the node NotReady and stops syncing pods on it.",
    remedy:
      'On the node (`kubectl debug node/NODE -it --image=busybox`, then `chroot /host`), time the runtime: `time crictl ps -a`, check `systemctl status containerd` and `journalctl -u containerd`, look for processes stuck in D state (`ps -eo stat,pid,cmd | grep "^D"`, often a hung NFS mount) and for thousands of exited containers. Restarting the runtime and the kubelet usually clears it; drain and replace the node if it recurs.',
    examples: {
      match: [
        `E0926 10:00:00.000000    1234 kubelet.go:2373] "Skipping pod synchronization" err="PLEG is not healthy: pleg was last seen active 3m5.3s ago; threshold is 3m0s"`,
        'Feb 10 19:12:45.046912 node-1 kubelet[1353]: I0210 19:12:45.046912    1353 kubelet.go:1875] skipping pod synchronization - [container runtime is down PLEG is not healthy: pleg was last seen active 4m13.451s ago; threshold is 3m0s]',
        `I0926 10:00:00.000000    1234 kubelet.go:2373] "Skipping pod synchronization" err="PLEG is not healthy: pleg has yet to be successful"`,
      ],
      noMatch: [
        `I0926 10:00:00.000000    1234 kubelet.go:2352] "SyncLoop (PLEG): event for pod" pod="db/cockroachdb-0" event={ID:3f8a1c2e Type:ContainerStarted Data:5b1c2d3e}`,
        `I0926 10:00:00.000000    1234 generic.go:334] "Generic (PLEG): container finished" podID="3f8a1c2e" containerID="5b1c2d3e" exitCode=0`,
      ],
    },
  },

  /** `Container runtime network not ready: NetworkReady=false reason:%s message:%s` (kubelet runtime status, printf and structured). */
  {
    id: 'cni-network-not-ready',
    title: 'Pod network (CNI) not ready on the node',
    severity: 'error',
    sources: ['node-log', 'event'],
    pattern: String.raw`NetworkReady=false reason:(?<reason>\w+) message:(?<message>[^"]*)`,
    explanation:
      "The container runtime reports that the pod network is not set up: no CNI configuration in /etc/cni/net.d, or the CNI plugin's own pods (Calico, Cilium, Flannel, ...) are not running on the node. The node stays NotReady and no pod that needs the pod network can start on it.",
    remedy:
      'Check the CNI pods on that node: `kubectl get pods -A -o wide --field-selector spec.nodeName=NODE` and their logs; on the node, `ls /etc/cni/net.d /opt/cni/bin`. Make sure the CNI DaemonSet tolerates the node\'s taints and that its image can be pulled.',
    docsUrl: 'https://kubernetes.io/docs/concepts/extend-kubernetes/compute-storage-net/network-plugins/',
    examples: {
      match: [
        `Mar 08 00:29:47 deb11mk8s microk8s.daemon-kubelite[24749]: E0308 00:29:47.410101   24749 kubelet.go:2347] "Container runtime network not ready" networkReady="NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized"`,
        'E0210 19:12:45.046912    1353 kubelet.go:2163] Container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:docker: network plugin is not ready: cni config uninitialized',
        'Warning NetworkNotReady: network is not ready: container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized',
      ],
      noMatch: [
        `I0308 00:30:12.000001   24749 kubelet_node_status.go:493] "Fast updating node status as it just became ready"`,
        'Normal NodeReady: Node deb11mk8s status is now: NodeReady',
      ],
    },
  },

  /** `Failed to create pod sandbox: %v` (FailedCreatePodSandBox event) and the kubelet's `"Failed to create sandbox for pod" err=...` (1.21+): CNI ADD or runtime failures. */
  {
    id: 'pod-sandbox-create-failed',
    title: 'Pod sandbox cannot be created',
    severity: 'error',
    sources: ['event', 'node-log'],
    pattern: String.raw`Failed to create (?:pod sandbox|sandbox for pod)(?:: |" err=")(?<cause>.+?)(?:" pod="[^"]*"$|$)`,
    explanation:
      "The runtime could not create the pod's sandbox (its network namespace and pause container), most often because the CNI plugin failed to set up the pod network (`failed to setup network for sandbox`), sometimes because the pause image cannot be pulled or the runtime is unhealthy. The pod stays ContainerCreating and the kubelet retries.",
    remedy:
      'Read the cause: for `plugin type="..." failed (add)` check the CNI pods and logs on that node and IP address exhaustion (`kubectl get pods -n kube-system -o wide`); for pause image errors check that the node can pull the sandbox image (`crictl pull registry.k8s.io/pause:3.9`); otherwise check `journalctl -u containerd` on the node.',
    docsUrl: 'https://kubernetes.io/docs/concepts/extend-kubernetes/compute-storage-net/network-plugins/',
    examples: {
      match: [
        'Warning FailedCreatePodSandBox: Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "5b1c2d3e4f": plugin type="calico" failed (add): error getting ClusterInformation: connection is unauthorized: Unauthorized',
        String.raw`E0301 10:02:03.000001    4242 kuberuntime_sandbox.go:72] "Failed to create sandbox for pod" err="rpc error: code = Unknown desc = failed to setup network for sandbox \"5b1c2d3e4f\": plugin type=\"flannel\" failed (add): failed to load flannel 'subnet.env' file: open /run/flannel/subnet.env: no such file or directory" pod="db/cockroachdb-0"`,
      ],
      noMatch: [
        'Normal SandboxChanged: Pod sandbox changed, it will be killed and re-created.',
        'Normal Created: Created container cockroachdb',
      ],
    },
  },

  /**
   * The API server's admission webhook dispatcher: `failed calling webhook
   * "NAME": ...` (`failed to call webhook: Post "URL": ...` since 1.20),
   * surfaced to the client (kubectl, controllers, FailedCreate events) and
   * logged by kube-apiserver.
   */
  {
    id: 'admission-webhook-failed',
    title: 'Admission webhook call failed',
    severity: 'error',
    sources: ['event', 'container-log', 'node-log'],
    pattern: String.raw`failed calling (?:admission )?webhook \\?"(?<webhook>[^"\\]+)\\?": (?<cause>.+)`,
    groupBy: ['webhook'],
    explanation:
      "The API server could not get an answer from an admission webhook (its Service has no ready endpoints, the call timed out, or its TLS certificate is not trusted). With `failurePolicy: Fail` every create or update the webhook covers is rejected, so controllers cannot create pods (FailedCreate) and `kubectl apply` fails; a webhook that is itself deployed in the cluster can block its own recovery.",
    remedy:
      "Find the webhook: `kubectl get validatingwebhookconfigurations,mutatingwebhookconfigurations -o wide | grep NAME`, then its Service and pods (`kubectl get endpoints -n NS SERVICE`). Fix or restart the webhook's deployment; for x509 errors fix the `caBundle`. In an emergency, set `failurePolicy: Ignore` or narrow its `namespaceSelector`, or delete the configuration.",
    docsUrl: 'https://kubernetes.io/docs/reference/access-authn-authz/extensible-admission-controllers/',
    examples: {
      match: [
        'Warning FailedCreate: Error creating: Internal error occurred: failed calling webhook "validate.nginx.ingress.kubernetes.io": failed to call webhook: Post "https://ingress-nginx-controller-admission.ingress-nginx.svc:443/networking/v1/ingresses?timeout=10s": context deadline exceeded',
        'W0424 17:32:15.123456       1 dispatcher.go:142] Failed calling webhook, failing closed mutate.security-scanner.io: failed calling webhook "mutate.security-scanner.io": failed to call webhook: Post "https://scanner.security.svc:443/mutate?timeout=10s": dial tcp 10.96.19.182:443: connect: connection refused',
        String.raw`E0301 10:02:03.000001       1 statefulset.go:410] error syncing StatefulSet db/cockroachdb, requeuing: Internal error occurred: failed calling webhook \"webhook.cert-manager.io\": failed to call webhook: Post \"https://cert-manager-webhook.cert-manager.svc:443/mutate?timeout=10s\": x509: certificate signed by unknown authority`,
      ],
      noMatch: [
        'Error from server (Forbidden): admission webhook "validation.gatekeeper.sh" denied the request: [must-have-owner] you must provide labels: {"owner"}',
        'level=info msg="webhook server started" port=9443 errors=0',
      ],
    },
  },

  /**
   * client-go requests to the API server that got no answer in time: Go's
   * `context deadline exceeded`, `net/http: request canceled (Client.Timeout
   * ...)`, `TLS handshake timeout`, `i/o timeout`, after `VERB "URL": ` (the URL
   * unquoted before Go 1.14); and the API server's own `Timeout: request did not
   * complete within requested timeout`.
   */
  {
    id: 'apiserver-request-timeout',
    title: 'Requests to the API server time out',
    severity: 'warning',
    sources: ['node-log', 'container-log'],
    pattern: String.raw`(?:Get|Post|Put|Patch|Delete) \\?"?https://(?<server>[^/"\s\\]+)/(?:api|apis|healthz|readyz|livez)\b[^"\s\\]*\\?"?: (?:context deadline exceeded|net/http: request canceled|net/http: TLS handshake timeout|dial tcp [^ ]+: i/o timeout)|Timeout: request did not complete within (?:the )?requested timeout`,
    groupBy: ['server'],
    explanation:
      'A client of the API server (the kubelet updating node status or leases, a controller, an operator) gave up waiting for an answer. The API server is overloaded or waiting on a slow etcd, or the network path to it (load balancer, node firewall) drops packets. The kubelet missing its node lease long enough makes the node NotReady.',
    remedy:
      "Check the API server's health and latency (`kubectl get --raw /readyz?verbose`, `kubectl get --raw /metrics | grep apiserver_request_duration`) and its logs for etcd errors (see the etcd findings). From the affected node, test the path: `curl -k https://SERVER/healthz`. If only some nodes are affected, look at their network and at the load balancer in front of the API servers.",
    docsUrl: 'https://kubernetes.io/docs/tasks/debug/debug-cluster/',
    examples: {
      match: [
        String.raw`E0301 10:02:03.000001    4242 kubelet_node_status.go:540] "Error updating node status, will retry" err="error getting node \"node-1\": Get \"https://10.0.0.1:6443/api/v1/nodes/node-1?resourceVersion=0&timeout=10s\": context deadline exceeded"`,
        'E0210 19:12:45.046912    1353 reflector.go:138] k8s.io/client-go/informers/factory.go:134: Failed to watch *v1.Service: failed to list *v1.Service: Get "https://10.96.0.1:443/api/v1/services?limit=500&resourceVersion=0": dial tcp 10.96.0.1:443: i/o timeout',
        'Feb 10 19:12:45.046912 node-1 kubelet[1353]: E0210 19:12:45.046912    1353 controller.go:144] failed to ensure lease exists, will retry in 7s, error: Get https://10.0.0.1:6443/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/node-1?timeout=10s: net/http: request canceled (Client.Timeout exceeded while awaiting headers)',
        'Error from server (Timeout): Timeout: request did not complete within requested timeout - context deadline exceeded',
      ],
      noMatch: [
        'Warning Unhealthy: Readiness probe failed: Get "http://10.244.1.5:8080/healthz": context deadline exceeded (Client.Timeout exceeded while awaiting headers)',
        'W0424 17:32:15.123456       1 dispatcher.go:142] Failed calling webhook, failing closed mutate.security-scanner.io: failed calling webhook "mutate.security-scanner.io": failed to call webhook: Post "https://scanner.security.svc:443/mutate?timeout=10s": context deadline exceeded',
        'level=info msg="request finished" path=/api/v1/pods error_count=0 duration=12ms',
      ],
    },
  },

  /** client-go requests refused outright: nothing listens on the API server address. */
  {
    id: 'apiserver-connection-refused',
    title: 'API server refuses connections',
    severity: 'error',
    sources: ['node-log', 'container-log'],
    pattern: String.raw`(?:Get|Post|Put|Patch|Delete) \\?"?https://(?<server>[^/"\s\\]+)/(?:api|apis|healthz|readyz|livez)\b[^"\s\\]*\\?"?: dial tcp [^ ]+: connect: connection refused|The connection to the server [^ ]+ was refused`,
    groupBy: ['server'],
    explanation:
      'Nothing accepted the TCP connection at the API server address: kube-apiserver is down or restarting (often because etcd is unavailable, or a bad flag or certificate), or the address behind the load balancer points at a dead instance. While it lasts, nodes cannot report status and controllers do nothing.',
    remedy:
      'On a control-plane node, check the API server container: `crictl ps -a --name kube-apiserver` and `crictl logs CONTAINER` (it is a static pod, see /etc/kubernetes/manifests), then etcd the same way. Check the address clients use (`kubectl config view --minify`, the kubelet kubeconfig) and the load balancer health checks.',
    docsUrl: 'https://kubernetes.io/docs/tasks/debug/debug-cluster/',
    examples: {
      match: [
        String.raw`E0301 10:02:03.000001    4242 controller.go:146] "Failed to ensure lease exists, will retry" err="Get \"https://10.0.0.1:6443/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/node-1?timeout=10s\": dial tcp 10.0.0.1:6443: connect: connection refused" interval="7s"`,
        'E0210 19:12:45.046912    1353 reflector.go:138] k8s.io/client-go/informers/factory.go:134: Failed to watch *v1.Pod: failed to list *v1.Pod: Get "https://10.96.0.1:443/api/v1/pods?limit=500&resourceVersion=0": dial tcp 10.96.0.1:443: connect: connection refused',
        'The connection to the server 10.0.0.1:6443 was refused - did you specify the right host or port?',
      ],
      noMatch: [
        'Warning Unhealthy: Readiness probe failed: Get "http://10.244.1.5:8080/healthz": dial tcp 10.244.1.5:8080: connect: connection refused',
        'W0424 17:32:15.123456       1 dispatcher.go:142] Failed calling webhook, failing closed mutate.security-scanner.io: failed calling webhook "mutate.security-scanner.io": failed to call webhook: Post "https://scanner.security.svc:443/mutate?timeout=10s": dial tcp 10.96.19.182:443: connect: connection refused',
      ],
    },
  },

  /** etcd's ErrTimeout family (`etcdserver: request timed out`, `..., possibly due to previous leader failure`, `... connection lost`), in etcd and in its clients (kube-apiserver). */
  {
    id: 'etcd-request-timeout',
    title: 'etcd requests time out',
    severity: 'error',
    sources: ['container-log', 'node-log'],
    pattern: String.raw`etcdserver: request timed out(?<detail>, possibly due to [^"\\]+)?`,
    explanation:
      'etcd did not commit a request within its deadline: the cluster has no leader or lost a majority, its disk is too slow to persist the log, or it is overloaded. The API server returns errors or times out for every write while this lasts, which shows up as failing controllers and NotReady nodes.',
    remedy:
      "Check etcd members and their health: `kubectl -n kube-system exec etcd-NODE -- etcdctl --cacert /etc/kubernetes/pki/etcd/ca.crt --cert /etc/kubernetes/pki/etcd/server.crt --key /etc/kubernetes/pki/etcd/server.key endpoint status --cluster -w table`. Look for leader changes and slow fdatasync in etcd's logs (the etcd-* findings); etcd needs low-latency disks (WAL fsync p99 under 10ms) and a majority of members up.",
    docsUrl: ETCD_FAQ,
    examples: {
      match: [
        '{"level":"warn","ts":"2020-12-17T14:15:35.103+0100","caller":"clientv3/retry_interceptor.go:62","msg":"retrying of unary invoker failed","target":"endpoint://client-babaa7d8/localhost:2379","attempt":0,"error":"rpc error: code = Unavailable desc = etcdserver: request timed out"}',
        '2016-07-19 14:29:24.289951 E | etcdhttp: got unexpected response error (etcdserver: request timed out)',
        'E0301 10:02:03.000001       1 status.go:71] apiserver received an error that is not an metav1.Status: rpctypes.EtcdError{code:0xe, desc:"etcdserver: request timed out, possibly due to previous leader failure"}',
      ],
      noMatch: [
        '{"level":"info","ts":"2023-03-03T01:45:11.871Z","caller":"etcdserver/server.go:2068","msg":"published local member to cluster through raft","request-timeout":"7s"}',
        'level=info msg="etcd client configured" dial-timeout=5s request-timeout=10s',
      ],
    },
  },

  /** etcd's slow-request warnings: `apply request took too long` (3.4+ JSON), `apply entries took too long` and `read-only range request ... took too long` (3.2/3.3), `waiting for ReadIndex response took too long` (3.5). */
  {
    id: 'etcd-slow-requests',
    title: 'etcd requests are slow',
    severity: 'warning',
    sources: ['container-log', 'node-log'],
    pattern: String.raw`apply request took too long(?:","took":"(?<took>[^"]+)")?|apply entries took too long|read-only range request .* took too long|waiting for ReadIndex response took too long`,
    explanation:
      "etcd took longer than expected (100ms by default) to apply or serve a request. Isolated warnings are common on busy clusters; many of them mean the disk or CPU of the etcd members is too slow, or clients issue very large range requests (listing all pods or events without pagination). Slow etcd makes the whole API slow.",
    remedy:
      "Check etcd's disk latency (`etcd_disk_wal_fsync_duration_seconds` and `etcd_disk_backend_commit_duration_seconds` from `etcdctl`'s metrics endpoint; p99 should stay below 10ms and 25ms) and the etcd-slow-disk finding. Give etcd dedicated SSDs and CPU, defragment a large database (`etcdctl defrag`), and find clients listing large collections without `limit`.",
    docsUrl: ETCD_FAQ,
    examples: {
      match: [
        '{"level":"warn","ts":"2022-10-04T10:17:15.499-0700","caller":"etcdserver/util.go:144","msg":"apply request took too long","took":"108.017061ms","expected-duration":"100ms","prefix":"","request":"header:<ID:2725948314419380824 > lease_revoke:id:25d4838c9d0ac1fd","response":"size:30"}',
        'Jul 13 22:32:55 ip-10-72-6-19 etcd[1141]: apply entries took too long [4.0077998s for 5 entries]',
        String.raw`2020-12-17 14:13:11.000000 W | etcdserver: read-only range request "key:\"/registry/pods/default/\" range_end:\"/registry/pods/default0\" " with result "range_response_count:42 size:123456" took too long (1.402338729s) to execute`,
      ],
      noMatch: [
        '{"level":"info","ts":"2022-10-04T10:17:15.499-0700","caller":"mvcc/index.go:214","msg":"compact tree index","revision":123456}',
        '{"level":"info","ts":"2022-10-04T10:17:15.499-0700","caller":"mvcc/kvstore_compaction.go:57","msg":"finished scheduled compaction","compact-revision":123456,"took":"12.3ms"}',
      ],
    },
  },

  /** etcd's disk is too slow: `slow fdatasync` (3.4+), `sync duration of %v, expected less than %v` (3.3 WAL), heartbeats late because of it. */
  {
    id: 'etcd-slow-disk',
    title: 'etcd disk too slow (fdatasync, missed heartbeats)',
    severity: 'warning',
    sources: ['container-log', 'node-log'],
    pattern: String.raw`"msg":"slow fdatasync"(?:,"took":"(?<took>[^"]+)")?|wal: sync duration of |failed to send out heartbeat on time|send out heartbeat on time; took too long`,
    explanation:
      "etcd persists every write to its write-ahead log with fdatasync before acknowledging it; here a sync took longer than a second, or the leader sent heartbeats late because it was blocked on the disk. A slow disk delays every write, and late heartbeats make followers start elections, so the cluster loses its leader repeatedly.",
    remedy:
      "Measure the disk with fio as etcd's hardware guide describes (`fio --rw=write --ioengine=sync --fdatasync=1 --directory=/var/lib/etcd --size=22m --bs=2300 --name=etcd`); the 99th percentile fdatasync must be well under 10ms. Move /var/lib/etcd to a dedicated SSD, keep other I/O (logs, images) off it, and avoid burstable cloud volumes.",
    docsUrl: 'https://etcd.io/docs/v3.5/op-guide/hardware/',
    examples: {
      match: [
        '{"level":"warn","ts":"2023-03-03T01:45:11.871Z","caller":"wal/wal.go:805","msg":"slow fdatasync","took":"1.044022245s","expected-duration":"1s"}',
        '2018-06-12 03:04:01.000000 W | wal: sync duration of 1.538416522s, expected less than 1s',
        '{"level":"warn","ts":"2022-08-30T09:19:17.672Z","caller":"etcdserver/raft.go:369","msg":"leader failed to send out heartbeat on time; took too long, leader is overloaded likely from slow disk","to":"63a4b9c2d1e0f789","heartbeat-interval":"100ms","expected-duration":"200ms","exceeded-duration":"1.2s"}',
        'Jun 12 03:04:01 hlg-wuyi-coreos-01 etcd2[4187]: failed to send out heartbeat on time (deadline exceeded for 86.557859ms)',
      ],
      noMatch: [
        '{"level":"info","ts":"2023-03-03T01:45:11.871Z","caller":"etcdserver/server.go:2068","msg":"saved snapshot","snapshot-index":100001}',
        '{"level":"info","ts":"2023-03-03T01:45:11.871Z","caller":"fileutil/purge.go:77","msg":"purged","path":"/var/lib/etcd/member/snap/0000000000000002-0000000000015f91.snap"}',
      ],
    },
  },

  /**
   * raft lost its leader: `raft.node: %x lost leader %x at term %d` (3.3 plain,
   * 3.4+ inside a JSON "msg"), `changed leader from %x to %x at term %d`, and the
   * client-side errors `etcdserver: leader changed` and `etcdserver: no leader`.
   * `elected leader` alone is an election finishing, not a finding.
   */
  {
    id: 'etcd-leader-lost',
    title: 'etcd lost or changed its leader',
    severity: 'error',
    sources: ['container-log', 'node-log'],
    pattern: String.raw`raft\.node: (?<member>[0-9a-f]+) (?:lost leader (?<leader>[0-9a-f]+)|changed leader from [0-9a-f]+ to (?<newLeader>[0-9a-f]+)) at term (?<term>\d+)|etcdserver: leader changed|etcdserver: no leader`,
    explanation:
      'An etcd member stopped hearing from its leader and an election followed (or clients were told the leader changed). During an election no write is committed, so API requests fail or hang; repeated elections usually come from a slow disk (late heartbeats), network trouble between members, or an overloaded member.',
    remedy:
      "Count leader changes (`etcd_server_leader_changes_seen_total`) and check `etcdctl endpoint status --cluster -w table` for the current leader and raft term. Look at the etcd-slow-disk finding and at the network between control-plane nodes (latency, packet loss); if heartbeats are late but disks are fine, raise `--heartbeat-interval` and `--election-timeout` together.",
    docsUrl: ETCD_FAQ,
    examples: {
      match: [
        '2021-01-16 10:01:57.105499 I | raft: raft.node: 8e9e05c52164694d lost leader fa5e59193de34069 at term 63',
        '{"level":"info","ts":"2023-03-03T01:45:12.001Z","logger":"raft","caller":"etcdserver/zap_raft.go:77","msg":"raft.node: 8e9e05c52164694d lost leader 91bc3c398fb3c146 at term 5"}',
        '{"level":"info","msg":"raft.node: 8e9e05c52164694d changed leader from 8e9e05c52164694d to 91bc3c398fb3c146 at term 7"}',
        'E0301 10:02:03.000001       1 status.go:71] apiserver received an error that is not an metav1.Status: rpctypes.EtcdError{code:0xe, desc:"etcdserver: leader changed"}',
      ],
      noMatch: [
        '2025-10-09 02:11:39.572242 I | raft: raft.node: 2331065cd4fb02ff elected leader ef44cc541c5f37c7 at term 10',
        '2017-04-27 14:13:31.524123 I | raft: c89feb932daef420 became leader at term 4',
        '{"level":"info","ts":"2023-03-03T01:45:12.001Z","caller":"etcdserver/server.go:2050","msg":"published local member to cluster through raft","local-member-id":"8e9e05c52164694d"}',
      ],
    },
  },

  /** raft's CheckQuorum: `%x stepped down to follower since quorum is not active`: the leader itself sees no majority. */
  {
    id: 'etcd-quorum-lost',
    title: 'etcd lost its quorum',
    severity: 'critical',
    sources: ['container-log', 'node-log'],
    pattern: String.raw`(?<member>[0-9a-f]+) stepped down to follower since quorum is not active`,
    explanation:
      "The etcd leader could not reach a majority of members and stepped down. Without a quorum etcd accepts no writes and the API server cannot change anything in the cluster: no pod is created, rescheduled or deleted until a majority is back.",
    remedy:
      "Find which members are down or unreachable: `etcdctl member list -w table` and `etcdctl endpoint health --cluster` on each control-plane node, and the etcd static pod logs there (`crictl logs`). Restore the missing members or their network; if a majority is permanently lost, restore from a snapshot (`etcdctl snapshot restore`) as etcd's disaster recovery guide describes.",
    docsUrl: 'https://etcd.io/docs/v3.5/op-guide/recovery/',
    examples: {
      match: [
        '2021-01-16 10:01:56.705499 W | raft: 8e9e05c52164694d stepped down to follower since quorum is not active',
        '{"level":"warn","ts":"2023-03-03T01:45:12.001Z","logger":"raft","caller":"etcdserver/zap_raft.go:85","msg":"8e9e05c52164694d stepped down to follower since quorum is not active"}',
      ],
      noMatch: [
        '2021-01-16 10:01:56.705499 I | raft: 8e9e05c52164694d became follower at term 64',
        '2021-01-16 10:01:56.705499 I | raft: 8e9e05c52164694d [term: 63] received a MsgVote message with higher term from fa5e59193de34069 [term: 64]',
      ],
    },
  },

  /** rafthttp: `lost the TCP streaming connection with peer %s (%s)` (3.3) and `"msg":"lost TCP streaming connection with remote peer"` (3.4+). */
  {
    id: 'etcd-peer-connection-lost',
    title: 'etcd lost the connection to a peer',
    severity: 'warning',
    sources: ['container-log', 'node-log'],
    pattern: String.raw`lost (?:the )?TCP streaming connection with (?:peer (?<peer>[0-9a-f]+)|remote peer)`,
    groupBy: ['peer'],
    explanation:
      'This etcd member can no longer stream raft messages to or from another member: the peer stopped or restarted, or the network between them (port 2380) is broken. With one of three members cut off the cluster still works without spare; a second one loses the quorum.',
    remedy:
      "Check the peer named in the message: `etcdctl member list -w table` maps the id to a member, then its pod or static pod on that node. Test port 2380 between control-plane nodes and check the peer certificates (`--peer-cert-file`) have not expired (`openssl x509 -enddate -noout -in /etc/kubernetes/pki/etcd/peer.crt`).",
    docsUrl: ETCD_FAQ,
    examples: {
      match: [
        '2017-04-27 14:13:31.592650 W | rafthttp: lost the TCP streaming connection with peer 6d4f535bae3ab960 (stream MsgApp v2 reader)',
        'May 31 22:28:16 controller-0 etcd[28455]: lost the TCP streaming connection with peer b2a5547e041c2f9b (stream Message reader)',
        '{"level":"warn","ts":"2023-03-03T01:45:12.001Z","caller":"rafthttp/stream.go:421","msg":"lost TCP streaming connection with remote peer","stream-reader-type":"stream Message","local-member-id":"8e9e05c52164694d","remote-peer-id":"91bc3c398fb3c146","error":"EOF"}',
      ],
      noMatch: [
        '2017-04-27 14:13:31.171830 I | rafthttp: established a TCP streaming connection with peer 6d4f535bae3ab960 (stream Message reader)',
        '2017-04-27 14:13:31.171830 I | rafthttp: peer 6d4f535bae3ab960 became active',
      ],
    },
  },

  /**
   * Quorum-based databases that cannot reach a majority: CockroachDB's gossip
   * `first range unavailable; trying remaining resolvers|addresses` (and
   * `replica unavailable ... lost quorum` of newer releases), ZooKeeper's
   * `ZooKeeperServer not running`, and generic wordings. The reference case:
   * a CockroachDB StatefulSet whose pod 0 waits for peers that OrderedReady
   * never creates (kubernetes/test-infra, the CockroachDB e2e test).
   */
  {
    id: 'database-quorum-lost',
    title: 'Distributed database cannot reach a quorum',
    severity: 'error',
    sources: ['container-log'],
    pattern: String.raw`(?i)ranges? unavailable|have been waiting \S+ for proposing command|not enough live nodes|\bno quorum\b|\bquorum (?:lost|is lost|not available|unavailable)|\blost (?:the )?quorum\b|not sufficient quorum|ZooKeeperServer not running`,
    explanation:
      "A member of a consensus-based database (CockroachDB, ZooKeeper, Consul, ...) cannot reach a majority of its peers, so it serves no reads or writes and typically reports itself unhealthy. In Kubernetes the usual cause is not a crash but the rollout: with a StatefulSet's default OrderedReady policy, pod N+1 is only created once pod N is Ready, so a first pod whose readiness requires a quorum waits forever for peers that are never created.",
    remedy:
      "Check how many members exist and are Ready: `kubectl get statefulset NAME -o wide` and `kubectl get pods -l app=NAME -o wide`. If pods are missing because an earlier one is not Ready, set `podManagementPolicy: Parallel` on the StatefulSet (it cannot be changed in place: recreate it with `kubectl delete statefulset NAME --cascade=orphan` and apply), or make the readiness probe check only that the member can join (CockroachDB: `/health` instead of `/health?ready=1`). Otherwise bring the missing members back and check the peer network.",
    docsUrl: 'https://kubernetes.io/docs/concepts/workloads/controllers/statefulset/#parallel-pod-management',
    examples: {
      match: [
        'W170210 19:12:45.046912 1 gossip/gossip.go:1241  [n1] first range unavailable; trying remaining resolvers',
        'W230210 19:12:45.046912 215 gossip/gossip.go:1547 ⋮ [n1] 45  first range unavailable; trying remaining addresses',
        'E170210 19:11:13.232917 201 server/status.go:730  [n1] health check failed: not enough live nodes to make progress: 1 of 3 nodes live, range unavailable: r1 has no quorum',
        'W170210 19:11:14.137402 33 server/node.go:745  [n1] unable to compute metrics: 10 ranges unavailable (0 leaseholders, quorum needs 2 of 3 replicas)',
        'W170210 19:11:12.848156 152 storage/replica.go:1872  [n1,s1,r1/1:/{Min-System/}] have been waiting 1m0s for proposing command RequestLease [/Min,/Min)',
        'ERROR: replica unavailable: (n1,s1):1 unable to serve request to r5:/{Table/0-Max}: lost quorum (down: (n2,s2):2,(n3,s3):3)',
        '2017-02-10 19:12:45,046 [myid:1] - WARN  [NIOServerCxn.Factory:0.0.0.0/0.0.0.0:2181:NIOServerCnxn@383] - Exception causing close of session 0x0: ZooKeeperServer not running',
        'level=error msg="cannot commit transaction" err="no quorum: 1 of 3 replicas reachable"',
      ],
      noMatch: [
        'I170210 19:12:45.046912 1 server/node.go:461  [n1] initialized store [n1,s1]: disk (capacity=10 GiB, available=9.9 GiB, used=1.2 MiB, logicalBytes=33 KiB), ranges=1, leases=1, queries=0.00, writes=0.00',
        'level=info msg="raft status" no_quorum_errors=0 leader=2',
        '2017-02-10 19:12:45,046 [myid:1] - INFO  [QuorumPeer[myid=1]/0.0.0.0:2181:QuorumPeer@1055] - LOOKING',
        'level=info msg="quorum established" members=3',
      ],
    },
  },
];
