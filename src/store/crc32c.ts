/**
 * CRC-32C (Castagnoli), as LevelDB checksums its log and MANIFEST records,
 * and the mask LevelDB applies to a stored checksum. Used on the MANIFEST
 * alone (tens of kilobytes): a table-driven loop is fast enough.
 */

/** The reflected Castagnoli polynomial. */
const POLY = 0x82f63b78;

const TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ POLY : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** The CRC-32C of `bytes`. */
export function crc32c(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = (TABLE[(crc ^ (bytes[i] as number)) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** LevelDB's constant for masking a stored CRC (so that a CRC of data holding CRCs stays useful). */
const MASK_DELTA = 0xa282ead8;

/** The CRC a LevelDB record stores, unmasked. */
export function unmaskCrc(masked: number): number {
  const rotated = (masked - MASK_DELTA) >>> 0;
  return ((rotated >>> 17) | (rotated << 15)) >>> 0;
}
