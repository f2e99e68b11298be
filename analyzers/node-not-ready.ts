import type { Analyzer } from './analyzer.js';
import type { Evidence } from './evidence.js';
import { sortedSamples } from './signatures.js';
import type { Finding, Sample } from './types.js';

export const NODE_NOT_READY_ID = 'node-not-ready-at-collection';

interface NodeShape {
  metadata?: { name?: string };
  status?: { conditions?: { type?: string; status?: string; reason?: string; message?: string; lastTransitionTime?: string }[] };
}

/**
 * Nodes whose Ready condition is not True when the dump was taken, with what
 * their kubelet said: the catalog's hits in that node's logs, and its
 * unclassified error lines.
 */
export const nodeNotReadyAnalyzer: Analyzer = {
  id: NODE_NOT_READY_ID,
  analyze(evidence) {
    return evidence.nodes.flatMap((object) => {
      const finding = analyzeNode(object as NodeShape, evidence);
      return finding ? [finding] : [];
    });
  },
};

function analyzeNode(node: NodeShape, evidence: Evidence): Finding | undefined {
  const name = node.metadata?.name ?? '';
  const ready = node.status?.conditions?.find((entry) => entry.type === 'Ready');
  if (!ready || ready.status === 'True') return undefined;
  const pressures = (node.status?.conditions ?? []).filter((entry) => entry.type !== 'Ready' && entry.status === 'True').map((entry) => entry.type ?? '');
  return {
    id: NODE_NOT_READY_ID,
    severity: 'error',
    title: `Node ${name} is not Ready (${ready.reason ?? ready.status ?? 'Unknown'})`,
    explanation: `${ready.message ?? 'The node controller marked the node not Ready.'}${pressures.length > 0 ? ` Conditions also set: ${pressures.join(', ')}.` : ''} Pods on a node that is not Ready stop being updated and are evicted after a grace period.`,
    remedy: `Read the node's kubelet log in the dump (nodes/${name}/kubelet.log) around ${ready.lastTransitionTime ?? 'the transition'}: container runtime down, PLEG not healthy, disk or memory pressure and lost API server connectivity are the usual causes.`,
    docsUrl: 'https://kubernetes.io/docs/concepts/architecture/nodes/#condition',
    key: { node: name },
    objects: [{ kind: 'Node', name }],
    count: 1,
    ...(ready.lastTransitionTime ? { firstSeen: ready.lastTransitionTime } : {}),
    samples: kubeletEvidence(name, evidence),
    related: [...new Set(evidence.signatures.filter((group) => group.objects.has(`Node//${name}`)).map((group) => group.rule.id))].sort(),
  };
}

/** What the node's own logs said: catalog hits first, then unknown errors. */
function kubeletEvidence(node: string, evidence: Evidence): Sample[] {
  const fromRules = evidence.signatures.filter((group) => group.objects.has(`Node//${node}`)).flatMap((group) => [...group.samples.values()]);
  const fromShapes = evidence.errorShapes.filter((shape) => shape.objects.has(`Node//${node}`)).flatMap((shape) => shape.samples);
  return [...sortedSamples(fromRules), ...sortedSamples(fromShapes)].slice(0, 5);
}
