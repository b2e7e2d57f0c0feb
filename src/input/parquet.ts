/**
 * Parquet problem files, read with hyparquet (pure JS, no native build). The
 * file's footer is read first: its size, its compressions and its schema are
 * checked (parquet-columns.ts picks the columns) before any row is decoded.
 * Rows are then decoded one row group at a time, each turned into problems
 * before the next is read, so only one group's raw columns are held at once.
 * A row's errors name it as `<file> row N`, counting from 1 over the whole file.
 */
import { open, stat, type FileHandle } from 'node:fs/promises';
import { kindOf } from '../kernel/file-kind.ts';
import { parquetMetadataAsync, parquetReadObjects, parquetSchema, type AsyncBuffer, type FileMetaData } from 'hyparquet';
import { isUserError } from '../kernel/errors.ts';
import { inputError } from './input-error.ts';
import { checkInputSize, sizeText } from './input-size.ts';
import { checkCodecs, DECOMPRESSORS } from './parquet-codecs.ts';
import { nestedShape, resolveColumns, type ParquetColumns, type ParquetResolved } from './parquet-columns.ts';
import { isDecimal, rawDecimalReading, type DecimalReading } from './parquet-decimals.ts';
import { toProblemFromRow } from './parquet-row.ts';
import { STRICT_TEXT } from './parquet-values.ts';
import type { LocatedProblem } from './problem.ts';
import { directoryError, readError } from './read-text.ts';
import { thrownText } from '../kernel/thrown-text.ts';

/** Reads every problem of a Parquet file; throws `TMAS_INPUT` naming the file (and the row, for a row's mistake). */
export async function readParquetProblems(file: string, columns: ParquetColumns, maxBytes: number): Promise<LocatedProblem[]> {
  let handle: FileHandle;
  try {
    // A Parquet file is read from its end: a pipe or a device cannot be (and opening a FIFO waits for a writer).
    const info = await stat(file);
    if (!info.isFile() && !info.isDirectory()) throw inputError(file, `this is ${kindOf(info)}, not a file`, 'A Parquet file is read from its end: pass the path of a regular file');
    handle = await open(file);
  } catch (error) {
    throw isUserError(error) ? error : readError(file, error);
  }
  try {
    const buffer = await fileBuffer(handle, file, maxBytes);
    const metadata = await readFooter(buffer, file);
    checkDecodedSize(metadata, file, maxBytes);
    checkCodecs(metadata, file);
    const schema = parquetSchema(metadata);
    const resolved = resolveColumns(schema, file, columns);
    if (Number(metadata.num_rows) === 0) {
      throw inputError(file, 'no problems found: the Parquet file has no rows', 'Write one row per problem');
    }
    const flatDecimals = new Set(schema.children.filter((column) => nestedShape(column) === undefined && isDecimal(column.element)).map((column) => column.element));
    return await readRows(buffer, rawDecimalReading(metadata, schema, flatDecimals), resolved, file);
  } finally {
    await handle.close();
  }
}

/** The open file as hyparquet reads it: its size, and byte ranges read on demand. */
async function fileBuffer(handle: FileHandle, file: string, maxBytes: number): Promise<AsyncBuffer> {
  const info = await handle.stat().catch((error: unknown) => {
    throw readError(file, error);
  });
  if (info.isDirectory()) throw directoryError(file);
  const size = info.size;
  checkInputSize(file, size, maxBytes);
  return {
    byteLength: size,
    slice: async (start, end = size) => {
      const bytes = new Uint8Array(end - start);
      const { bytesRead } = await handle.read(bytes, 0, bytes.length, start);
      if (bytesRead !== bytes.length) throw new Error(`the file ended at byte ${start + bytesRead}, before byte ${end} (was it cut short or changed while being read?)`);
      return bytes.buffer;
    },
  };
}

async function readFooter(buffer: AsyncBuffer, file: string): Promise<FileMetaData> {
  try {
    return await parquetMetadataAsync(buffer);
  } catch (error) {
    throw inputError(
      file,
      `not a readable Parquet file (${reasonOf(error)})`,
      'A Parquet file ends with the bytes PAR1 after its footer; check that the file is Parquet and complete, or give JSONL or CSV a .jsonl or .csv name',
      error,
    );
  }
}

/**
 * The same bound on what is held in memory as the text readers': a Parquet
 * file is compressed, so its decoded columns, as its footer declares them,
 * must fit the limit too.
 */
function checkDecodedSize(metadata: FileMetaData, file: string, maxBytes: number): void {
  let decoded = 0;
  for (const group of metadata.row_groups) for (const chunk of group.columns) decoded += Number(chunk.meta_data?.total_uncompressed_size ?? 0n);
  if (decoded <= maxBytes) return;
  throw inputError(
    file,
    `the file's columns decode to ${sizeText(decoded)}, more than the ${sizeText(maxBytes)} tmas reads as a problem file`,
    'Keep only the problems to run (and the columns they need), or split the file into several runs',
  );
}

/** Decodes one row group at a time and turns its rows into problems before the next is read. */
async function readRows(buffer: AsyncBuffer, { metadata, utf8 }: DecimalReading, columns: ParquetResolved, file: string): Promise<LocatedProblem[]> {
  const located: LocatedProblem[] = [];
  let start = 0;
  for (const group of metadata.row_groups) {
    const end = start + Number(group.num_rows);
    let rows: Array<Record<string, unknown>>;
    try {
      rows = await parquetReadObjects({ file: buffer, metadata, rowStart: start, rowEnd: end, rowFormat: 'object', parsers: STRICT_TEXT, compressors: DECOMPRESSORS, utf8 });
    } catch (error) {
      if (isUserError(error)) throw error;
      throw inputError(
        file,
        `rows ${start + 1} to ${end} cannot be decoded (${reasonOf(error)})`,
        'The file may be damaged, or use a Parquet feature tmas does not read; write it again, e.g. pandas.read_parquet(IN).to_parquet(OUT)',
        error,
      );
    }
    rows.forEach((row, k) => located.push(toProblemFromRow(row, columns, { file, line: start + k + 1, unit: 'row' })));
    start = end;
  }
  return located;
}

function reasonOf(error: unknown): string {
  const reason = thrownText(error);
  return reason.replace(/^parquet /, '');
}
