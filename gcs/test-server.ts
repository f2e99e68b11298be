/**
 * An in-memory Google Cloud Storage JSON API server for tests, on 127.0.0.1.
 *
 * No GCS emulator can be installed on the build machines (fake-gcs-server needs
 * a newer Go, the Firebase emulator Java 21), so this reproduces the subset of
 * https://cloud.google.com/storage/docs/json_api/v1 that @google-cloud/storage 7,
 * rclone and `gcloud storage` use: simple, multipart and resumable uploads,
 * object metadata, media downloads with `x-goog-hash`, and listing with
 * prefixes and pages, plus faults (503s, cut connections, latency, silence).
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { ObjectHasher } from './object-hash.js';
import { MultipartError, multipartBoundary, parseMultipart } from './test-server-multipart.js';
import { bucketResource, MAX_LIST_RESULTS, ObjectStore, objectResource } from './test-server-store.js';
import type { StoredObject } from './test-server-store.js';
import { drainedOrClosed } from '../core/streams.js';
import { createRandom } from '../sim/prng.js';

/** Faults to inject; each setFaults() call replaces all of them. */
export interface GcsFaults {
  /**
   * The share (0 to 1) of requests answered `503 Service Unavailable` before
   * their body is read. Resumable status queries (a Content-Range of `bytes` and stars)
   * are spared unless `errorsOnStatusQueries`: @google-cloud/storage 7.19's
   * getAndSetOffset schedules a retry of a failed status query but also goes on
   * uploading at once with no offset, and fails with "The offset is lower than
   * the number of bytes written".
   */
  readonly errorRate?: number;
  readonly errorsOnStatusQueries?: boolean;
  /** Destroys the socket of an upload PUT/POST once this many of its body bytes arrived (those bytes are kept, as GCS persists them). */
  readonly cutUploadAfterBytes?: number;
  /** How many uploads to cut that way before the fault clears itself; 1 by default. */
  readonly cuts?: number;
  /** Waits this long before handling each request. */
  readonly latencyMs?: number;
  /** Accepts connections and requests but never answers. */
  readonly neverAnswer?: boolean;
}

/** What the faults actually did, so a test can prove a retry happened. */
export interface GcsFaultCounts {
  readonly requests: number;
  readonly injected503: number;
  readonly cuts: number;
  readonly unanswered: number;
}

/** An object as a test sees it. */
export interface GcsTestObject {
  readonly bucket: string;
  readonly name: string;
  readonly contentType: string;
  readonly bytes: Buffer;
}

/** Options of {@link startGcsTestServer}. */
export interface GcsTestServerOptions {
  /** Buckets that exist from the start (any other springs into being on first use). */
  readonly buckets?: readonly string[];
  /** Seed of the 503 dice, so a failing run can be repeated. */
  readonly seed?: number;
  readonly faults?: GcsFaults;
}

/** A running test server. */
export interface GcsTestServer {
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  /** What `new Storage({ apiEndpoint })` takes (the same as `url`). */
  readonly endpoint: string;
  objects(bucket?: string): GcsTestObject[];
  /** Stores an object directly, as if someone else had uploaded it. */
  putObject(bucket: string, name: string, bytes: Buffer, contentType?: string): void;
  setFaults(faults: GcsFaults): void;
  faultCounts(): GcsFaultCounts;
  close(): Promise<void>;
}

/** One resumable upload session, between its POST and its final PUT. */
interface UploadSession {
  readonly bucket: string;
  readonly name: string;
  readonly contentType: string | undefined;
  readonly metadata: unknown;
  readonly chunks: Buffer[];
  readonly hasher: ObjectHasher;
  size: number;
  done: StoredObject | undefined;
}

/** A request's path split into what the routes need. */
interface Route {
  readonly method: string;
  readonly kind: 'upload' | 'json' | 'download';
  readonly bucket: string | undefined;
  /** The object name, URL-decoded; undefined on bucket and collection paths. */
  readonly object: string | undefined;
  readonly query: URLSearchParams;
}

/** The GCS error resource: `{"error":{"code":404,"message":"...","errors":[...]}}`. */
class GcsHttpError extends Error {
  override readonly name = 'GcsHttpError';
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

const notFoundObject = (bucket: string, name: string): GcsHttpError => new GcsHttpError(404, 'notFound', `No such object: ${bucket}/${name}`);

/** Starts the server on an ephemeral port of 127.0.0.1. */
export async function startGcsTestServer(options: GcsTestServerOptions = {}): Promise<GcsTestServer> {
  const state = new ServerState(options);
  const server = createServer((req, res) => void state.handle(req, res));
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the GCS test server has no TCP address');
  state.baseUrl = `http://127.0.0.1:${address.port}`;
  return {
    url: state.baseUrl,
    endpoint: state.baseUrl,
    objects: (bucket) => state.store.all().filter((object) => bucket === undefined || object.bucket === bucket).map(testObject),
    putObject: (bucket, name, bytes, contentType) => state.putDirect(bucket, name, bytes, contentType),
    setFaults: (faults) => state.setFaults(faults),
    faultCounts: () => ({ ...state.counts }),
    close: () => closeServer(server, sockets),
  };
}

function testObject(object: StoredObject): GcsTestObject {
  return { bucket: object.bucket, name: object.name, contentType: object.contentType, bytes: Buffer.concat(object.chunks, object.size) };
}

/** Closing also ends the sockets a "never answers" fault left hanging. */
async function closeServer(server: Server, sockets: Set<Socket>): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  for (const socket of sockets) socket.destroy();
  await closed;
}

class ServerState {
  readonly store = new ObjectStore();
  baseUrl = '';
  counts = { requests: 0, injected503: 0, cuts: 0, unanswered: 0 };
  private faults: GcsFaults;
  private cutsLeft: number;
  private random: () => number;
  private readonly sessions = new Map<string, UploadSession>();

  constructor(options: GcsTestServerOptions) {
    for (const bucket of options.buckets ?? []) this.store.bucket(bucket);
    this.faults = options.faults ?? {};
    this.cutsLeft = this.faults.cuts ?? 1;
    // Seeded, so the 503 pattern of a run can be replayed.
    this.random = createRandom(options.seed ?? 1);
  }

  setFaults(faults: GcsFaults): void {
    this.faults = faults;
    this.cutsLeft = faults.cuts ?? 1;
  }

  putDirect(bucket: string, name: string, bytes: Buffer, contentType: string | undefined): void {
    const hasher = new ObjectHasher();
    hasher.update(bytes);
    this.store.put({ bucket, name, contentType, chunks: [bytes], hasher, metadata: undefined });
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.counts.requests++;
    try {
      if (this.faults.neverAnswer) {
        this.counts.unanswered++;
        return;
      }
      if (this.faults.latencyMs) await sleep(this.faults.latencyMs);
      if (this.random() < (this.faults.errorRate ?? 0) && (this.faults.errorsOnStatusQueries || !isStatusQuery(req))) {
        this.counts.injected503++;
        // The body is left unread, so the connection cannot be reused.
        res.setHeader('Connection', 'close');
        throw new GcsHttpError(503, 'backendError', 'We encountered an internal error. Please try again.');
      }
      await this.route(parseRoute(req), req, res);
    } catch (error: unknown) {
      sendError(res, error);
    }
  }

  private async route(route: Route, req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (route.kind === 'upload') return this.routeUpload(route, req, res);
    if (route.kind === 'download' && route.bucket !== undefined && route.object !== undefined) {
      return this.sendMedia(req, res, this.findObject(route.bucket, route.object));
    }
    return this.routeJson(route, req, res);
  }

  private async routeJson(route: Route, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { method, bucket, object, query } = route;
    if (bucket === undefined) {
      // POST /storage/v1/b?project=P creates a bucket (gcloud and rclone can make one).
      if (method === 'POST') return this.createBucket(req, res);
      throw new GcsHttpError(404, 'notFound', 'Not Found');
    }
    if (object === undefined && query.has('list')) {
      if (method === 'GET') return sendJson(res, 200, this.listObjects(bucket, query));
    } else if (object === undefined) {
      if (method === 'GET') return sendJson(res, 200, bucketResource(bucket, this.baseUrl));
    } else if (method === 'GET' && query.get('alt') === 'media') {
      return this.sendMedia(req, res, this.findObject(bucket, object));
    } else if (method === 'GET') {
      return sendJson(res, 200, objectResource(this.findObject(bucket, object), this.baseUrl));
    } else if (method === 'DELETE') {
      if (!this.store.delete(bucket, object)) throw notFoundObject(bucket, object);
      res.writeHead(204).end();
      return;
    }
    throw new GcsHttpError(405, 'methodNotAllowed', `${method} is not supported here`);
  }

  private findObject(bucket: string, name: string): StoredObject {
    const object = this.store.get(bucket, name);
    if (!object) throw notFoundObject(bucket, name);
    return object;
  }

  private async createBucket(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = parseJsonObject(await readBody(req));
    const name = typeof body['name'] === 'string' ? body['name'] : '';
    if (name === '') throw new GcsHttpError(400, 'required', 'Required');
    this.store.bucket(name);
    sendJson(res, 200, bucketResource(name, this.baseUrl));
  }

  private listObjects(bucket: string, query: URLSearchParams): Record<string, unknown> {
    const requested = Number(query.get('maxResults') ?? MAX_LIST_RESULTS);
    const page = this.store.list(bucket, {
      prefix: query.get('prefix') ?? '',
      delimiter: query.get('delimiter') ?? '',
      maxResults: Number.isInteger(requested) && requested > 0 ? Math.min(requested, MAX_LIST_RESULTS) : MAX_LIST_RESULTS,
      pageToken: query.get('pageToken') ?? undefined,
    });
    return {
      kind: 'storage#objects',
      ...(page.items.length > 0 ? { items: page.items.map((object) => objectResource(object, this.baseUrl)) } : {}),
      ...(page.prefixes.length > 0 ? { prefixes: page.prefixes } : {}),
      ...(page.nextPageToken !== undefined ? { nextPageToken: page.nextPageToken } : {}),
    };
  }

  /**
   * `alt=media` answers the bytes with `x-goog-hash: crc32c=...,md5=...`, which
   * @google-cloud/storage checks after a download, and honours a single
   * `Range: bytes=A-B` (gcloud's sliced downloads) with a 206.
   */
  private sendMedia(req: IncomingMessage, res: ServerResponse, object: StoredObject): void {
    const range = parseByteRange(req.headers.range, object.size);
    const headers: Record<string, string> = {
      'Content-Type': object.contentType,
      'x-goog-hash': `crc32c=${object.crc32c},md5=${object.md5Hash}`,
      'x-goog-generation': object.generation,
      'x-goog-metageneration': '1',
      'x-goog-stored-content-length': String(object.size),
      'x-goog-stored-content-encoding': 'identity',
      ETag: `"${object.md5Hash}"`,
      'Accept-Ranges': 'bytes',
    };
    if (range) {
      headers['Content-Range'] = `bytes ${range.start}-${range.end}/${object.size}`;
      headers['Content-Length'] = String(range.end - range.start + 1);
      res.writeHead(206, headers);
    } else {
      headers['Content-Length'] = String(object.size);
      res.writeHead(200, headers);
    }
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    writeChunks(res, object.chunks, range?.start ?? 0, range ? range.end + 1 : object.size);
  }

  private async routeUpload(route: Route, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const bucket = route.bucket;
    if (bucket === undefined) throw new GcsHttpError(404, 'notFound', 'Not Found');
    const uploadId = route.query.get('upload_id');
    // The Go client behind rclone sends resumable chunks with POST, the others with PUT.
    if (uploadId !== null) return this.continueResumable(uploadId, req, res);
    if (route.method !== 'POST') throw new GcsHttpError(405, 'methodNotAllowed', `${route.method} is not supported here`);
    const uploadType = route.query.get('uploadType') ?? 'media';
    if (uploadType === 'media') return this.uploadMedia(bucket, route.query, req, res);
    if (uploadType === 'multipart') return this.uploadMultipart(bucket, route.query, req, res);
    if (uploadType === 'resumable') return this.startResumable(bucket, route.query, req, res);
    throw new GcsHttpError(400, 'invalid', `Invalid upload type: ${uploadType}`);
  }

  private async uploadMedia(bucket: string, query: URLSearchParams, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const name = requireName(query.get('name'));
    const hasher = new ObjectHasher();
    const chunks: Buffer[] = [];
    for await (const chunk of req as AsyncIterable<Buffer>) {
      hasher.update(chunk);
      chunks.push(chunk);
    }
    const stored = this.store.put({ bucket, name, contentType: req.headers['content-type'], chunks, hasher, metadata: undefined });
    sendJson(res, 200, objectResource(stored, this.baseUrl));
  }

  private async uploadMultipart(bucket: string, query: URLSearchParams, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const boundary = multipartBoundary(req.headers['content-type']);
    const upload = parseMultipart(await readBody(req), boundary);
    const name = requireName(query.get('name') ?? stringField(upload.metadata, 'name'));
    const hasher = new ObjectHasher();
    hasher.update(upload.media);
    checkClientHash(req, hasher);
    const contentType = stringField(upload.metadata, 'contentType') ?? upload.mediaContentType;
    const stored = this.store.put({ bucket, name, contentType, chunks: [upload.media], hasher, metadata: upload.metadata['metadata'] });
    sendJson(res, 200, objectResource(stored, this.baseUrl));
  }

  /** The session URI goes back in `Location`; the client PUTs the bytes there. */
  private async startResumable(bucket: string, query: URLSearchParams, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const metadata = body.byteLength > 0 ? parseJsonObject(body) : {};
    const name = requireName(query.get('name') ?? stringField(metadata, 'name'));
    const uploadContentType = req.headers['x-upload-content-type'];
    const contentType = stringField(metadata, 'contentType') ?? (typeof uploadContentType === 'string' ? uploadContentType : undefined);
    const id = randomUUID();
    this.sessions.set(id, { bucket, name, contentType, metadata: metadata['metadata'], chunks: [], hasher: new ObjectHasher(), size: 0, done: undefined });
    res.writeHead(200, { Location: `${this.baseUrl}/upload/storage/v1/b/${bucket}/o?uploadType=resumable&upload_id=${id}`, 'Content-Length': '0' });
    res.end();
  }

  /**
   * One request of a resumable session
   * (https://cloud.google.com/storage/docs/performing-resumable-uploads):
   * `Content-Range: bytes A-B/TOTAL` (or `/` and a star for an unknown total)
   * carries bytes, and a star in place of `A-B` asks the status. Until the
   * object is complete the answer is `308` with `Range: bytes=0-N` (the bytes
   * persisted); bytes the client resends below N are skipped. A star in place
   * of B (the Node client's single-request mode) means the request body is the
   * rest of the object.
   */
  private async continueResumable(id: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const session = this.sessions.get(id);
    if (!session) throw new GcsHttpError(404, 'notFound', 'No such upload session');
    if (session.done) return sendJson(res, 200, objectResource(session.done, this.baseUrl));
    const range = parseContentRange(req.headers['content-range']);
    if (range.start !== undefined) {
      if (range.start > session.size) throw new GcsHttpError(400, 'invalid', `Content-Range starts at ${range.start}, but only ${session.size} bytes are persisted`);
      await this.receiveChunk(session, req, session.size - range.start);
    } else {
      await readBody(req);
    }
    const complete = range.total !== undefined ? session.size >= range.total : range.start !== undefined && range.end === undefined;
    if (!complete) {
      sendIncomplete(req, res, session.size);
      return;
    }
    checkClientHash(req, session.hasher);
    session.done = this.store.put(session);
    sendJson(res, 200, objectResource(session.done, this.baseUrl));
  }

  /** Appends a request's bytes to the session as they arrive; a cut fault destroys the socket midway. */
  private async receiveChunk(session: UploadSession, req: IncomingMessage, skipBytes: number): Promise<void> {
    let toSkip = skipBytes;
    let received = 0;
    const cutAt = this.cutsLeft > 0 ? this.faults.cutUploadAfterBytes : undefined;
    for await (const raw of req as AsyncIterable<Buffer>) {
      let chunk = raw;
      if (cutAt !== undefined && received + chunk.byteLength >= cutAt) {
        this.appendToSession(session, chunk.subarray(0, Math.max(0, cutAt - received)), toSkip);
        this.cutsLeft--;
        this.counts.cuts++;
        req.socket.destroy();
        throw new GcsHttpError(499, 'cut', 'the connection was cut by a fault');
      }
      received += chunk.byteLength;
      const skipped = Math.min(toSkip, chunk.byteLength);
      chunk = chunk.subarray(skipped);
      toSkip -= skipped;
      this.appendToSession(session, chunk, 0);
    }
  }

  private appendToSession(session: UploadSession, bytes: Buffer, skip: number): void {
    const kept = bytes.subarray(Math.min(skip, bytes.byteLength));
    if (kept.byteLength === 0) return;
    // A copy: the socket's buffer may be reused once this read is done.
    const copy = Buffer.from(kept);
    session.chunks.push(copy);
    session.hasher.update(copy);
    session.size += copy.byteLength;
  }
}

/**
 * "Resume Incomplete": 308 with the persisted range. Go's net/http treats a 308
 * as a redirect, so the Go client (rclone) sends `X-GUploader-No-308: yes` and
 * GCS then answers 200 with `X-Http-Status-Code-Override: 308` instead.
 */
function sendIncomplete(req: IncomingMessage, res: ServerResponse, persisted: number): void {
  const headers: Record<string, string> = { 'Content-Length': '0' };
  if (persisted > 0) headers['Range'] = `bytes=0-${persisted - 1}`;
  if (req.headers['x-guploader-no-308'] === 'yes') {
    headers['X-Http-Status-Code-Override'] = '308';
    res.writeHead(200, headers).end();
    return;
  }
  res.writeHead(308, headers).end();
}

function isStatusQuery(req: IncomingMessage): boolean {
  return /^bytes \*\//.test(req.headers['content-range'] ?? '');
}

function parseRoute(req: IncomingMessage): Route {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const method = req.method ?? 'GET';
  // With STORAGE_EMULATOR_HOST the Node client drops `/storage/v1` from JSON
  // paths (uploads keep theirs), so both spellings are served.
  const match = /^\/(upload\/storage\/v1|download\/storage\/v1|storage\/v1)?\/?b(?:\/([^/]+))?(\/o(?:\/(.+))?)?\/?$/.exec(url.pathname);
  if (!match) throw new GcsHttpError(404, 'notFound', `Not Found: ${url.pathname}`);
  const kind = match[1]?.startsWith('upload') ? 'upload' : match[1]?.startsWith('download') ? 'download' : 'json';
  const query = new URLSearchParams(url.search);
  // `/b/B/o` (no name) is the collection: mark it so routeJson can tell it from the bucket.
  if (match[3] !== undefined && match[4] === undefined) query.set('list', '1');
  return {
    method,
    kind,
    bucket: match[2] === undefined ? undefined : decodeURIComponent(match[2]),
    object: match[4] === undefined ? undefined : decodeURIComponent(match[4]),
    query,
  };
}

interface ContentRange {
  readonly start: number | undefined;
  readonly end: number | undefined;
  readonly total: number | undefined;
}

/** `bytes A-B/T`, with a star for any unknown part (see continueResumable); absent means the whole object in one request. */
function parseContentRange(header: string | undefined): ContentRange {
  if (header === undefined) return { start: 0, end: undefined, total: undefined };
  const match = /^bytes (?:(\d+)-(\d+|\*)|\*)\/(\d+|\*)$/.exec(header.trim());
  if (!match) throw new GcsHttpError(400, 'invalid', `Invalid Content-Range: ${header}`);
  const number = (text: string | undefined): number | undefined => (text === undefined || text === '*' ? undefined : Number(text));
  return { start: number(match[1]), end: number(match[2]), total: number(match[3]) };
}

function parseByteRange(header: string | undefined, size: number): { start: number; end: number } | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!match || size === 0 || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') return { start: Math.max(0, size - Number(match[2])), end: size - 1 };
  const start = Number(match[1]);
  if (start >= size) throw new GcsHttpError(416, 'requestedRangeNotSatisfiable', 'The requested range cannot be satisfied.');
  return { start, end: match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1) };
}

/**
 * GCS refuses an upload whose `X-Goog-Hash` (sent by the Node client on the
 * final request) does not match what it stored, with a 400.
 */
function checkClientHash(req: IncomingMessage, hasher: ObjectHasher): void {
  const header = req.headers['x-goog-hash'];
  if (typeof header !== 'string') return;
  const expected = new Map(header.split(',').map((part) => {
    const eq = part.indexOf('=');
    return [part.slice(0, eq).trim(), part.slice(eq + 1).trim()] as const;
  }));
  const actual = hasher.digest();
  if ((expected.has('crc32c') && expected.get('crc32c') !== actual.crc32c) || (expected.has('md5') && expected.get('md5') !== actual.md5Hash)) {
    throw new GcsHttpError(400, 'invalid', `Provided checksums (${header}) do not match the data (crc32c=${actual.crc32c},md5=${actual.md5Hash})`);
  }
}

function writeChunks(res: ServerResponse, chunks: readonly Buffer[], start: number, end: number): void {
  let offset = 0;
  const pieces: Buffer[] = [];
  for (const chunk of chunks) {
    const from = Math.max(start - offset, 0);
    const to = Math.min(end - offset, chunk.byteLength);
    if (from < to) pieces.push(chunk.subarray(from, to));
    offset += chunk.byteLength;
  }
  void writePieces(res, pieces);
}

/** Writes with backpressure, so a multi-megabyte object is not copied into the socket's buffer at once. */
async function writePieces(res: ServerResponse, pieces: readonly Buffer[]): Promise<void> {
  for (const piece of pieces) {
    if (res.destroyed) return;
    if (!res.write(piece)) await drainedOrClosed(res);
  }
  res.end();
}

function requireName(name: string | undefined | null): string {
  if (!name) throw new GcsHttpError(400, 'required', 'Required: name');
  return name;
}

function stringField(record: Record<string, unknown>, key: string): string | undefined {
  const value = record[key];
  return typeof value === 'string' ? value : undefined;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

function parseJsonObject(body: Buffer): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch (error: unknown) {
    throw new GcsHttpError(400, 'parseError', `Parse Error: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new GcsHttpError(400, 'parseError', 'Parse Error: expected an object');
  return parsed as Record<string, unknown>;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=UTF-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

function sendError(res: ServerResponse, error: unknown): void {
  if (res.headersSent || res.destroyed) {
    res.destroy();
    return;
  }
  const known = error instanceof GcsHttpError ? error : undefined;
  const status = known?.status ?? (error instanceof MultipartError ? 400 : 500);
  const reason = known?.reason ?? (error instanceof MultipartError ? 'invalid' : 'backendError');
  const message = error instanceof Error ? error.message : String(error);
  sendJson(res, status, { error: { code: status, message, errors: [{ message, domain: 'global', reason }] } });
}

