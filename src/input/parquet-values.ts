/**
 * The values of Parquet cells as a problem holds them. Text is decoded as
 * strict UTF-8, as the text readers do: hyparquet's own decoder would turn a
 * bad byte into U+FFFD silently, so its string parser is replaced by one that
 * leaves a marker, and the row that holds it is refused with its number and
 * column. Values JSON cannot hold (64-bit integers, dates, bytes) are turned
 * into ones it can, since a problem is stored as JSON.
 */
import { isUtf8 } from 'node:buffer';
import type { ParquetParsers } from 'hyparquet';
import { inputError, quote } from './input-error.ts';
import { decimalText } from './parquet-decimals.ts';
import type { SourceLocation } from './problem.ts';

/** A text cell whose bytes are not valid UTF-8. */
class NotUtf8 {}

const NOT_UTF8 = new NotUtf8();
const decoder = new TextDecoder();

/** hyparquet's string parser, strict: a cell of invalid UTF-8 becomes a marker the row check refuses. */
export const STRICT_TEXT: Partial<ParquetParsers> = {
  stringFromBytes: (bytes: Uint8Array | undefined) => (bytes === undefined ? undefined : isUtf8(bytes) ? decoder.decode(bytes) : NOT_UTF8),
};

/**
 * How a number column's values were written, where a double's digits are not them: a single-precision
 * float (0.1 decodes to 0.10000000149011612), or a decimal at its scale (its unscaled integer is read
 * raw and scaled here, exactly: parquet-decimals.ts).
 */
export type NumberForm = 'float32' | { scale: number };

/** A number cell's text as its column wrote it. */
function numberText(value: number, form: NumberForm | undefined): string {
  if (!Number.isFinite(value)) return String(value);
  if (form === 'float32') return String(shortestFloat32(value));
  return String(Object.is(value, -0) ? 0 : value);
}

/** A cell's value as a problem's text field: a string, or undefined for null (and NaN, pandas' missing number); a number as its column wrote it. */
export function cellText(value: unknown, column: string, where: SourceLocation, form?: NumberForm): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (value instanceof NotUtf8) throw notUtf8(column, where);
  const decimal = typeof form === 'object' ? decimalText(value, form.scale) : undefined;
  if (decimal !== undefined) return decimal;
  if (typeof value === 'number') return Number.isNaN(value) ? undefined : numberText(value, form);
  // A 64-bit integer column decodes to bigint, exact: its decimal string loses nothing.
  if (typeof value === 'bigint') return String(value);
  return String(value);
}

/** A cell of a column kept in `extra`, made JSON: bigint or a decimal as a number when exact (else a string), a float as the number its column wrote, dates as ISO text, bytes as base64. */
export function jsonCell(value: unknown, column: string, where: SourceLocation, form?: NumberForm): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof NotUtf8) throw notUtf8(column, where);
  const scale = typeof form === 'object' ? form.scale : undefined;
  const decimal = scale === undefined ? undefined : decimalText(value, scale);
  // A decimal JSON's number holds exactly stays a number; one it would round (20 digits) stays its digits.
  if (scale !== undefined && decimal !== undefined) return Number(decimal).toFixed(Math.min(scale, 100)) === decimal ? Number(decimal) + 0 : decimal;
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : String(value);
  if (typeof value === 'number') return Number.isFinite(value) ? Number(numberText(value, form)) + 0 : null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
  if (Array.isArray(value) || ArrayBuffer.isView(value)) return Array.from(value as ArrayLike<unknown>, (item) => jsonCell(item, column, where));
  if (typeof value === 'object') {
    // fromEntries defines properties, so a "__proto__" key stays a plain key.
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, jsonCell(item, column, where)]));
  }
  return value;
}

/** The double nearest the shortest decimal that rounds to the same single-precision float as `value` (9 significant digits always suffice). */
function shortestFloat32(value: number): number {
  if (!Number.isFinite(value)) return value;
  for (let digits = 1; digits < 9; digits++) {
    const shorter = Number(value.toPrecision(digits));
    if (Math.fround(shorter) === value) return shorter;
  }
  return Number(value.toPrecision(9));
}

function notUtf8(column: string, where: SourceLocation): Error {
  return inputError(
    where,
    `the ${quote(column)} cell is not valid UTF-8 text`,
    'Write the column as UTF-8 text; a column of binary data (an image, say) has no place in a problem file: drop it',
  );
}
