/**
 * HTTP to one API server with one identity. Credentials come from the
 * kubeconfig through @kubernetes/client-node (see credentials.ts); requests are
 * plain node:http(s), because a dump must keep exactly what the server sent:
 * the library's typed models drop fields they do not know and rewrite
 * timestamps, and its `Log` helper resolves when a stream *starts* and hides
 * error bodies other than 500.
 */
import http from 'node:http';
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import { UsageError } from '../core/errors.js';
import { loadCredentials, type Credentials, type KubeTarget } from './credentials.js';

export type { KubeTarget } from './credentials.js';

/** Query parameters; undefined values are left out. */
export type Query = Record<string, string | number | boolean | undefined>;

/**
 * A request that did not succeed. `status` is the HTTP status, or undefined when
 * no answer came at all (refused, reset, timed out). `reason` and the message come
 * from the server's `Status` body when it sent one.
 */
export class KubeRequestError extends Error {
  override readonly name = 'KubeRequestError';
  constructor(
    message: string,
    readonly path: string,
    readonly status: number | undefined,
    readonly reason: string | undefined,
    /** The `metadata.continue` of a 410 Status: the rest of an expired list, inconsistently. */
    readonly continueToken: string | undefined,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }

  /** Worth asking again: the server or the network had a passing problem. */
  get transient(): boolean {
    return this.status === undefined || this.status === 429 || this.status >= 500;
  }
}

/** What `KubeClient.stream` returns: the open response, to be consumed by the caller. */
export interface KubeStream {
  /** 200, or 204 when the server says there is nothing (a pod not yet scheduled has no log). */
  status: number;
  body: IncomingMessage;
  contentType: string;
  /** The server's clock, from its Date header. */
  serverDate: Date | undefined;
}

/** What the first request learns about the cluster. */
export interface ClusterProbe {
  /** The `/version` document as served. */
  version: { gitVersion?: string; [key: string]: unknown };
  /** The API server's clock; ours when it sent no usable Date header. */
  serverNow: Date;
}

/** Per-request settings. */
export interface RequestOptions {
  signal: AbortSignal;
  /** Abort when no byte arrives for this long (also before the headers). */
  idleTimeoutMs: number;
}

/** Kubernetes' JSON `Status` object, as far as we read it. */
interface StatusBody {
  kind?: string;
  message?: string;
  reason?: string;
  metadata?: { continue?: string };
}

const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** A connection to one API server with one identity. */
export class KubeClient {
  private agent: http.Agent;
  private refreshing: Promise<void> | undefined;

  private constructor(
    private readonly target: KubeTarget,
    private credentials: Credentials,
    /** The API server's URL, without credentials. */
    readonly server: string,
    private readonly maxSockets: number,
  ) {
    this.agent = createAgent(credentials, maxSockets);
  }

  /** Resolves the kubeconfig like kubectl does; its problems are UsageErrors. */
  static async connect(target: KubeTarget, maxSockets: number): Promise<KubeClient> {
    const credentials = await loadCredentials(target);
    let url: URL;
    try {
      url = new URL(credentials.server);
    } catch (error) {
      throw new UsageError(`the kubeconfig's server "${credentials.server}" is not a URL`, { cause: error });
    }
    url.username = '';
    url.password = '';
    return new KubeClient(target, credentials, url.toString().replace(/\/$/, ''), maxSockets);
  }

  /** GETs a JSON document; non-2xx answers become KubeRequestError. */
  async getJson<T>(path: string, query: Query, options: RequestOptions): Promise<T> {
    return (await this.getJsonWithDate<T>(path, query, options)).document;
  }

  /** GETs `/version`: the cheapest proof that the server answers and accepts us. */
  async probe(options: RequestOptions): Promise<ClusterProbe> {
    const { document, serverDate } = await this.getJsonWithDate<ClusterProbe['version']>('/version', {}, options);
    return { version: document, serverNow: serverDate ?? new Date() };
  }

  /**
   * Opens a streamed GET. Resolves once a 2xx response's headers arrived; the
   * caller reads the body. The idle timeout keeps guarding the body, so a log
   * stream that stalls is ended with an error rather than holding a slot forever.
   */
  async stream(path: string, query: Query, options: RequestOptions): Promise<KubeStream> {
    const generation = this.credentials;
    try {
      return await this.streamOnce(path, query, options);
    } catch (error) {
      // Exec plugins hand out short-lived tokens (15 minutes on EKS): on a 401, ask for fresh ones once.
      if (!(error instanceof KubeRequestError) || error.status !== 401) throw error;
      await this.refreshCredentials(generation);
      return this.streamOnce(path, query, options);
    }
  }

  private async streamOnce(path: string, query: Query, options: RequestOptions): Promise<KubeStream> {
    const url = new URL(this.server + path);
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const requestOptions = this.requestOptions();
    options.signal.throwIfAborted();
    const transport = url.protocol === 'https:' ? https : http;
    return new Promise<KubeStream>((resolve, reject) => {
      const request = transport.get(url, { ...requestOptions, signal: options.signal }, (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 200 && status < 300) {
          const date = response.headers.date ? new Date(response.headers.date) : undefined;
          resolve({
            status,
            body: response,
            contentType: String(response.headers['content-type'] ?? ''),
            serverDate: date && !Number.isNaN(date.getTime()) ? date : undefined,
          });
          return;
        }
        readText(response, MAX_ERROR_BODY_BYTES).then(
          (text) => reject(errorFromStatus(path, status, text)),
          (error: unknown) => reject(new KubeRequestError(`GET ${path}: HTTP ${status}`, path, status, undefined, undefined, { cause: error })),
        );
      });
      request.setTimeout(options.idleTimeoutMs, () => {
        request.destroy(new Error(`no answer for ${options.idleTimeoutMs} ms`));
      });
      request.on('error', (error) => {
        const message = options.signal.aborted ? 'aborted' : error.message;
        reject(new KubeRequestError(`GET ${path}: ${message}`, path, undefined, undefined, undefined, { cause: error }));
      });
    });
  }

  private async getJsonWithDate<T>(path: string, query: Query, options: RequestOptions): Promise<{ document: T; serverDate: Date | undefined }> {
    const { body, serverDate } = await this.stream(path, query, options);
    const text = await readText(body, Number.POSITIVE_INFINITY);
    try {
      return { document: JSON.parse(text) as T, serverDate };
    } catch (error) {
      throw new KubeRequestError(`GET ${path}: the answer is not JSON`, path, 200, undefined, undefined, { cause: error });
    }
  }

  /** Releases pooled connections. */
  close(): void {
    this.agent.destroy();
  }

  /** Reloads credentials once for all requests that saw a 401 with the same ones. */
  private async refreshCredentials(seen: Credentials): Promise<void> {
    if (this.credentials !== seen) return;
    this.refreshing ??= loadCredentials(this.target).then(
      (fresh) => {
        this.credentials = fresh;
        this.agent.destroy();
        this.agent = createAgent(fresh, this.maxSockets);
        this.refreshing = undefined;
      },
      (error: unknown) => {
        this.refreshing = undefined;
        throw error;
      },
    );
    await this.refreshing;
  }

  private requestOptions(): https.RequestOptions {
    return {
      headers: { ...this.credentials.headers, Accept: 'application/json, */*', 'User-Agent': 'kube-logdump' },
      auth: this.credentials.basicAuth,
      agent: this.agent,
    };
  }
}

/** One pooled keep-alive agent per identity, carrying its TLS material. */
function createAgent(credentials: Credentials, maxSockets: number): http.Agent {
  const pool = { keepAlive: true, maxSockets, maxFreeSockets: maxSockets };
  if (!credentials.server.startsWith('https:')) return new http.Agent(pool);
  // Whatever crossed the process boundary as Uint8Array, TLS wants as Buffers.
  const buffer = (value: Uint8Array | undefined): Buffer | undefined => (value ? Buffer.from(value) : undefined);
  const { tls } = credentials;
  return new https.Agent({
    ...pool,
    ca: buffer(tls.ca),
    cert: buffer(tls.cert),
    key: buffer(tls.key),
    servername: tls.servername,
    ...(tls.rejectUnauthorized === undefined ? {} : { rejectUnauthorized: tls.rejectUnauthorized }),
  });
}

/** Builds the error for a non-2xx answer from its (possibly Status) body. */
function errorFromStatus(path: string, status: number, text: string): KubeRequestError {
  let parsed: StatusBody | undefined;
  try {
    parsed = JSON.parse(text) as StatusBody;
  } catch {
    // Not every answer is a Status (a proxy, a kubelet's plain-text error): the text itself is the message.
    parsed = undefined;
  }
  const detail = parsed?.kind === 'Status' ? parsed.message : text.trim().split('\n')[0];
  const message = `GET ${path}: HTTP ${status}${detail ? `: ${detail}` : ''}`;
  return new KubeRequestError(message, path, status, parsed?.reason, parsed?.metadata?.continue);
}

/** Reads a (small) body as UTF-8, keeping at most `maxBytes`. */
async function readText(body: IncomingMessage, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = chunk as Buffer;
    if (size < maxBytes) chunks.push(buffer.subarray(0, maxBytes - size));
    size += buffer.length;
  }
  return Buffer.concat(chunks).toString('utf8');
}
