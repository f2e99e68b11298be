/**
 * bench/upload: `logdump upload` of an expanded dump (the directory `logdump
 * collect --out-dir` writes) to the GCS test server beside `rclone copy` of the
 * same directory, in one run, with the ratio, throughput and peak memory; and
 * the same for the `.tar.gz` of that dump (expanded out of the archive, and as
 * one object).
 *
 *   npm run bench:upload -- [--nodes 200] [--pods-per-node 10] [--log-bytes 540000]
 *                           [--rclone rclone] [--skip-rclone]
 *
 * Two sizes: a tenth of the nodes, then all of them (the defaults make just
 * over 1 GiB), so the output shows whether peak memory stays flat across ten
 * times the data. The dumps are real: collected from the simulator's generated
 * scenario. The server runs in its own process, as the simulator does in
 * bench/collect, so its memory (it keeps every object) and its event loop are
 * not the uploader's.
 */
import type { ChildProcess } from 'node:child_process';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { readArchiveEntries } from '../archive/read-archive.js';
import { RESUMABLE_CHUNK_BYTES, SIMPLE_UPLOAD_MAX_BYTES } from '../gcs/gcs-sink.js';
import { DEFAULT_UPLOAD_CONCURRENCY } from '../gcs/upload-dump.js';
import { GENERATED_SIZE_FLAGS, generatedSize, LOGDUMP, measure, mib, seconds, startReadyProcess, startSimulatorProcess, treeSize, type Measurement } from './measure.js';

const run = promisify(execFile);

const { values: flags } = parseArgs({
  options: {
    ...GENERATED_SIZE_FLAGS,
    rclone: { type: 'string', default: 'rclone' },
    'skip-rclone': { type: 'boolean', default: false },
  },
});

type SizeFlags = Pick<typeof flags, 'nodes' | 'pods-per-node' | 'log-bytes' | 'node-log-bytes'>;

/** Relative to the compiled file, which sits at the same depth in dist/ and in any other outDir. */
const GCS_SERVER_SCRIPT = fileURLToPath(new URL('./gcs-server-process.js', import.meta.url));
const SETUP_RCLONE = fileURLToPath(new URL('../../test/gcs/setup-rclone.sh', import.meta.url));

const BUCKET = 'bench';

/** Object or file count and total bytes: what a dump holds, and what must arrive of it. */
interface Contents {
  files: number;
  bytes: number;
}

/** One dump, in both forms, from one collection each. */
interface Dump {
  dir: string;
  dirContents: Contents;
  archive: string;
  /** The size of the .tar.gz itself. */
  archiveBytes: number;
  /** Its file entries, uncompressed. */
  archiveContents: Contents;
}

/** One upload to time: what runs, the prefix it writes under, and what must be there afterwards. */
interface UploadRun {
  tool: string;
  file: string;
  args: string[];
  prefix: string;
  expected: Contents;
}

/** A logdump upload and, where rclone can do the same, rclone's. */
interface Contest {
  logdump: UploadRun;
  rclone: UploadRun | undefined;
}

/** A finished upload: its measurement and what the server holds. */
interface UploadOutcome {
  tool: string;
  run: Measurement;
  stored: Contents;
}

/** The small size first: a tenth of the nodes, the same pods, logs and files per node. */
function benchSizes(full: SizeFlags): SizeFlags[] {
  return [{ ...full, nodes: String(Math.max(1, Math.round(Number(full.nodes) / 10))) }, full];
}

/** The rclone to run and its version line, or undefined (said on stdout) when there is none. */
async function findRclone(command: string): Promise<{ command: string; version: string } | undefined> {
  const version = async (): Promise<string | undefined> =>
    run(command, ['version']).then(
      (result) => result.stdout.split('\n')[0]?.trim() ?? command,
      () => undefined,
    );
  const found = await version();
  if (found !== undefined) return { command, version: found };
  // As the tests do: Debian's rclone, from the tests' own install script.
  const setup = await run('bash', [SETUP_RCLONE]).then(
    () => '',
    (error: { stderr?: string }) => error.stderr?.trim().split('\n')[0] ?? '',
  );
  const installed = await version();
  if (installed !== undefined) return { command, version: installed };
  const why = setup === '' ? `test/gcs/setup-rclone.sh ran, but '${command}' still does not run` : `test/gcs/setup-rclone.sh could not install it: ${setup}`;
  process.stdout.write(`rclone: '${command}' not found (${why}); the rclone rows are skipped\n`);
  return undefined;
}

/** Collects one dump twice from one simulator: as a directory, and as a .tar.gz. */
async function makeDump(dir: string, size: SizeFlags): Promise<Dump> {
  await mkdir(dir, { recursive: true });
  const kubeconfig = join(dir, 'kubeconfig');
  const simulator = await startSimulatorProcess(kubeconfig, generatedSize(size, '0'));
  try {
    const tree = join(dir, 'dump');
    const archive = join(dir, 'dump.tar.gz');
    await run(LOGDUMP, ['collect', '--kubeconfig', kubeconfig, '--out-dir', tree], { maxBuffer: 16 * 1024 * 1024 });
    await run(LOGDUMP, ['collect', '--kubeconfig', kubeconfig, '-o', archive], { maxBuffer: 16 * 1024 * 1024 });
    return { dir: tree, dirContents: await treeSize(tree), archive, archiveBytes: (await stat(archive)).size, archiveContents: await archiveEntries(archive) };
  } finally {
    simulator.kill('SIGTERM');
  }
}

/**
 * The file entries of a .tar.gz, counted as the uploader reads them. The two
 * collections differ by a few hundred bytes (timestamps), so the directory's
 * count does not do for the archive.
 */
async function archiveEntries(file: string): Promise<Contents> {
  let files = 0;
  let bytes = 0;
  for await (const entry of readArchiveEntries(file)) {
    files += 1;
    bytes += entry.size;
  }
  return { files, bytes };
}

/** The GCS test server in its own process; its URL. */
async function startGcsServerProcess(): Promise<{ child: ChildProcess; endpoint: string }> {
  const ready = 'gcs test server at ';
  const { child, readyLine } = await startReadyProcess(process.execPath, [GCS_SERVER_SCRIPT], ready);
  return { child, endpoint: readyLine.slice(readyLine.indexOf(ready) + ready.length).trim() };
}

/** Waits for the process to be gone, so the next size starts without the last server's gigabytes. */
async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  await exited;
}

/** What the server holds under `prefix/`, through the JSON API's listing (as any client sees it). */
async function storedContents(endpoint: string, prefix: string): Promise<Contents> {
  let files = 0;
  let bytes = 0;
  let pageToken: string | undefined;
  do {
    const url = new URL(`${endpoint}/storage/v1/b/${BUCKET}/o`);
    url.searchParams.set('prefix', `${prefix}/`);
    if (pageToken !== undefined) url.searchParams.set('pageToken', pageToken);
    const response = await fetch(url);
    if (!response.ok) throw new Error(`listing gs://${BUCKET}/${prefix}/: HTTP ${response.status} ${await response.text()}`);
    const page = (await response.json()) as { items?: { size: string }[]; nextPageToken?: string };
    for (const item of page.items ?? []) {
      files += 1;
      bytes += Number(item.size);
    }
    pageToken = page.nextPageToken;
  } while (pageToken !== undefined);
  return { files, bytes };
}

/** rclone's on-the-fly remote for the server, as test/gcs/other-clients does it: anonymous, JSON API at our endpoint. */
function rcloneTarget(endpoint: string, prefix: string): string {
  return `:gcs,anonymous=true,endpoint='${endpoint}/storage/v1/':${BUCKET}/${prefix}`;
}

/** The uploads of one dump: the directory, then its archive, each by logdump and (where it has an equivalent) rclone. */
function contests(dump: Dump, endpoint: string, rclone: string | undefined): Contest[] {
  const logdump = (tool: string, local: string, prefix: string, expected: Contents, extra: string[] = []): UploadRun => ({
    tool, file: LOGDUMP, args: ['upload', local, `gs://${BUCKET}/${prefix}`, '--gcs-endpoint', endpoint, ...extra], prefix, expected,
  });
  const peer = (tool: string, local: string, prefix: string, expected: Contents): UploadRun | undefined =>
    rclone === undefined ? undefined : { tool, file: rclone, args: ['--config', '/dev/null', 'copy', local, rcloneTarget(endpoint, prefix)], prefix, expected };
  const oneObject: Contents = { files: 1, bytes: dump.archiveBytes };
  return [
    { logdump: logdump('logdump upload DIR', dump.dir, 'logdump-dir', dump.dirContents), rclone: peer('rclone copy DIR', dump.dir, 'rclone-dir', dump.dirContents) },
    { logdump: logdump('logdump upload X.tar.gz', dump.archive, 'logdump-tgz', dump.archiveContents), rclone: undefined },
    {
      logdump: logdump('logdump upload X.tar.gz --mode archive', dump.archive, 'logdump-archive', oneObject, ['--mode', 'archive']),
      rclone: peer('rclone copy X.tar.gz', dump.archive, 'rclone-archive', oneObject),
    },
  ];
}

/** Runs one upload and fails loudly unless it exited 0 and everything arrived. */
async function timedUpload(endpoint: string, upload: UploadRun): Promise<UploadOutcome> {
  const measured = await measure(upload.file, upload.args);
  if (measured.exitCode !== 0) throw new Error(`${upload.tool} exited with ${measured.exitCode}: ${measured.stderrTail}`);
  const stored = await storedContents(endpoint, upload.prefix);
  if (stored.files !== upload.expected.files || stored.bytes !== upload.expected.bytes) {
    throw new Error(
      `${upload.tool}: the server holds ${stored.files} objects, ${stored.bytes} bytes under ${upload.prefix}/, but ${upload.expected.files} files, ${upload.expected.bytes} bytes were uploaded`,
    );
  }
  return { tool: upload.tool, run: measured, stored };
}

const HEADER = `${'tool'.padEnd(40)} ${'wall'.padStart(9)} ${'objects'.padStart(8)} ${'bytes'.padStart(12)} ${'MiB/s'.padStart(7)} ${'peak RSS'.padStart(11)} ${'rclone/logdump'.padStart(15)}`;

function row(outcome: UploadOutcome, ratio: string): string {
  const throughput = outcome.stored.bytes / 1024 / 1024 / (outcome.run.wallMs / 1000);
  return `${outcome.tool.padEnd(40)} ${seconds(outcome.run.wallMs).padStart(9)} ${String(outcome.stored.files).padStart(8)} ${mib(outcome.stored.bytes).padStart(12)} ${throughput.toFixed(1).padStart(7)} ${mib(outcome.run.peakRssBytes).padStart(11)} ${ratio.padStart(15)}`;
}

/** Times every upload of one dump against a fresh server, printing each row as it finishes. */
async function benchDump(dump: Dump, rclone: string | undefined): Promise<UploadOutcome[]> {
  const server = await startGcsServerProcess();
  const outcomes: UploadOutcome[] = [];
  try {
    for (const contest of contests(dump, server.endpoint, rclone)) {
      const ours = await timedUpload(server.endpoint, contest.logdump);
      process.stdout.write(`${row(ours, '')}\n`);
      outcomes.push(ours);
      if (contest.rclone === undefined) continue;
      const theirs = await timedUpload(server.endpoint, contest.rclone);
      process.stdout.write(`${row(theirs, `${(theirs.run.wallMs / ours.run.wallMs).toFixed(2)}x`)}\n`);
      outcomes.push(theirs);
    }
  } finally {
    await stopProcess(server.child);
  }
  return outcomes;
}

/** Each tool's peak RSS at the small and the full size, against how much more data the full size has. */
function flatness(small: UploadOutcome[], full: UploadOutcome[], dataGrowth: number): string {
  const lines = full.map((big) => {
    const little = small.find((outcome) => outcome.tool === big.tool);
    const growth = (big.run.peakRssBytes ?? 0) / (little?.run.peakRssBytes ?? Number.NaN);
    return `  ${big.tool.padEnd(40)} ${mib(little?.run.peakRssBytes).padStart(11)} -> ${mib(big.run.peakRssBytes).padStart(11)}  (${growth.toFixed(2)}x)`;
  });
  return `peak RSS from the small dump to the full one (${dataGrowth.toFixed(1)}x the data):\n${lines.join('\n')}\n`;
}

function describeDump(size: SizeFlags, dump: Dump): string {
  const pods = Number(size.nodes) * Number(size['pods-per-node']);
  return `${size.nodes} nodes, ${pods} pods: DIR ${dump.dirContents.files} files, ${mib(dump.dirContents.bytes)}; X.tar.gz ${mib(dump.archiveBytes)} (${dump.archiveContents.files} entries)`;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'logdump-bench-upload-'));
  try {
    const rclone = flags['skip-rclone'] ? undefined : await findRclone(flags.rclone);
    process.stdout.write(
      'bench/upload: real dumps collected from the simulator (generated scenario) with `logdump collect --out-dir DIR` and `-o X.tar.gz`,\n' +
        `uploaded to the GCS test server (gcs/test-server.ts) in its own process, a fresh one per size, on 127.0.0.1; ${availableParallelism()} cores shared by the uploader and the server.\n` +
        `Each tool with its defaults: logdump ${DEFAULT_UPLOAD_CONCURRENCY} uploads at once, resumable in ${mib(RESUMABLE_CHUNK_BYTES)} chunks over ${mib(SIMPLE_UPLOAD_MAX_BYTES)}; rclone copy 4 transfers, 16 MiB chunks` +
        `${rclone ? ` (${rclone.version})` : ''}. Every upload is checked: objects and bytes listed on the server must match the dump.\n`,
    );
    const results: { size: SizeFlags; dump: Dump; outcomes: UploadOutcome[] }[] = [];
    for (const [index, size] of benchSizes(flags).entries()) {
      const sizeDir = join(dir, `size-${index}`);
      const dump = await makeDump(sizeDir, size);
      process.stdout.write(`\n${describeDump(size, dump)}\n${HEADER}\n`);
      results.push({ size, dump, outcomes: await benchDump(dump, rclone?.command) });
      // The next size's dump needs the disk more than this one.
      await rm(sizeDir, { recursive: true, force: true });
    }
    const [small, full] = results;
    if (small && full) process.stdout.write(`\n${flatness(small.outcomes, full.outcomes, full.dump.dirContents.bytes / small.dump.dirContents.bytes)}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
