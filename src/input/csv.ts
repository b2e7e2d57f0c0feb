/**
 * CSV problem files, parsed by csv-parse (quoted fields may hold commas, quotes
 * and newlines). The first record is the header; columns are picked by name as
 * a Parquet file's are (columns.ts), and every other column is kept in `extra`.
 * Each problem's line is the line its CSV record starts on, which differs from
 * the record number once a field spans lines.
 */
import { parse } from 'csv-parse/sync';
import { resolveColumnNames, type AskedColumns } from './columns.ts';
import { csvDelimiter, delimiterName } from './csv-delimiter.ts';
import { inputError, quote } from './input-error.ts';
import { locatedProblem, type LocatedProblem, type SourceLocation } from './problem.ts';

const QUOTING_FIX =
  'Wrap any field that contains commas, double quotes or line breaks in double quotes, and write a double quote inside such a field as ""';

/** A line's end as a CSV file may write it, record separators and a quoted field's own line breaks alike: CRLF, a lone CR, LF. */
const LINE_END = /\r\n|\r|\n/;

/** Parses CSV text into problems, with every record's starting line; its fields are split on the separator its header uses (csv-delimiter.ts). */
export function parseCsvProblems(text: string, file: string, asked: AskedColumns): LocatedProblem[] {
  const lines = text.split(LINE_END);
  const startLineAfter = (endLine: number): number => {
    let line = endLine + 1;
    while (lines[line - 1] === '') line++;
    return line;
  };
  // csv-parse counts a quoted CRLF as two lines: each record's last line is counted here, from the bytes it read.
  const lineEndsBefore = lineEndCounter(text);
  const endLines: number[] = [];
  const delimiter = csvDelimiter(file, text);
  let records: string[][];
  try {
    records = parse(text, {
      delimiter,
      // Tab-separated text has no quoting convention: a quote inside a field is the field's own.
      relax_quotes: delimiter === '\t',
      // Hand-written CSV puts a space after each comma ("id, question, answer"): a header name, an id or a
      // quote opening after it would not be read (a quoted field after a space was a parse error). Quoted text keeps its spaces.
      trim: true,
      skip_empty_lines: true,
      // The text is as written (problems.ts): a record ends at any of the three, a quoted field keeps its own as they are.
      record_delimiter: ['\r\n', '\n', '\r'],
      on_record: (record, context) => {
        endLines.push(lineEndsBefore(context.bytes));
        return record;
      },
    });
  } catch (error) {
    const where = { file, line: startLineAfter(endLines.at(-1) ?? 0) };
    const reason = error instanceof Error ? error.message.replace(/\s+(at|on) line \d+/g, '') : String(error);
    throw inputError(where, `the CSV record starting here cannot be parsed (${reason}; fields are split on ${delimiterName(delimiter)}, as the header's are)`, QUOTING_FIX, error);
  }
  const [header, ...rows] = records;
  const headerWhere = { file, line: startLineAfter(0) };
  if (header === undefined) throw inputError(headerWhere, 'the CSV has no header row', 'Start the file with a header row');
  checkHeader(header, headerWhere);
  const columns = resolveColumnNames({ names: header, kind: 'the CSV header', where: headerWhere }, asked);
  const indexOf = (name: string | undefined): number => (name === undefined ? -1 : header.indexOf(name));
  const [idAt, questionAt, answerAt, solutionAt] = [indexOf(columns.id), indexOf(columns.question), indexOf(columns.answer), indexOf(columns.solution)];
  if (rows.length === 0) {
    throw inputError(headerWhere, 'the CSV has a header row but no problems', 'Add one row per problem below the header');
  }
  return rows.map((row, k) => {
    const where = { file, line: startLineAfter(endLines[k] ?? 0) };
    const cell = (at: number): string => row[at] ?? '';
    const id = requireCell(cell(idAt), columns.id, where, 'Give every row a unique id');
    const question = requireCell(cell(questionAt), columns.question, where, 'Write the problem statement, or delete the row');
    // A blank cell is how spreadsheets say "no answer" (or no reference solution).
    const optional = (index: number): string | undefined => (index === -1 || cell(index).trim() === '' ? undefined : cell(index));
    const used = new Set([idAt, questionAt, answerAt, solutionAt]);
    const extra = Object.fromEntries(header.flatMap((name, index) => (used.has(index) ? [] : [[name, cell(index)]])));
    return locatedProblem({ id, question, answer: optional(answerAt), solution: optional(solutionAt), extra }, where);
  });
}

/**
 * How many line ends (CRLF, CR or LF, each one) the text's first `bytes` UTF-8
 * bytes hold, asked with `bytes` never less than before: csv-parse tells how
 * far it read in bytes. A CR or LF byte is never part of a multi-byte
 * character, so the bytes are scanned as they are.
 */
function lineEndCounter(text: string): (bytes: number) => number {
  const raw = Buffer.from(text, 'utf8');
  const ends: number[] = [];
  for (let at = 0; at < raw.length; at++) {
    const byte = raw[at];
    if (byte === 0x0a || (byte === 0x0d && raw[at + 1] !== 0x0a)) ends.push(at + 1);
  }
  // The records come in order, so the count goes on from the last one's.
  let count = 0;
  return (bytes) => {
    while (count < ends.length && (ends[count] as number) <= bytes) count++;
    return count;
  };
}

function checkHeader(header: string[], where: SourceLocation): void {
  const seen = new Set<string>();
  for (const name of header) {
    if (seen.has(name)) {
      throw inputError(where, `the CSV header names the column ${quote(name)} twice`, 'Give every column a distinct name');
    }
    seen.add(name);
  }
}

function requireCell(value: string, column: string, where: SourceLocation, fix: string): string {
  if (value.trim() === '') throw inputError(where, `the ${quote(column)} cell is empty`, fix);
  return value;
}
