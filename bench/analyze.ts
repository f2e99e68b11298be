/**
 * bench/analyze: `logdump analyze` beside `zcat DUMP | grep -E -c -f PATTERNS`
 * (the catalog's patterns, exported by `logdump rules --export-grep`) on the
 * same generated dump of over 1 GiB of logs, in one run, with the ratio and
 * logdump's peak memory.
 *
 *   npm run bench:analyze -- [--nodes 200] [--pods-per-node 10] [--log-bytes 540000] [--dump FILE]
 *
 * grep only counts matching lines; logdump also parses objects and events,
 * groups hits, clusters unknown errors and renders the findings.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { promisify } from 'node:util';
import { GENERATED_SIZE_FLAGS, generatedSize, LOGDUMP, measure, mib, seconds, startSimulatorProcess } from './measure.js';

const run = promisify(execFile);

const { values: flags } = parseArgs({
  options: {
    ...GENERATED_SIZE_FLAGS,
    dump: { type: 'string' },
  },
});

async function makeDump(dir: string): Promise<string> {
  const kubeconfig = join(dir, 'kubeconfig');
  const simulator = await startSimulatorProcess(kubeconfig, generatedSize(flags, '0'));
  try {
    const dump = join(dir, 'dump.tar.gz');
    await run(LOGDUMP, ['collect', '--kubeconfig', kubeconfig, '-o', dump], { maxBuffer: 16 * 1024 * 1024 });
    return dump;
  } finally {
    simulator.kill('SIGTERM');
  }
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'logdump-bench-analyze-'));
  try {
    const dump = flags.dump ?? (await makeDump(dir));
    const patterns = join(dir, 'patterns.txt');
    await writeFile(patterns, (await run(LOGDUMP, ['rules', '--export-grep'])).stdout);
    const uncompressed = Number((await run('bash', ['-c', `zcat '${dump}' | wc -c`])).stdout.trim());
    process.stdout.write(`bench/analyze: ${dump}: ${mib((await stat(dump)).size)} gzipped, ${mib(uncompressed)} uncompressed\n\n`);
    const logdump = await measure(LOGDUMP, ['analyze', dump, '--format', 'json']);
    const grep = await measure('bash', ['-c', `zcat '${dump}' | grep -E -c -f '${patterns}'`]);
    process.stdout.write(`${'tool'.padEnd(34)} ${'wall'.padStart(9)} ${'exit'.padStart(5)} ${'peak RSS'.padStart(11)}\n`);
    process.stdout.write(`${'logdump analyze'.padEnd(34)} ${seconds(logdump.wallMs).padStart(9)} ${String(logdump.exitCode).padStart(5)} ${mib(logdump.peakRssBytes).padStart(11)}\n`);
    process.stdout.write(`${'zcat | grep -E -c -f PATTERNS'.padEnd(34)} ${seconds(grep.wallMs).padStart(9)} ${String(grep.exitCode).padStart(5)} ${'(bash)'.padStart(11)}\n`);
    if (logdump.exitCode !== 0) process.stdout.write(`  logdump: ${logdump.stderrTail}\n`);
    process.stdout.write(`\nratio: logdump analyze took ${(logdump.wallMs / grep.wallMs).toFixed(2)}x the time of zcat | grep; peak RSS ${mib(logdump.peakRssBytes)}\n`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
