/**
 * A throwaway self-signed certificate for 127.0.0.1, built in memory at start.
 * Why TLS at all: kubectl (client-go) never sends credentials over plain http
 * (kubernetes/kubectl#744), so a token-checking simulator needs https for the
 * real kubectl. Node has no X.509 writer, so this encodes the few DER
 * structures of one ECDSA P-256 certificate by hand.
 */
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';

/** The PEM key and certificate of a simulator's https server. */
export interface TlsMaterial {
  key: string;
  cert: string;
}

function derLength(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function der(tag: number, content: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag]), derLength(content.length), content]);
}

const sequence = (...parts: Buffer[]): Buffer => der(0x30, Buffer.concat(parts));

/** A non-negative INTEGER from big-endian bytes, in DER's one minimal form (OpenSSL rejects any other). */
function integer(value: Buffer): Buffer {
  let start = 0;
  while (start < value.length - 1 && value[start] === 0) start++;
  const minimal = value.subarray(start);
  // A positive INTEGER whose high bit is set needs a leading zero byte.
  return der(0x02, (minimal[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), minimal]) : minimal);
}

function objectId(dotted: string): Buffer {
  const [first = 0, second = 0, ...rest] = dotted.split('.').map(Number);
  const bytes = [first * 40 + second];
  for (const arc of rest) {
    const chunk: number[] = [arc & 0x7f];
    for (let value = arc >>> 7; value > 0; value >>>= 7) chunk.unshift((value & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return der(0x06, Buffer.from(bytes));
}

function utcTime(date: Date): Buffer {
  const text = date.toISOString().replace(/[-:T]/g, '').slice(2, 14);
  return der(0x17, Buffer.from(`${text}Z`, 'ascii'));
}

function commonName(name: string): Buffer {
  return sequence(der(0x31, sequence(objectId('2.5.4.3'), der(0x0c, Buffer.from(name, 'utf8')))));
}

function toPem(label: string, body: Buffer): string {
  const lines = body.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

const ECDSA_WITH_SHA256 = '1.2.840.10045.4.3.2';
const VALIDITY_MS = 10 * 365 * 24 * 3600 * 1000;

/** A new key and a self-signed CA:true certificate for 127.0.0.1 and localhost. */
export function createSelfSignedTls(): TlsMaterial {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const algorithm = sequence(objectId(ECDSA_WITH_SHA256));
  const name = commonName('logdump-sim');
  const now = Date.now();
  const subjectAltName = sequence(
    objectId('2.5.29.17'),
    der(0x04, sequence(der(0x87, Buffer.from([127, 0, 0, 1])), der(0x82, Buffer.from('localhost', 'ascii')))),
  );
  const basicConstraints = sequence(objectId('2.5.29.19'), der(0x01, Buffer.from([0xff])), der(0x04, sequence(der(0x01, Buffer.from([0xff])))));
  const tbs = sequence(
    der(0xa0, integer(Buffer.from([2]))),
    integer(randomBytes(16)),
    algorithm,
    name,
    sequence(utcTime(new Date(now - 3600_000)), utcTime(new Date(now + VALIDITY_MS))),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    der(0xa3, sequence(subjectAltName, basicConstraints)),
  );
  const signature = sign('sha256', tbs, privateKey);
  const certificate = sequence(tbs, algorithm, der(0x03, Buffer.concat([Buffer.from([0]), signature])));
  return { key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), cert: toPem('CERTIFICATE', certificate) };
}
