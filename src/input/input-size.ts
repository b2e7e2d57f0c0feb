/**
 * The largest problem file tmas reads, whatever its format. Every reader holds
 * all the problems in memory and the run keeps them in its store, so a file far
 * beyond any benchmark (IMO-AnswerBench's 400 problems are well under 1 MB) is
 * refused before it is read, with a message that says so, rather than failing
 * later on V8's string limit (about 512 MiB of text) or running out of memory.
 */
import { inputError } from './input-error.ts';

/** Most bytes of a problem file: 256 MiB. */
export const MAX_INPUT_BYTES = 256 * 2 ** 20;

/** Throws `TMAS_INPUT` naming the file when it holds more than `maxBytes`. */
export function checkInputSize(file: string, size: number, maxBytes: number): void {
  if (size <= maxBytes) return;
  throw inputError(
    file,
    `the file is ${sizeText(size)}, more than the ${sizeText(maxBytes)} tmas reads as a problem file`,
    'Keep only the problems to run (for example the split or the rows you evaluate), or split the file into several runs',
  );
}

/** `300 MiB`, `1.5 MiB`, `812 bytes`. */
export function sizeText(bytes: number): string {
  if (bytes < 2 ** 20) return `${bytes} bytes`;
  const value = bytes / 2 ** 20;
  return `${value >= 10 ? Math.round(value) : value.toFixed(1)} MiB`;
}
