/**
 * Signals and `logdump run`: a test killed by a signal makes logdump die of
 * the same signal (after the dump), and a signal sent to logdump reaches the
 * test's whole process group, grandchildren included.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { LOGDUMP_BIN, type CliResult } from '../support/cli.js';
import { completeDump, described, execed, hookEnv, logdump, pidFrom, processGone, scratch, waitGone } from './support.js';

describe('logdump run and signals', () => {
  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    it(`a test killed by ${signal}: logdump dumps, then dies of ${signal} itself`, async (t) => {
      const dir = await scratch(t);
      const out = join(dir, 'D.tar.gz');
      const result = await logdump(['run', '--sim', 'healthy', '--out', out, '--', 'sh', '-c', `kill -${signal.slice(3)} $$`], { cwd: dir });
      assert.equal(result.signal, signal, described(result));
      assert.equal(result.code, null);
      assert.match(result.stderr, new RegExp(`^logdump: the test was killed by ${signal}; collecting`, 'm'));
      await completeDump(out);
    });
  }

  /**
   * Starts `logdump run` with a test that backgrounds `sleep 60` and writes its
   * pid, then sends SIGTERM to logdump (only) once the sleep runs.
   */
  async function signalWhileTestRuns(t: TestContext, script: (pidFile: string) => string): Promise<{ result: CliResult; sleepPid: number; out: string }> {
    const dir = await scratch(t);
    const out = join(dir, 'D.tar.gz');
    const pidFile = join(dir, 'PIDFILE');
    let sleepPid: number | undefined;
    let sent: Promise<void> | undefined;
    t.after(() => {
      // Whatever the outcome, the sleep must not outlive the test.
      if (sleepPid !== undefined && !processGone(sleepPid)) process.kill(sleepPid, 'SIGKILL');
    });
    const result = await logdump(['run', '--sim', 'healthy', '--out', out, '--', 'sh', '-c', script(pidFile)], {
      cwd: dir,
      timeoutMs: 90_000,
      onSpawn: (pid) => {
        sent = pidFrom(pidFile).then(async (found) => {
          sleepPid = found;
          // `$!` is known right after the fork; until the child has exec'd sleep it still runs
          // the shell's trap handler, and a SIGTERM it catches there is lost with the exec.
          await execed(found, 'sleep');
          process.kill(pid, 'SIGTERM');
        });
      },
    });
    await sent;
    assert.ok(sleepPid !== undefined, 'the test started its sleep');
    return { result, sleepPid, out };
  }

  it('SIGTERM to logdump goes to the whole process group of the test', async (t) => {
    const { result, sleepPid, out } = await signalWhileTestRuns(t, (pidFile) => `sleep 60 & echo $! > '${pidFile}'; wait`);
    assert.ok(await waitGone(sleepPid), `the grandchild sleep (pid ${sleepPid}) was killed too`);
    assert.ok(result.signal === 'SIGTERM' || result.code === 143, `logdump ends as the test did (killed by SIGTERM): ${described(result)}`);
    assert.ok(result.durationMs < 45_000, `logdump did not wait for the sleep: ${Math.round(result.durationMs)} ms`);
    assert.match(result.stderr, /^logdump: the test was killed by SIGTERM; collecting/m);
    await completeDump(out);
  });

  it('a test that traps SIGTERM exits with its own code, which logdump repeats', async (t) => {
    const { result, sleepPid, out } = await signalWhileTestRuns(t, (pidFile) => `trap "exit 7" TERM; sleep 60 & echo $! > '${pidFile}'; wait`);
    assert.equal(result.code, 7, described(result));
    assert.equal(result.signal, null);
    assert.ok(await waitGone(sleepPid), `the grandchild sleep (pid ${sleepPid}) got the SIGTERM too`);
    assert.ok(result.durationMs < 45_000, `logdump did not wait for the sleep: ${Math.round(result.durationMs)} ms`);
    await completeDump(out);
  });

  it("SIGTERM while the dump is being made: the dump is still closed, and the exit code stays the test's", async (t) => {
    const dir = await scratch(t);
    const out = join(dir, 'D.tar.gz');
    const child = spawn(process.execPath, [LOGDUMP_BIN, 'run', '--sim', 'healthy', '--out', out, '--', 'sh', '-c', 'exit 3'], {
      cwd: dir,
      env: { ...process.env, ...hookEnv() },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
    });
    let stderr = '';
    let sent = false;
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      // As a CI system's cancel would: once the test has ended and the dump begun.
      if (!sent && stderr.includes("collecting the cluster's evidence")) {
        sent = true;
        child.kill('SIGTERM');
      }
    });
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('close', (...ended) => resolve(ended)));
    assert.ok(sent, stderr);
    assert.equal(code, 3, `code=${code} signal=${signal}\n${stderr}`);
    assert.match(stderr, /^logdump: SIGTERM: stopping collection/m);
    await completeDump(out);
  });
});
