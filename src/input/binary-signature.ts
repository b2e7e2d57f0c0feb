/**
 * Files that are not text at all, told apart by their first bytes before they
 * are read as JSONL or CSV. A compressed copy of a benchmark (`test.jsonl.gz`),
 * a spreadsheet (`.xlsx`, a ZIP archive) or a Parquet file without its
 * `.parquet` name would otherwise be refused for an invalid UTF-8 byte or a
 * line that is not JSON, with a fix (convert from latin1, `jq -c`) that does
 * not apply; the message names what the file is and how to give it to tmas.
 * A NUL byte in text that is valid UTF-8 is refused with its line the same way.
 */
import { inputError } from './input-error.ts';

interface Signature {
  /** The bytes the format starts with (none of them text, or, for Parquet, the same four at the end too). */
  magic: readonly number[];
  /** Whether the format ends with its magic too (Parquet does), which keeps a text file that starts with the same letters out. */
  endsWithMagic?: boolean;
  what: string;
  fix: string;
}

const decompress = (tool: string, reader: string): string =>
  `Decompress it first (${tool} FILE), or pass the decompressed stream: --input-file <(${reader} FILE)`;

const SIGNATURES: readonly Signature[] = [
  { magic: [0x1f, 0x8b], what: 'gzip-compressed data', fix: decompress('gunzip -k', 'zcat') },
  { magic: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], what: 'xz-compressed data', fix: decompress('unxz -k', 'xzcat') },
  { magic: [0x28, 0xb5, 0x2f, 0xfd], what: 'zstd-compressed data', fix: decompress('unzstd', 'zstdcat') },
  {
    magic: [0x50, 0x4b, 0x03, 0x04],
    what: 'a ZIP archive (an Excel or OpenDocument workbook is one)',
    fix: 'Export the sheet as CSV (a .csv name), or unzip the archive and pass the problem file inside it',
  },
  {
    magic: [0x50, 0x41, 0x52, 0x31],
    endsWithMagic: true,
    what: 'a Parquet file (it starts and ends with PAR1)',
    fix: 'tmas reads a file as Parquet when its name ends in .parquet: rename it, or link it under such a name (ln -s FILE problems.parquet)',
  },
];

/**
 * Throws `TMAS_INPUT` naming the line of the first NUL byte of text that is valid UTF-8: no text problem
 * file holds one (UTF-16 without a byte-order mark has one in every other byte; a file cut short by a
 * crash can be padded with them), and the parsers' messages would print it raw.
 */
export function refuseNulBytes(file: string, bytes: Uint8Array): void {
  const nul = bytes.indexOf(0);
  if (nul === -1) return;
  let line = 1;
  for (let at = bytes.indexOf(0x0a); at !== -1 && at < nul; at = bytes.indexOf(0x0a, at + 1)) line++;
  throw inputError(
    { file, line },
    `a NUL byte at byte offset ${nul} (counting from 0): this is not text (UTF-16 without a byte-order mark, a binary file, or a file padded with zeros after a crash)`,
    'Save the problems as UTF-8 text (iconv -f utf-16 -t utf-8 in > out for UTF-16), or write the file again',
  );
}

/** Throws `TMAS_INPUT` naming the file when its first bytes are a compressed, archive or Parquet format's; text passes. */
export function refuseBinaryFormat(file: string, bytes: Uint8Array): void {
  const startsWith = (magic: readonly number[], from: number): boolean => from >= 0 && magic.every((byte, at) => bytes[from + at] === byte);
  const found = SIGNATURES.find(({ magic, endsWithMagic }) => startsWith(magic, 0) && (endsWithMagic !== true || (bytes.length >= 2 * magic.length && startsWith(magic, bytes.length - magic.length))));
  if (found === undefined) return;
  throw inputError(file, `this is ${found.what}, not text`, found.fix);
}
