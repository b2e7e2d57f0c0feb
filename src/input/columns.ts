/**
 * Which column of a table (a CSV header, a Parquet schema) holds a problem's
 * id, question, answer and reference solution, by name. CSV and Parquet pick
 * them the same way: a name the user gave (`--id-column`, …) must exist; left
 * out, IMO-AnswerBench's CSV header is tried first (`Problem ID`, `Problem`,
 * `Short Answer`), then the JSONL names (`problem_id` or `id`, `question` or
 * `problem`, `answer`), each exactly, then each whatever its case (`Answer`,
 * `ID`), so a file that names its answers in its own case is not read as one
 * without answers. A column named `solution` (in any case) is the reference
 * solution, as in JSONL.
 */
import { inputError, optionHint, quote } from './input-error.ts';
import type { SourceLocation } from './problem.ts';

/** The column names asked for (a name given must exist); undefined lets the file's own names decide. */
export interface AskedColumns {
  id?: string | undefined;
  question?: string | undefined;
  answer?: string | undefined;
}

/** The columns that hold each field; `answer` and `solution` only when the table has them. */
export interface ResolvedColumns {
  id: string;
  question: string;
  answer?: string;
  solution?: string;
}

/** One field of a problem, as its column is looked for and named in messages. */
export interface ColumnField {
  /** How messages name the field (plural). */
  what: string;
  option: 'idColumn' | 'questionColumn' | 'answerColumn';
  /** The CSV default, tried first. */
  csvDefault: string;
  /** The JSONL names, tried next when the option was left at its default. */
  jsonNames: readonly string[];
}

export const COLUMN_FIELDS = {
  id: { what: 'problem ids', option: 'idColumn', csvDefault: 'Problem ID', jsonNames: ['problem_id', 'id'] },
  question: { what: 'questions', option: 'questionColumn', csvDefault: 'Problem', jsonNames: ['question', 'problem'] },
  answer: { what: 'reference answers', option: 'answerColumn', csvDefault: 'Short Answer', jsonNames: ['answer'] },
} as const satisfies Record<string, ColumnField>;

/** The JSONL field of a reference solution; a column of that name is read as one. */
export const SOLUTION_COLUMN = 'solution';

/** A table's column names and how messages name the table and where it is: `the CSV header` at its line, `the Parquet file`. */
export interface ColumnTable {
  names: readonly string[];
  kind: string;
  where: SourceLocation | string;
}

/** The first of `tried` that is a column: exactly, else whatever its case. */
export function firstPresent(tried: readonly string[], names: readonly string[]): string | undefined {
  const exact = tried.find((name) => names.includes(name));
  if (exact !== undefined) return exact;
  for (const name of tried) {
    const found = names.find((column) => column.toLowerCase() === name.toLowerCase());
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The column a field reads from: the one asked for, else the CSV default, else a JSONL name; throws `TMAS_INPUT` naming the columns. */
export function chooseColumn(field: ColumnField, asked: string | undefined, table: ColumnTable, required: boolean): string | undefined {
  const present = table.names.map((name) => quote(name)).join(', ');
  if (asked !== undefined) {
    if (table.names.includes(asked)) return asked;
    // A name the user typed is a typo when it is missing, even for the optional answer.
    throw inputError(table.where, `${table.kind} has no column ${quote(asked)} (it has: ${present})`, `Name one of its columns with ${optionHint(field.option)}`);
  }
  const tried = [field.csvDefault, ...field.jsonNames];
  const found = firstPresent(tried, table.names);
  if (found !== undefined || !required) return found;
  throw inputError(
    table.where,
    `${table.kind} has none of the columns tmas looks for the ${field.what} in (${tried.map((name) => quote(name)).join(', ')}); it has: ${present} (names are compared exactly, then in any case)`,
    `Name the column of ${field.what} with ${optionHint(field.option)}`,
  );
}

/** Picks the column of each field in `table`, the reference solution's too; `check` is given each column picked, with its field. */
export function resolveColumnNames(table: ColumnTable, asked: AskedColumns, check: (column: string, field: ColumnField) => void = () => {}): ResolvedColumns {
  const pick = (field: ColumnField, name: string | undefined, required: boolean): string | undefined => {
    const chosen = chooseColumn(field, name, table, required);
    if (chosen !== undefined) check(chosen, field);
    return chosen;
  };
  const id = pick(COLUMN_FIELDS.id, asked.id, true) as string;
  const question = pick(COLUMN_FIELDS.question, asked.question, true) as string;
  const answer = pick(COLUMN_FIELDS.answer, asked.answer, false);
  const named = firstPresent([SOLUTION_COLUMN], table.names);
  const solution = named === undefined || [id, question, answer].includes(named) ? undefined : named;
  return { id, question, ...(answer === undefined ? {} : { answer }), ...(solution === undefined ? {} : { solution }) };
}
