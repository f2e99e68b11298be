import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_SUMMARY_CHARS, renderMarkdown } from '../../analyzers/render/markdown.js';
import type { Analysis, Finding } from '../../analyzers/types.js';

function finding(index: number, overrides: Partial<Finding> = {}): Finding {
  return {
    id: `rule-${index}`,
    severity: index % 3 === 0 ? 'error' : 'warning',
    title: `Finding number ${index} with a long title ${'x'.repeat(100)}`,
    explanation: 'An explanation. '.repeat(20),
    remedy: 'Do this and that. '.repeat(10),
    key: {},
    objects: Array.from({ length: 20 }, (_, object) => ({ kind: 'Pod', namespace: 'ns', name: `pod-${object}` })),
    count: 1000 - index,
    samples: Array.from({ length: 5 }, (_, sample) => ({ path: `nodes/n${sample}/kubelet.log`, line: sample + 1, text: `E0210 ${'y'.repeat(500)} \`tick\` *star*`, repeats: 3 })),
    ...overrides,
  };
}

function analysis(findings: Finding[], gaps: Analysis['gaps'] = []): Analysis {
  return {
    schemaVersion: 1,
    tool: { name: 'kube-logdump', version: 'test' },
    dump: 'dump.tar.gz',
    findings,
    allowed: [],
    gaps,
    unreadable: [],
    stats: { files: 10, lines: 100, bytes: 1000 },
  };
}

describe('the markdown summary', () => {
  it('stays under the comment limit however many findings, says how many it left out, and keeps the gaps', () => {
    const gaps = Array.from({ length: 500 }, (_, index) => ({ path: `namespaces/ns${index}/pods.json`, error: 'HTTP 403: forbidden '.repeat(5) }));
    const text = renderMarkdown(analysis(Array.from({ length: 2000 }, (_, index) => finding(index)), gaps));
    assert.ok(text.length <= MAX_SUMMARY_CHARS, `${text.length} characters`);
    assert.match(text, /_\d+ more findings in analysis\/findings\.json/);
    assert.match(text, /### What the dump is missing/);
    assert.match(text, /and 480 more in manifest\.json/);
  });

  it('starts with the root cause as the verdict and keeps samples inside their code spans', () => {
    const text = renderMarkdown(analysis([finding(1), finding(2, { rootCause: true, severity: 'error', title: 'The set is stuck' })]));
    assert.equal(text.split('\n')[0], '## logdump: The set is stuck');
    for (const line of text.split('\n').filter((entry) => entry.startsWith('- [`nodes/'))) {
      assert.equal((line.match(/`/g) ?? []).length, 4, `backticks in a sample cannot open or close code: ${line.slice(0, 80)}`);
    }
  });

  it('says plainly when nothing is wrong', () => {
    assert.equal(renderMarkdown(analysis([])).split('\n')[0], '## logdump: no known problem found');
  });

  it('links evidence to the dump files, under a browse URL when one is given', () => {
    const text = renderMarkdown(analysis([finding(1)]), { baseUrl: 'https://gcsweb.k8s.io/gcs/bucket/logs/job/1/artifacts/' });
    assert.match(text, /\[`nodes\/n0\/kubelet\.log:1`\]\(https:\/\/gcsweb\.k8s\.io\/gcs\/bucket\/logs\/job\/1\/artifacts\/nodes\/n0\/kubelet\.log\)/);
  });
});
