import { createHash } from 'node:crypto';
import type { Hash } from 'node:crypto';

/**
 * CRC32C (Castagnoli, reflected polynomial 0x82F63B78), the checksum GCS keeps
 * for every object. Node 20's zlib only has plain CRC-32, so it is computed here
 * with the usual byte-at-a-time table.
 */
const CRC32C_TABLE: Uint32Array = buildCrc32cTable();

function buildCrc32cTable(): Uint32Array {
  const table = new Uint32Array(256);
  for (let byte = 0; byte < 256; byte++) {
    let crc = byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1;
    table[byte] = crc >>> 0;
  }
  return table;
}

/** Continues a CRC32C over `bytes`; start with 0. */
export function updateCrc32c(crc: number, bytes: Uint8Array): number {
  let value = ~crc >>> 0;
  for (let index = 0; index < bytes.length; index++) {
    value = (CRC32C_TABLE[(value ^ (bytes[index] ?? 0)) & 0xff] ?? 0) ^ (value >>> 8);
  }
  return ~value >>> 0;
}

/** GCS's `crc32c` field: the 4 bytes big-endian, base64. */
export function crc32cBase64(crc: number): string {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(crc >>> 0);
  return bytes.toString('base64');
}

/** The hashes GCS reports for an object, computed as its bytes arrive. */
export class ObjectHasher {
  private crc = 0;
  private readonly md5: Hash = createHash('md5');

  update(bytes: Buffer): void {
    this.crc = updateCrc32c(this.crc, bytes);
    this.md5.update(bytes);
  }

  /** `{ crc32c, md5Hash }` in GCS's base64 forms so far; more bytes may follow (the MD5 state is copied). */
  digest(): { readonly crc32c: string; readonly md5Hash: string } {
    return { crc32c: crc32cBase64(this.crc), md5Hash: this.md5.copy().digest('base64') };
  }
}
