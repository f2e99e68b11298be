import { UsageError } from '../core/errors.js';

/** A `gs://BUCKET/PREFIX` target: the prefix has no leading or trailing slash ('' for the bucket's root). */
export interface GcsLocation {
  readonly bucket: string;
  readonly prefix: string;
}

/**
 * GCS bucket names: 3 to 63 characters of lowercase letters, digits, `-`, `_`
 * and `.`, starting and ending with a letter or digit
 * (https://cloud.google.com/storage/docs/buckets#naming; dotted names may be
 * longer, up to 222, in 63-character labels).
 */
const BUCKET_NAME = /^(?=.{3,222}$)[a-z0-9](?:[a-z0-9._-]*[a-z0-9])?$/;

/** Parses `gs://BUCKET[/PREFIX][/]`; anything else is a UsageError of one line naming `what`. */
export function parseGcsUrl(text: string, what = 'the target'): GcsLocation {
  const match = /^gs:\/\/([^/]+)(?:\/(.*))?$/.exec(text.trim());
  const bucket = match?.[1] ?? '';
  if (!match || !BUCKET_NAME.test(bucket) || bucket.split('.').some((label) => label.length > 63)) {
    throw new UsageError(`${what} ${JSON.stringify(text)} is not a gs://BUCKET/PREFIX URL with a valid bucket name`);
  }
  const prefix = (match[2] ?? '').replace(/\/+$/, '');
  // GCS allows almost any name, but `a//b`, `.` or `..` segments would make browse URLs and local paths ambiguous.
  if (prefix !== '' && prefix.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')) {
    throw new UsageError(`${what} ${JSON.stringify(text)} has an empty, "." or ".." path segment`);
  }
  return { bucket, prefix };
}

/** The object name of a dump entry under the location's prefix. */
export function objectNameOf(location: GcsLocation, path: string): string {
  return location.prefix === '' ? path : `${location.prefix}/${path}`;
}

/** `gs://BUCKET/PREFIX/`, for messages. */
export function formatGcsUrl(location: GcsLocation): string {
  return location.prefix === '' ? `gs://${location.bucket}/` : `gs://${location.bucket}/${location.prefix}/`;
}

/** Kubernetes' own gcsweb and Prow; other Prow installations pass theirs (`--gcsweb-url`, `--spyglass-url`). */
export const GCSWEB_BASE = 'https://gcsweb.k8s.io/gcs';
export const SPYGLASS_BASE = 'https://prow.k8s.io/view/gs';

/** The folder view of a prefix in gcsweb (`BASE/BUCKET/PREFIX/`); an object's name appended to it opens the object. */
export function gcswebUrl(location: GcsLocation, base = GCSWEB_BASE): string {
  return `${base.replace(/\/+$/, '')}/${location.bucket}/${location.prefix === '' ? '' : `${encodePath(location.prefix)}/`}`;
}

/** The job view of a prefix in Prow's Spyglass (`BASE/BUCKET/PREFIX`). */
export function spyglassUrl(location: GcsLocation, base = SPYGLASS_BASE): string {
  return `${base.replace(/\/+$/, '')}/${location.bucket}${location.prefix === '' ? '' : `/${encodePath(location.prefix)}`}`;
}

function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}
