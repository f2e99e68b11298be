import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deriveNeedles } from '../../analyzers/rules/compile.js';

describe('needles derived from a pattern', () => {
  const cases: [string, string[]][] = [
    [String.raw`Readiness probe failed: HTTP probe failed with statuscode: (?<status>\d+)`, ['Readiness probe failed: HTTP probe failed with statuscode: ']],
    [String.raw`Back-off restarting failed container|CrashLoopBackOff`, ['Back-off restarting failed container', 'CrashLoopBackOff']],
    [String.raw`OOMKilled?`, ['OOMKille']],
    [String.raw`level=error\b.*msg="(?<m>.*)"`, ['level=error']],
    // An alternative without a long enough literal means no prefilter at all.
    [String.raw`a|b`, []],
    [String.raw`x+yz`, []],
    // A bracket inside a class inside a group must not end the group early.
    [String.raw`(?:a[)]bcdef|z)qrstu`, ['qrstu']],
    [String.raw`(?:[(]x)wxyz[)]abcd`, ['wxyz']],
  ];
  for (const [pattern, needles] of cases) {
    it(`${pattern} → ${JSON.stringify(needles)}`, () => {
      assert.deepEqual(deriveNeedles(pattern), needles);
    });
  }
});
