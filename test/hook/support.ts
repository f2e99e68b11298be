/**
 * Helpers for the CI hook tests (`logdump run` and `logdump ci`): an
 * environment without any CI system's variables, scratch directories, and
 * looks at what a run left behind, as a user would look.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { readArchiveToMap } from '../../archive/read-archive.js';
import { runLogdump, tempDir, type CliResult } from '../support/cli.js';

/**
 * The variables a CI system (Prow, GitHub Actions) or a user's shell may set
 * that change what `run`/`ci` do; each test starts without them (these tests
 * may themselves run in Prow or GitHub Actions) and adds what it means to.
 * `undefined` drops the variable from the child's environment.
 */
const CI_VARIABLES = [
  'JOB_NAME', 'JOB_TYPE', 'JOB_SPEC', 'BUILD_ID', 'PROW_JOB_ID', 'REPO_OWNER', 'REPO_NAME', 'PULL_NUMBER', 'PULL_BASE_REF', 'PULL_PULL_SHA',
  'ARTIFACTS', 'GITHUB_ACTIONS', 'GITHUB_STEP_SUMMARY', 'LOGDUMP_TEST_EXIT_CODE', 'LOGDUMP_DEBUG', 'STORAGE_EMULATOR_HOST', 'KUBECONFIG',
] as const;

export function hookEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of CI_VARIABLES) env[name] = undefined;
  return { ...env, ...extra };
}

/** `logdump ARGS` in `cwd` with a CI-free environment plus `env`. */
export function logdump(args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; onSpawn?: (pid: number) => void }): Promise<CliResult> {
  return runLogdump(args, { ...options, env: hookEnv(options.env) });
}

/** A temporary directory removed when the test ends. */
export async function scratch(t: TestContext, prefix = 'logdump-hook-'): Promise<string> {
  const { dir, cleanup } = await tempDir(prefix);
  t.after(cleanup);
  return dir;
}

/** Every file under `dir`, as paths relative to it with `/`, sorted. */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1).split('\\').join('/'))
    .sort();
}

/** The .tar.gz files directly in `dir`. */
export async function archivesIn(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => name.endsWith('.tar.gz')).sort();
}

/** A dump archive's files (path → text), checked to be a complete dump: a manifest and the analysis. */
export async function completeDump(file: string): Promise<Map<string, string>> {
  const files = await readArchiveToMap(file, { maxBytesPerEntry: 64 * 1024 * 1024 });
  assert.ok(files.has('manifest.json'), `${file} has a manifest.json; it has ${[...files.keys()].slice(0, 10).join(', ')}`);
  assert.ok(files.has('analysis/summary.md'), `${file} has analysis/summary.md`);
  return files;
}

/** The lines of `text` that look like a stack trace. */
export function stackLines(text: string): string[] {
  return text.split('\n').filter((line) => /^\s+at /.test(line));
}

/** The lines logdump itself wrote on stderr (`logdump: ...`). */
export function logdumpLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.startsWith('logdump: '));
}

/** Text for assertion messages: how a run ended and what it said. */
export function described(result: CliResult): string {
  return `code=${result.code} signal=${result.signal} after ${Math.round(result.durationMs)} ms\n--- stderr ---\n${result.stderr.slice(0, 4000)}\n--- stdout ---\n${result.stdout.slice(0, 2000)}`;
}

/**
 * Whether a process is gone: no such pid, or a zombie waiting for a parent
 * (in a container whose init does not reap, a dead orphan stays one).
 */
export function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error: unknown) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return true;
    throw error;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return /^\d+ \(.*\) [ZX]/.test(stat);
  } catch {
    return true;
  }
}

/** Waits (a little, for the orphan to be reaped) until `pid` is gone; false if it still runs. */
export async function waitGone(pid: number, patienceMs = 5_000): Promise<boolean> {
  const until = Date.now() + patienceMs;
  while (!processGone(pid)) {
    if (Date.now() > until) return false;
    await sleep(50);
  }
  return true;
}

/** Polls until process `pid` runs the program `name` (its /proc comm), i.e. has exec'd it. */
export async function execed(pid: number, name: string, patienceMs = 10_000): Promise<void> {
  const until = Date.now() + patienceMs;
  while (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== name) {
    if (Date.now() > until) throw new Error(`process ${pid} never became ${name}`);
    await sleep(10);
  }
}

/** Polls until `file` holds a pid (a line of digits), then returns it. */
export async function pidFrom(file: string, patienceMs = 30_000): Promise<number> {
  const until = Date.now() + patienceMs;
  for (;;) {
    if (existsSync(file)) {
      const text = await readFile(file, 'utf8');
      if (/^\d+\n$/.test(text)) return Number(text.trim());
    }
    if (Date.now() > until) throw new Error(`${file} never got a pid`);
    await sleep(20);
  }
}
