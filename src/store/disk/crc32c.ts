/**
 * CRC-32C (Castagnoli), as LevelDB checksums its log and MANIFEST records and
 * every block of its tables, and the mask LevelDB applies to a stored
 * checksum. A resume checks every block of its store (table-blocks.ts), so
 * the whole store passes through here: eight bytes a step through eight
 * tables ("slicing by 8") takes an eighth of the steps of the byte-a-step
 * loop, and ran markedly faster.
 */

/** The reflected Castagnoli polynomial. */
const POLY = 0x82f63b78;

/** Table t (at t × 256) gives the CRC of a byte followed by t zero bytes. */
const TABLES = (() => {
  const tables = new Uint32Array(256 * 8);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ POLY : c >>> 1;
    tables[n] = c >>> 0;
  }
  for (let t = 1; t < 8; t++) {
    for (let n = 0; n < 256; n++) {
      const previous = tables[(t - 1) * 256 + n] as number;
      tables[t * 256 + n] = ((tables[previous & 0xff] as number) ^ (previous >>> 8)) >>> 0;
    }
  }
  return tables;
})();

/** The CRC-32C of `bytes`. */
export function crc32c(bytes: Uint8Array): number {
  const t = TABLES;
  let crc = 0xffffffff;
  let i = 0;
  const whole = bytes.length - (bytes.length % 8);
  for (; i < whole; i += 8) {
    const low = crc ^ ((bytes[i] as number) | ((bytes[i + 1] as number) << 8) | ((bytes[i + 2] as number) << 16) | ((bytes[i + 3] as number) << 24));
    crc =
      (t[1792 + (low & 0xff)] as number) ^
      (t[1536 + ((low >>> 8) & 0xff)] as number) ^
      (t[1280 + ((low >>> 16) & 0xff)] as number) ^
      (t[1024 + (low >>> 24)] as number) ^
      (t[768 + (bytes[i + 4] as number)] as number) ^
      (t[512 + (bytes[i + 5] as number)] as number) ^
      (t[256 + (bytes[i + 6] as number)] as number) ^
      (t[bytes[i + 7] as number] as number);
  }
  for (; i < bytes.length; i++) crc = (t[(crc ^ (bytes[i] as number)) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** LevelDB's constant for masking a stored CRC (so that a CRC of data holding CRCs stays useful). */
const MASK_DELTA = 0xa282ead8;

/** The CRC a LevelDB record stores, unmasked. */
export function unmaskCrc(masked: number): number {
  const rotated = (masked - MASK_DELTA) >>> 0;
  return ((rotated >>> 17) | (rotated << 15)) >>> 0;
}
