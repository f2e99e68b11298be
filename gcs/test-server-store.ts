import { ObjectHasher } from './object-hash.js';

/** One object as the test server keeps it: the bytes as the chunks that arrived. */
export interface StoredObject {
  readonly bucket: string;
  readonly name: string;
  readonly contentType: string;
  readonly chunks: readonly Buffer[];
  readonly size: number;
  readonly crc32c: string;
  readonly md5Hash: string;
  readonly generation: string;
  readonly created: Date;
  /** Custom metadata (`metadata` in the JSON API), strings only, as GCS keeps them. */
  readonly metadata: Readonly<Record<string, string>>;
}

/** What an upload hands the store once all its bytes are in. */
export interface NewObject {
  readonly bucket: string;
  readonly name: string;
  readonly contentType: string | undefined;
  readonly chunks: readonly Buffer[];
  readonly hasher: ObjectHasher;
  readonly metadata: unknown;
}

/** One page of a listing, in the order and shape of `objects.list`. */
export interface ListPage {
  readonly items: readonly StoredObject[];
  readonly prefixes: readonly string[];
  readonly nextPageToken: string | undefined;
}

/** The parameters of `objects.list` the server honours. */
export interface ListQuery {
  readonly prefix: string;
  readonly delimiter: string;
  readonly maxResults: number;
  readonly pageToken: string | undefined;
}

/** `objects.list` returns at most 1000 items and prefixes per page. */
export const MAX_LIST_RESULTS = 1000;

/** Buckets and their objects, in memory. Buckets spring into being on first use. */
export class ObjectStore {
  private readonly buckets = new Map<string, Map<string, StoredObject>>();
  private generationCounter = Date.now() * 1000;

  bucket(name: string): Map<string, StoredObject> {
    let objects = this.buckets.get(name);
    if (!objects) {
      objects = new Map();
      this.buckets.set(name, objects);
    }
    return objects;
  }

  get(bucket: string, name: string): StoredObject | undefined {
    return this.buckets.get(bucket)?.get(name);
  }

  delete(bucket: string, name: string): boolean {
    return this.buckets.get(bucket)?.delete(name) ?? false;
  }

  /** Stores (or replaces, with a new generation, as GCS does) an object. */
  put(upload: NewObject): StoredObject {
    const size = upload.chunks.reduce((total, chunk) => total + chunk.byteLength, 0);
    const stored: StoredObject = {
      bucket: upload.bucket,
      name: upload.name,
      contentType: upload.contentType ?? 'application/octet-stream',
      chunks: upload.chunks,
      size,
      ...upload.hasher.digest(),
      generation: String(++this.generationCounter),
      created: new Date(),
      metadata: stringMetadata(upload.metadata),
    };
    this.bucket(upload.bucket).set(upload.name, stored);
    return stored;
  }

  all(): StoredObject[] {
    return [...this.buckets.values()].flatMap((objects) => [...objects.values()]);
  }

  /**
   * GCS lists in lexicographic (byte) order of names; with a delimiter, names
   * with the delimiter after the prefix fold into one `prefixes` entry (ending
   * in the delimiter). Items and prefixes share one sequence, which is what
   * `maxResults` counts and what the page token continues (the token being
   * opaque, ours is the last key returned).
   */
  list(bucket: string, query: ListQuery): ListPage {
    const keys = this.listKeys(bucket, query);
    const start = query.pageToken === undefined ? 0 : keys.findIndex((key) => key.key > decodeToken(query.pageToken ?? ''));
    const from = start < 0 ? keys.length : start;
    const page = keys.slice(from, from + query.maxResults);
    const last = page[page.length - 1];
    const more = from + page.length < keys.length;
    return {
      items: page.flatMap((key) => (key.object ? [key.object] : [])),
      prefixes: page.flatMap((key) => (key.object ? [] : [key.key])),
      nextPageToken: more && last ? Buffer.from(last.key, 'utf8').toString('base64') : undefined,
    };
  }

  private listKeys(bucket: string, query: ListQuery): ListKey[] {
    const keys = new Map<string, ListKey>();
    for (const object of this.bucket(bucket).values()) {
      if (!object.name.startsWith(query.prefix)) continue;
      const cut = query.delimiter === '' ? -1 : object.name.indexOf(query.delimiter, query.prefix.length);
      if (cut < 0) keys.set(object.name, { key: object.name, object });
      else {
        const prefix = object.name.slice(0, cut + query.delimiter.length);
        if (!keys.has(prefix)) keys.set(prefix, { key: prefix, object: undefined });
      }
    }
    return [...keys.values()].sort((a, b) => Buffer.compare(Buffer.from(a.key), Buffer.from(b.key)));
  }
}

interface ListKey {
  readonly key: string;
  readonly object: StoredObject | undefined;
}

function decodeToken(token: string): string {
  return Buffer.from(token, 'base64').toString('utf8');
}

function stringMetadata(metadata: unknown): Record<string, string> {
  if (typeof metadata !== 'object' || metadata === null) return {};
  return Object.fromEntries(Object.entries(metadata).map(([key, value]) => [key, String(value)]));
}

/** The `storage#object` resource, with the fields clients read (gcloud needs `etag`). */
export function objectResource(object: StoredObject, baseUrl: string): Record<string, unknown> {
  const encodedName = encodeURIComponent(object.name);
  const time = object.created.toISOString();
  return {
    kind: 'storage#object',
    id: `${object.bucket}/${object.name}/${object.generation}`,
    selfLink: `${baseUrl}/storage/v1/b/${object.bucket}/o/${encodedName}`,
    // rclone downloads through mediaLink rather than building the URL itself.
    mediaLink: `${baseUrl}/download/storage/v1/b/${object.bucket}/o/${encodedName}?generation=${object.generation}&alt=media`,
    name: object.name,
    bucket: object.bucket,
    generation: object.generation,
    metageneration: '1',
    contentType: object.contentType,
    storageClass: 'STANDARD',
    size: String(object.size),
    md5Hash: object.md5Hash,
    crc32c: object.crc32c,
    etag: Buffer.from(`${object.generation}/1`).toString('base64'),
    timeCreated: time,
    updated: time,
    timeStorageClassUpdated: time,
    ...(Object.keys(object.metadata).length > 0 ? { metadata: object.metadata } : {}),
  };
}

/** The `storage#bucket` resource. */
export function bucketResource(name: string, baseUrl: string): Record<string, unknown> {
  return {
    kind: 'storage#bucket',
    id: name,
    name,
    selfLink: `${baseUrl}/storage/v1/b/${name}`,
    projectNumber: '0',
    metageneration: '1',
    location: 'US',
    storageClass: 'STANDARD',
    etag: 'CAE=',
    timeCreated: new Date(0).toISOString(),
    updated: new Date(0).toISOString(),
  };
}
