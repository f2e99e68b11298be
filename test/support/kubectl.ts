/**
 * Finds the kubectl binaries the tests run against the simulator: the image's
 * recent kubectl on the PATH (a dispatcher that picks a bundled client after
 * GET /version) and Debian's 1.20, fetched into .cache/ by
 * setup-kubectl-1.20.sh when missing and apt is available.
 */
import { execFile } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The repository root (this file runs from dist/test/support/). */
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const SETUP_SCRIPT = join(REPO_ROOT, 'test/support/setup-kubectl-1.20.sh');
const CACHED_1_20 = join(REPO_ROOT, '.cache/kubectl-1.20/usr/bin/kubectl');
const SETUP_TIMEOUT_MS = 120_000;

/** One kubectl to test with, or why it is not available. */
export type KubectlCandidate = { label: string; path: string } | { label: string; missing: string };

async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function findOnPath(name: string): Promise<string | undefined> {
  for (const dir of (process.env['PATH'] ?? '').split(':')) {
    if (dir && (await isExecutable(join(dir, name)))) return join(dir, name);
  }
  return undefined;
}

async function kubectl120(): Promise<KubectlCandidate> {
  const label = 'kubectl 1.20 (Debian)';
  if (await isExecutable(CACHED_1_20)) return { label, path: CACHED_1_20 };
  if (!(await findOnPath('apt-get')) || !(await findOnPath('dpkg-deb'))) {
    return { label, missing: 'not cached in .cache/kubectl-1.20 and apt-get/dpkg-deb are not available' };
  }
  try {
    await run('sh', [SETUP_SCRIPT], { timeout: SETUP_TIMEOUT_MS });
  } catch (error) {
    return { label, missing: `setup-kubectl-1.20.sh failed: ${(error as Error).message.split('\n')[0] ?? ''}` };
  }
  return (await isExecutable(CACHED_1_20)) ? { label, path: CACHED_1_20 } : { label, missing: 'setup-kubectl-1.20.sh did not produce a binary' };
}

/** The recent kubectl on the PATH and Debian's 1.20, each found or with the reason it is missing. */
export async function findKubectls(): Promise<KubectlCandidate[]> {
  const recent = await findOnPath('kubectl');
  return [
    recent ? { label: 'kubectl on PATH', path: recent } : { label: 'kubectl on PATH', missing: 'no kubectl on the PATH' },
    await kubectl120(),
  ];
}
