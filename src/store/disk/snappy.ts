/**
 * Snappy decompression, for the few blocks of a LevelDB table that its check
 * must parse (table-blocks.ts): LevelDB compresses every block of a table
 * with Snappy when that saves an eighth of it, the index block included.
 *
 * The format: the uncompressed length as a varint, then elements, each a tag
 * byte whose two low bits say what follows: a literal (its length in the tag,
 * or in 1 to 4 bytes after it when over 60), or a copy of bytes already
 * written, 1 to 64 of them from an offset held in 1, 2 or 4 bytes.
 */

/** Bytes that are not a Snappy stream; the message says where. */
export class SnappyDamage extends Error {}

/** Reads the little-endian number of `count` bytes at `at`. */
function littleEndian(bytes: Uint8Array, at: number, count: number): number {
  if (at + count > bytes.length) throw new SnappyDamage(`an element's length or offset runs past the end at byte ${at}`);
  let value = 0;
  for (let i = count - 1; i >= 0; i--) value = value * 256 + (bytes[at + i] as number);
  return value;
}

/** The uncompressed length and where the elements start. */
function header(bytes: Uint8Array): { length: number; at: number } {
  let length = 0;
  for (let at = 0, shift = 0; at < 5; at++, shift += 7) {
    const byte = bytes[at];
    if (byte === undefined) break;
    length += (byte & 0x7f) * 2 ** shift;
    if ((byte & 0x80) === 0) return { length, at: at + 1 };
  }
  throw new SnappyDamage('its length does not parse');
}

/** The bytes a Snappy stream holds; throws SnappyDamage when it is not one. */
export function snappyDecompress(bytes: Uint8Array): Uint8Array {
  const { length, at: start } = header(bytes);
  const out = new Uint8Array(length);
  let written = 0;
  let at = start;
  while (at < bytes.length) {
    const tag = bytes[at++] as number;
    const kind = tag & 3;
    if (kind === 0) {
      let size = tag >>> 2;
      if (size >= 60) {
        const count = size - 59;
        size = littleEndian(bytes, at, count);
        at += count;
      }
      size += 1;
      if (at + size > bytes.length || written + size > length) throw new SnappyDamage(`a literal of ${size} bytes at byte ${at} runs past the end`);
      out.set(bytes.subarray(at, at + size), written);
      at += size;
      written += size;
      continue;
    }
    let size: number;
    let offset: number;
    if (kind === 1) {
      size = ((tag >>> 2) & 7) + 4;
      offset = ((tag >>> 5) << 8) | littleEndian(bytes, at, 1);
      at += 1;
    } else {
      const count = kind === 2 ? 2 : 4;
      size = (tag >>> 2) + 1;
      offset = littleEndian(bytes, at, count);
      at += count;
    }
    if (offset === 0 || offset > written || written + size > length) throw new SnappyDamage(`a copy at byte ${at} reaches outside what was written`);
    // Byte by byte: a copy may overlap what it writes (an offset shorter than its size repeats a pattern).
    for (let i = 0; i < size; i++, written++) out[written] = out[written - offset] as number;
  }
  if (written !== length) throw new SnappyDamage(`it holds ${written} bytes where its header says ${length}`);
  return out;
}
