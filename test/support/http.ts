/**
 * A tiny HTTP client for tests against the simulator: real requests, with the
 * bearer token taken from the simulator's own kubeconfig.
 */
import { request } from 'node:http';
import type { RunningSimulator } from '../../sim/index.js';

/** A finished response. */
export interface TestResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** The bearer token in a simulator's kubeconfig. */
export function tokenOf(sim: RunningSimulator): string {
  const match = /token: (\S+)/.exec(sim.kubeconfig());
  if (!match?.[1]) throw new Error('the kubeconfig has no token');
  return match[1];
}

/** GET `path` (with its query) from the simulator; `token: null` sends none. */
export function get(sim: RunningSimulator, path: string, options: { token?: string | null; timeoutMs?: number } = {}): Promise<TestResponse> {
  const token = options.token === undefined ? tokenOf(sim) : options.token;
  return new Promise((resolve, reject) => {
    const req = request(`${sim.url}${path}`, { headers: token ? { Authorization: `Bearer ${token}` } : {}, timeout: options.timeoutMs ?? 10_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`timed out: GET ${path}`)));
    req.on('error', reject);
    req.end();
  });
}

/** GET and parse JSON. */
export async function getJson<T = Record<string, unknown>>(sim: RunningSimulator, path: string): Promise<{ status: number; json: T }> {
  const response = await get(sim, path);
  return { status: response.status, json: JSON.parse(response.body) as T };
}
