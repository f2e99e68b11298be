import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/** The built bin, run as a user runs it, so its shebang's V8 flags apply. */
export const LOGDUMP = fileURLToPath(new URL('../cmd/logdump.js', import.meta.url));

/** One measured run of a command. */
export interface Measurement {
  command: string;
  exitCode: number | null;
  wallMs: number;
  /** Peak resident memory (VmHWM) in bytes, as last seen before the process ended. */
  peakRssBytes: number | undefined;
  stderrTail: string;
}

/** How often the child's high-water mark is read; VmHWM is monotonic, so sampling loses little. */
const RSS_SAMPLE_INTERVAL_MS = 25;

/**
 * Runs a command to its end, timing it and sampling the kernel's peak-RSS mark
 * for its process. Output goes to /dev/null except the last lines of stderr.
 */
export function measure(file: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Measurement> {
  const started = performance.now();
  const child = spawn(file, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let peak: number | undefined;
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const sample = async (): Promise<void> => {
    if (child.pid === undefined) return;
    const hwm = await readPeakRss(child.pid);
    if (hwm !== undefined) peak = Math.max(peak ?? 0, hwm);
  };
  const timer = setInterval(() => void sample(), RSS_SAMPLE_INTERVAL_MS);
  return new Promise((resolve, reject) => {
    child.on('error', (error) => {
      clearInterval(timer);
      reject(error);
    });
    child.on('exit', (code) => {
      clearInterval(timer);
      resolve({
        command: [file, ...args].join(' '),
        exitCode: code,
        wallMs: performance.now() - started,
        peakRssBytes: peak,
        stderrTail: stderr.trim().split('\n').slice(-3).join('\n'),
      });
    });
  });
}

/** VmHWM of a live process, or undefined once it is gone. */
async function readPeakRss(pid: number): Promise<number | undefined> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(status);
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    // The process ended between two samples; its last sample stands.
    return undefined;
  }
}

/** Sizes and counts of the files under a directory tree. */
export async function treeSize(dir: string): Promise<{ files: number; bytes: number }> {
  const { readdir, stat } = await import('node:fs/promises');
  let files = 0;
  let bytes = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    files += 1;
    bytes += (await stat(`${entry.parentPath}/${entry.name}`)).size;
  }
  return { files, bytes };
}

export function mib(bytes: number | undefined): string {
  return bytes === undefined ? 'n/a' : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** The benchmarks' flags for the generated scenario's size (node:util parseArgs options); the defaults are the issues'. */
export const GENERATED_SIZE_FLAGS = {
  nodes: { type: 'string', default: '200' },
  'pods-per-node': { type: 'string', default: '10' },
  'log-bytes': { type: 'string', default: '540000' },
  'node-log-bytes': { type: 'string', default: '200000' },
} as const;

/** Those flags as simulator parameters. */
export function generatedSize(flags: { nodes: string; 'pods-per-node': string; 'log-bytes': string; 'node-log-bytes': string }, latencyMs: string): GeneratedSize {
  return { nodes: flags.nodes, podsPerNode: flags['pods-per-node'], logBytes: flags['log-bytes'], nodeLogBytes: flags['node-log-bytes'], latencyMs };
}

/** The generated scenario's size, as `logdump sim --param` values. */
export interface GeneratedSize {
  nodes: string;
  podsPerNode: string;
  logBytes: string;
  nodeLogBytes: string;
  latencyMs: string;
}

/** A long-running helper process of a benchmark, and the stdout line that said it was ready. */
export interface ReadyProcess {
  child: ChildProcess;
  readyLine: string;
}

/** Starts a helper process (a simulator, a test server); resolves once a whole line of its stdout includes `readyText`. */
export async function startReadyProcess(file: string, args: string[], readyText: string): Promise<ReadyProcess> {
  const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const readyLine = await new Promise<string>((resolve, reject) => {
    let pending = '';
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${file} ${args[0] ?? ''} exited with ${code} before it was ready`)));
    child.stdout?.setEncoding('utf8').on('data', (text: string) => {
      // Only whole lines: a ready line can arrive in two chunks, and its end may be the part that matters.
      const lines = (pending + text).split('\n');
      pending = lines.pop() ?? '';
      const ready = lines.find((line) => line.includes(readyText));
      if (ready !== undefined) resolve(ready);
    });
  });
  return { child, readyLine };
}

/** Starts `logdump sim` with the generated scenario in its own process; resolves once it is ready. */
export async function startSimulatorProcess(kubeconfig: string, size: GeneratedSize): Promise<ChildProcess> {
  const args = [
    'sim', '--scenario', 'generated', '--kubeconfig', kubeconfig, '--latency-ms', size.latencyMs,
    '--param', `nodes=${size.nodes}`, '--param', `podsPerNode=${size.podsPerNode}`, '--param', 'containersPerPod=1',
    '--param', `logBytes=${size.logBytes}`, '--param', `nodeLogBytes=${size.nodeLogBytes}`, '--param', 'restarts=0',
  ];
  return (await startReadyProcess(LOGDUMP, args, 'simulating')).child;
}
