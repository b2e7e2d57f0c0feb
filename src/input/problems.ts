/**
 * Loading a problem file: JSONL (or one JSON array of objects), CSV when the
 * name ends in `.csv` (or tab-separated `.tsv`), Parquet when it ends in `.parquet`. Every mistake is a `UserError` with code `TMAS_INPUT`
 * whose message reads `<file>:<line>: <what is wrong>. <how to fix it>`.
 *
 * Decisions worth knowing:
 * - A missing problem id is an error, not numbered by position: results are
 *   keyed by id, and a position would name another problem after an edit.
 * - A file that starts with `[` and is one JSON array of objects is accepted;
 *   its errors name the array index and the line the element starts on.
 * - Ids are read without the spaces around them, and must be unique; a duplicate
 *   names both lines (rows, in Parquet).
 * - No file over MAX_INPUT_BYTES is read, whatever its format.
 * - A text file's lines may end in LF, CRLF or a lone CR, mixed: each is one line break.
 */
import { COLUMN_FIELDS, type AskedColumns } from './columns.ts';
import { formatPlace, inputError, quote } from './input-error.ts';
import { MAX_INPUT_BYTES } from './input-size.ts';
import { parseJsonArray } from './json-array.ts';
import { toProblemFromJson, type JsonFields } from './json-record.ts';
import { parseJsonLines } from './jsonl.ts';
import type { LocatedProblem, Problem } from './problem.ts';
import { readProblemText, type PipeWaits } from './read-text.ts';

export type { Problem } from './problem.ts';
export { INPUT_ERROR_CODE } from './input-error.ts';
export { MAX_INPUT_BYTES } from './input-size.ts';

/** How to read a problem file. */
export interface LoadOptions {
  /**
   * CSV and Parquet column mapping; left out, the IMO-AnswerBench CSV header's names
   * (Problem ID,Problem,Short Answer,Category,Subcategory,Source) are tried, then the
   * JSONL names, exactly and then in any case (columns.ts).
   */
  /** null or absent: the format's own names. */
  idColumn?: string | null;
  questionColumn?: string | null;
  answerColumn?: string | null;
  /** Most bytes of a problem file (default MAX_INPUT_BYTES); a larger one is refused unread. */
  maxBytes?: number;
  /** Most milliseconds a FIFO waits for a writer to open it (default PIPE_WAIT_MS), and for its writer's next bytes (default PIPE_SILENCE_MS). */
  pipeWaits?: PipeWaits;
}


/**
 * Loads and validates a problem file (JSONL, or by extension CSV or Parquet).
 * Throws UserError (code 'TMAS_INPUT') naming the file, the line, what is wrong
 * and how to fix it. Never writes anything.
 *
 * @example
 * const problems = await loadProblems('problems/demo.jsonl');
 * const bench = await loadProblems('answerbench.csv', { answerColumn: 'Answer' });
 * const hub = await loadProblems('test-00000-of-00001.parquet');
 */
export async function loadProblems(file: string, options: LoadOptions = {}): Promise<Problem[]> {
  const maxBytes = options.maxBytes ?? MAX_INPUT_BYTES;
  // The Parquet and CSV readers (hyparquet, csv-parse: 0.1 CPU-s a process) load only for a file of theirs.
  const located = file.toLowerCase().endsWith('.parquet') ? await (await import('./parquet.ts')).readParquetProblems(file, askedColumns(options), maxBytes) : await readTextProblems(file, options, maxBytes);
  const written = trimIds(located);
  checkIds(located, written);
  return located.map(({ problem }) => problem);
}

async function readTextProblems(file: string, options: LoadOptions, maxBytes: number): Promise<LocatedProblem[]> {
  const written = await readProblemText(file, maxBytes, options.pipeWaits);
  const csv = /\.(csv|tsv)$/i.test(file);
  // CRLF (Windows) and a lone CR (classic Mac OS, and Excel for Mac's "CSV" still) end a line as LF does: a file of CR-only
  // lines failed at line 1 as one long line. JSON text holds no raw CR but as whitespace, so no string is changed by
  // making its line ends LF. A CSV is parsed as written (csv.ts takes all three as record ends): a quoted field's own
  // line breaks are its text, and a multi-line question exported on Windows reached the prompt with its CRLFs made LF.
  const text = csv ? written : written.replace(/\r\n?/g, '\n');
  if (text.trim() === '') {
    throw inputError(
      file,
      'no problems found: the file is empty or holds only blank lines',
      csv
        ? `Write a header row (e.g. ${Object.values(COLUMN_FIELDS).map((field) => field.csvDefault).join(',')}) and one row per problem`
        : 'Write one JSON object per line, e.g. {"problem_id": "p1", "question": "What is 1+1?", "answer": "2"}',
    );
  }
  return csv ? (await import('./csv.ts')).parseCsvProblems(text, file, askedColumns(options)) : parseJsonProblems(text, file, { id: options.idColumn, question: options.questionColumn, answer: options.answerColumn });
}

function parseJsonProblems(text: string, file: string, fields: JsonFields): LocatedProblem[] {
  const items = parseJsonArray(text, file) ?? parseJsonLines(text, file);
  if (items.length === 0) {
    // Blank text was caught earlier, so this is an empty array.
    throw inputError({ file, line: 1 }, 'no problems found: the JSON array is empty', 'Add one object per problem');
  }
  return items.map((item) => toProblemFromJson(item, fields));
}

/** The columns the options name (a CSV's or a Parquet file's); those left out are picked from the file's own names (columns.ts). */
function askedColumns(options: LoadOptions): AskedColumns {
  return { id: options.idColumn ?? undefined, question: options.questionColumn ?? undefined, answer: options.answerColumn ?? undefined };
}

/** The longest problem id: ids head every line of progress, messages and tables. */
export const MAX_ID_CHARS = 256;

/** Characters an id may not hold: control characters break the lines, tables and logs that print it. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Takes the spaces around each id off (`"p1 "` is `p1`): an id keys the saved results, and `"p1"` and `"p1 "`
 * ran as two problems that every table showed alike. An id already without them is unchanged, so a run
 * made from a clean file resumes as it was. Returns the ids as written, of the problems whose id changed.
 */
function trimIds(located: LocatedProblem[]): Map<LocatedProblem, string> {
  const written = new Map<LocatedProblem, string>();
  for (const entry of located) {
    const { id } = entry.problem;
    const trimmed = id.trim();
    if (trimmed === id) continue;
    written.set(entry, id);
    entry.problem.id = trimmed;
  }
  return written;
}

/** Where an id was written with spaces around it, a duplicate's message says so: the two lines do not read alike. */
function asWritten(entry: LocatedProblem, written: ReadonlyMap<LocatedProblem, string>): string {
  const raw = written.get(entry);
  return raw === undefined ? '' : ` (written ${quote(raw)}: the spaces around an id are not part of it)`;
}

/** Each id printable, at most MAX_ID_CHARS long, and unique; the first that is not is named with its line. */
function checkIds(located: LocatedProblem[], written: ReadonlyMap<LocatedProblem, string>): void {
  const first = new Map<string, LocatedProblem>();
  for (const entry of located) {
    const { id } = entry.problem;
    if (id.length > MAX_ID_CHARS) throw inputError(entry.where, `problem id ${quote(id)} is ${id.length} characters long, over ${MAX_ID_CHARS}`, 'Give it a shorter id; the question holds the text');
    if (CONTROL.test(id)) throw inputError(entry.where, `problem id ${quote(id)} holds a control character (a line break, tab or NUL)`, 'Give it an id of printable characters');
    const earlier = first.get(entry.problem.id);
    if (earlier === undefined) {
      first.set(entry.problem.id, entry);
      continue;
    }
    throw inputError(
      entry.where,
      `duplicate problem id ${quote(entry.problem.id)}${asWritten(entry, written)}, already used on ${formatPlace(earlier.where)}${asWritten(earlier, written)}`,
      'Give every problem a unique id; results are saved under it',
    );
  }
}
