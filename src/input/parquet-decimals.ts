/**
 * DECIMAL columns read exactly. hyparquet scales a DECIMAL's unscaled integer by 10^-scale in doubles,
 * so a DECIMAL(20,0) answer of 12345678901234567890 was read as 12345678901234567168 and an INT64
 * DECIMAL(18,0) of 1234567890123456789 as …768: the run graded against a number the file does not
 * hold. The flat DECIMAL columns of a file are decoded without their annotation instead (the unscaled
 * integer: a number, a bigint, or big-endian two's-complement bytes) and written at their scale here.
 */
import type { FileMetaData, SchemaElement, SchemaTree } from 'hyparquet';

/** The metadata hyparquet reads the rows with, and whether it decodes unannotated byte arrays as text. */
export interface DecimalReading {
  metadata: FileMetaData;
  utf8: boolean;
}

/** True for a DECIMAL column, by either of its annotations. */
export function isDecimal(element: SchemaElement): boolean {
  return element.logical_type?.type === 'DECIMAL' || element.converted_type === 'DECIMAL';
}

/**
 * `metadata` with the annotation of each flat DECIMAL column in `flat` removed. A byte-array DECIMAL
 * without its annotation would be decoded as text, so then every unannotated byte array (outside a
 * VARIANT, whose bytes stay raw) is annotated as the text it was read as, and the rest read as bytes.
 */
export function rawDecimalReading(metadata: FileMetaData, schema: SchemaTree, flat: ReadonlySet<SchemaElement>): DecimalReading {
  const byteArrays = [...flat].some((element) => element.type === 'BYTE_ARRAY');
  const textual = byteArrays ? unannotatedByteArrays(schema) : new Set<SchemaElement>();
  const schemaElements = metadata.schema.map((element): SchemaElement => {
    if (flat.has(element)) return { ...element, converted_type: undefined, logical_type: undefined };
    return textual.has(element) ? { ...element, converted_type: 'UTF8' } : element;
  });
  return { metadata: { ...metadata, schema: schemaElements }, utf8: !byteArrays };
}

/** The byte-array columns with no annotation, which hyparquet reads as UTF-8 text; a VARIANT's are left out. */
function unannotatedByteArrays(tree: SchemaTree, found = new Set<SchemaElement>()): Set<SchemaElement> {
  const { element } = tree;
  if (element.logical_type?.type === 'VARIANT') return found;
  if (element.type === 'BYTE_ARRAY' && element.converted_type === undefined && element.logical_type === undefined) found.add(element);
  for (const child of tree.children) unannotatedByteArrays(child, found);
  return found;
}

/** A raw DECIMAL cell's unscaled integer; undefined for a value of another kind. */
function unscaled(value: unknown): bigint | undefined {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number') return Number.isSafeInteger(value) ? BigInt(value) : undefined;
  if (!(value instanceof Uint8Array)) return undefined;
  let integer = 0n;
  for (const byte of value) integer = (integer << 8n) | BigInt(byte);
  const bits = BigInt(value.length * 8);
  // Two's complement: the top bit set is a negative number.
  return value.length > 0 && integer >= 1n << (bits - 1n) ? integer - (1n << bits) : integer;
}

/** A raw DECIMAL cell as its digits at `scale` (35 at scale 2 is "0.35"); undefined for a value of another kind. */
export function decimalText(value: unknown, scale: number): string | undefined {
  const integer = unscaled(value);
  if (integer === undefined) return undefined;
  const sign = integer < 0n ? '-' : '';
  const digits = (integer < 0n ? -integer : integer).toString().padStart(scale + 1, '0');
  return scale === 0 ? `${sign}${digits}` : `${sign}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}
