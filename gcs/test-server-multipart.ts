/** The two parts of a `uploadType=multipart` body: JSON metadata, then the media. */
export interface MultipartUpload {
  readonly metadata: Record<string, unknown>;
  readonly mediaContentType: string | undefined;
  readonly media: Buffer;
}

/** A multipart body the server cannot read; answered with a 400. */
export class MultipartError extends Error {
  override readonly name = 'MultipartError';
}

/**
 * The boundary of a `multipart/related` Content-Type. gcloud quotes it, in
 * single quotes (`boundary='===============123=='`, from Python's email
 * package); RFC 2046 quoting uses double quotes; @google-cloud/storage sends it bare.
 */
export function multipartBoundary(contentType: string | undefined): string {
  const match = /;\s*boundary=(?:"([^"]+)"|'([^']+)'|([^;\s]+))/i.exec(contentType ?? '');
  const boundary = match?.[1] ?? match?.[2] ?? match?.[3];
  if (!contentType?.toLowerCase().startsWith('multipart/related') || !boundary) {
    throw new MultipartError(`expected multipart/related with a boundary, got ${JSON.stringify(contentType)}`);
  }
  return boundary;
}

/**
 * Splits a multipart/related upload (RFC 2046). Line breaks are CRLF from
 * @google-cloud/storage and bare LF from gcloud, so the break that follows the
 * first delimiter decides which one the delimiters carry: the break before a
 * delimiter belongs to the delimiter, not to the media (which may itself end in
 * a line break).
 */
export function parseMultipart(body: Buffer, boundary: string): MultipartUpload {
  const delimiter = `--${boundary}`;
  const first = body.indexOf(delimiter);
  if (first < 0) throw new MultipartError('the body has no boundary delimiter');
  const eol = body.subarray(first + delimiter.length, first + delimiter.length + 2).toString('latin1') === '\r\n' ? '\r\n' : '\n';
  const parts = splitParts(body, Buffer.from(`${eol}${delimiter}`, 'latin1'), first + delimiter.length + eol.length, eol);
  const [metadataPart, mediaPart] = parts;
  if (!metadataPart || !mediaPart) throw new MultipartError(`expected 2 parts (metadata, media), found ${parts.length}`);
  return {
    metadata: parseMetadata(metadataPart.content),
    mediaContentType: mediaPart.headers.get('content-type'),
    media: mediaPart.content,
  };
}

interface Part {
  readonly headers: Map<string, string>;
  readonly content: Buffer;
}

function splitParts(body: Buffer, separator: Buffer, start: number, eol: string): Part[] {
  const parts: Part[] = [];
  let from = start;
  for (let next = body.indexOf(separator, from); next >= 0; next = body.indexOf(separator, from)) {
    parts.push(parsePart(body.subarray(from, next), eol));
    from = next + separator.length;
    // `--` right after the delimiter closes the body.
    if (body.subarray(from, from + 2).toString('latin1') === '--') return parts;
    from += eol.length;
  }
  throw new MultipartError('the body has no closing delimiter');
}

function parsePart(raw: Buffer, eol: string): Part {
  const blank = raw.indexOf(`${eol}${eol}`);
  const headerText = blank < 0 ? '' : raw.subarray(0, blank).toString('latin1');
  const headers = new Map<string, string>();
  for (const line of headerText.split(eol)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, content: blank < 0 ? raw.subarray(raw.indexOf(eol) + eol.length) : raw.subarray(blank + 2 * eol.length) };
}

function parseMetadata(content: Buffer): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(content.toString('utf8') || '{}');
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new MultipartError('the metadata part is not a JSON object');
    return parsed as Record<string, unknown>;
  } catch (error: unknown) {
    throw new MultipartError('the metadata part is not JSON', { cause: error });
  }
}
