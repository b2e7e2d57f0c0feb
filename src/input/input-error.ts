/**
 * The one way a problem-file mistake is reported: a `UserError` with code
 * `TMAS_INPUT` whose message is one paragraph, `<file>:<line>: <what>. <fix>`,
 * so terminals and editors can link straight to the line.
 */
import { UserError } from '../kernel/errors.ts';
import type { SourceLocation } from './problem.ts';

/** Error code of every mistake in a problem file. */
export const INPUT_ERROR_CODE = 'TMAS_INPUT';

/**
 * Formats a location as `file:line`, adding the array index when the file is
 * one JSON array; a row of a Parquet file as `file row N` (no editor opens it at a line).
 */
export function formatLocation(where: SourceLocation): string {
  if (where.unit === 'row') return `${where.file} row ${where.line}`;
  const index = where.index === undefined ? '' : ` (array index ${where.index})`;
  return `${where.file}:${where.line}${index}`;
}

/** A place within its file, for a message that names a second one: `line 3`, `row 3`, `line 3 (array index 1)`. */
export function formatPlace(where: SourceLocation): string {
  const index = where.index === undefined ? '' : ` (array index ${where.index})`;
  return `${where.unit ?? 'line'} ${where.line}${index}`;
}

/** How a message names a loader option: `the idColumn option (--id-column on the command line)`. */
export function optionHint(option: string): string {
  const flag = `--${option.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
  return `the ${option} option (${flag} on the command line)`;
}

/**
 * Builds the error for a mistake at `where` (a location, or just the file name
 * when the mistake has no line, like a missing file).
 *
 * @example
 * throw inputError({ file, line: 3 }, '"question" is missing', 'Add "question": "<the statement>"');
 */
export function inputError(
  where: SourceLocation | string,
  what: string,
  fix: string,
  cause?: unknown,
): UserError {
  const place = typeof where === 'string' ? where : formatLocation(where);
  // Parser reasons and quoted values may carry newlines; the CLI prints one paragraph.
  const message = `${place}: ${oneLine(what)}. ${sentence(fix)}`;
  return new UserError(INPUT_ERROR_CODE, message, cause === undefined ? undefined : { cause });
}

/** Quotes a user value for a message, cut short so a 10 MB field cannot flood the terminal. */
export function quote(value: string, max = 80): string {
  const shown = value.length > max ? `${value.slice(0, max)}…` : value;
  return JSON.stringify(shown);
}

function sentence(text: string): string {
  const line = oneLine(text);
  return /[.!?]$/.test(line) ? line : `${line}.`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
