import { once } from 'node:events';
import { resolve } from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import { EXIT, UsageError } from '../../core/errors.js';
import { listScenarios, startSimulator } from '../../sim/index.js';
import { runCommand } from '../exit.js';

interface SimArgs {
  scenario?: string | undefined;
  param: string[];
  port: number;
  kubeconfig: string;
  'latency-ms'?: number | undefined;
  list: boolean;
  tls: boolean;
}

/** `--param nodes=200` → { nodes: 200 }; a malformed one names the flag. */
function parseParams(entries: string[]): Record<string, number> {
  const params: Record<string, number> = {};
  for (const entry of entries) {
    const match = /^([A-Za-z][\w-]*)=(.+)$/.exec(entry);
    const value = match ? Number(match[2]) : NaN;
    if (!match || !Number.isFinite(value)) throw new UsageError(`--param must be key=number, got "${entry}"`);
    params[match[1] as string] = value;
  }
  return params;
}

function validatePort(port: number): number {
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be an integer from 0 to 65535, got ${port}`);
  return port;
}

/** `logdump sim`: serves a simulated cluster in the foreground until SIGINT/SIGTERM. */
export const simCommand: CommandModule<object, SimArgs> = {
  command: 'sim',
  describe: 'Serve a simulated Kubernetes cluster (API server and kubelets) for tests and demos',
  builder: (yargs: Argv) =>
    yargs
      .option('scenario', { alias: 's', type: 'string', describe: 'The scenario to serve (see --list)' })
      .option('param', { type: 'string', array: true, default: [] as string[], describe: 'A scenario parameter, key=number (repeatable)' })
      .option('port', { type: 'number', default: 0, describe: 'Port on 127.0.0.1 (default: any free port)' })
      .option('kubeconfig', { type: 'string', default: './logdump-sim.kubeconfig', describe: 'Where to write a kubeconfig for the simulator' })
      .option('latency-ms', { type: 'number', describe: 'Delay every response by this many milliseconds' })
      .option('tls', { type: 'boolean', default: true, describe: 'Serve https with a self-signed certificate (kubectl sends no token over http); --no-tls for plain http' })
      .option('list', { type: 'boolean', default: false, describe: 'List the scenarios and exit' }) as unknown as Argv<SimArgs>,
  handler: (args) =>
    runCommand(async () => {
      if (args.list) {
        for (const scenario of listScenarios()) process.stdout.write(`${scenario.name}\t${scenario.description}\n`);
        return EXIT.ok;
      }
      if (!args.scenario) throw new UsageError('--scenario is required (logdump sim --list shows them)');
      const latency = args['latency-ms'];
      if (latency !== undefined && (!Number.isFinite(latency) || latency < 0)) throw new UsageError(`--latency-ms must be a non-negative number, got ${latency}`);
      const simulator = await startSimulator({
        scenario: args.scenario,
        params: parseParams(args.param),
        port: validatePort(args.port),
        tls: args.tls,
        ...(latency !== undefined ? { faults: { latencyMs: latency } } : {}),
      });
      const kubeconfig = resolve(args.kubeconfig);
      try {
        await simulator.writeKubeconfig(kubeconfig);
        process.stdout.write(`simulating ${simulator.scenario.name} at ${simulator.url}; kubeconfig: ${kubeconfig}\n`);
        await Promise.race([once(process, 'SIGINT'), once(process, 'SIGTERM')]);
      } finally {
        await simulator.close();
      }
      return EXIT.ok;
    }),
};
