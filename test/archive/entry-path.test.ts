import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkEntryPath, EntryPathRegistry } from '../../archive/entry-path.js';
import { containerLogPath, MANIFEST_PATH, nodeLogPath } from '../../archive/layout.js';
import { EntryPathError } from '../../archive/sink.js';

const VALID = [
  MANIFEST_PATH,
  containerLogPath('kube-system', 'etcd-0', 'etcd', true),
  nodeLogPath('node-1', 'kubelet'),
  containerLogPath('..', '.', 'a/b', false),
  'a/..b/c..',
];

const INVALID: ReadonlyArray<readonly [string, RegExp]> = [
  ['', /empty/],
  ['/etc/passwd', /absolute/],
  ['../x', /"\.\."/],
  ['a/../../x', /"\.\."/],
  ['a/..', /"\.\."/],
  ['a//b', /empty or "\."/],
  ['./a', /empty or "\."/],
  ['a/', /empty or "\."/],
  ['a\\..\\b', /backslash/],
  ['a\0b', /NUL/],
];

test('paths built by layout.ts are accepted', () => {
  for (const path of VALID) assert.doesNotThrow(() => checkEntryPath(path), path);
});

test('paths that are empty, absolute, climbing, aliased or non-POSIX are refused with the reason', () => {
  for (const [path, reason] of INVALID) {
    assert.throws(
      () => checkEntryPath(path),
      (error: unknown) => error instanceof EntryPathError && reason.test(error.message) && error.entryPath === path,
      JSON.stringify(path),
    );
  }
});

test('the registry refuses a second claim until the first is released', () => {
  const registry = new EntryPathRegistry();
  registry.claim('a.log');
  assert.throws(() => registry.claim('a.log'), /already written/);
  registry.release('a.log');
  assert.doesNotThrow(() => registry.claim('a.log'));
});
