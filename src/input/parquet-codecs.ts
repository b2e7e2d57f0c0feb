/**
 * The compressions a Parquet problem file may use. hyparquet decodes
 * uncompressed and Snappy pages itself (pandas' and pyarrow's default); GZIP
 * and Brotli are decoded here by Node's zlib, and ZSTD (polars' default) where
 * this Node.js has it (22.15 and later). Each page is decompressed to no more
 * than the size its header declares, so a damaged or hostile page cannot
 * inflate without bound. A file compressed otherwise is refused before any row
 * is read, naming the column and the codec.
 */
import zlib from 'node:zlib';
import type { CompressionCodec, Compressors, FileMetaData } from 'hyparquet';
import { inputError, quote } from './input-error.ts';

/** Node's zstd decoder, present from Node 22.15 on (and not in Node 20's types). */
const zstd = (zlib as { zstdDecompressSync?: (input: Uint8Array, options: { maxOutputLength: number }) => Buffer }).zstdDecompressSync;

/** The decompressors hyparquet is given, beyond its own. */
export const DECOMPRESSORS: Compressors = {
  // unzipSync reads both gzip and zlib streams: writers differ on which the GZIP codec means.
  GZIP: (input, size) => zlib.unzipSync(input, { maxOutputLength: Math.max(size, 1) }),
  BROTLI: (input, size) => zlib.brotliDecompressSync(input, { maxOutputLength: Math.max(size, 1) }),
  ...(zstd === undefined ? {} : { ZSTD: (input: Uint8Array, size: number) => zstd(input, { maxOutputLength: Math.max(size, 1) }) }),
};

const BUILT_IN: readonly CompressionCodec[] = ['UNCOMPRESSED', 'SNAPPY'];

/** Throws `TMAS_INPUT` when a column chunk of the file uses a codec tmas cannot decompress. */
export function checkCodecs(metadata: FileMetaData, file: string): void {
  for (const group of metadata.row_groups) {
    for (const chunk of group.columns) {
      const codec = chunk.meta_data?.codec;
      if (codec === undefined || BUILT_IN.includes(codec) || DECOMPRESSORS[codec] !== undefined) continue;
      const column = chunk.meta_data?.path_in_schema.join('.') ?? '?';
      const later = codec === 'ZSTD' ? ` (Node.js ${process.versions.node} has no ZSTD decoder; Node 22.15 and later have one)` : '';
      throw inputError(
        file,
        `the column ${quote(column)} is compressed with ${codec}, which tmas cannot decompress${later}`,
        "Write the file again with Snappy (pandas' and pyarrow's default), GZIP, Brotli or no compression, e.g. pandas.read_parquet(IN).to_parquet(OUT)",
      );
    }
  }
}
