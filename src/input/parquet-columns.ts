/**
 * Which columns of a Parquet file hold a problem's id, question, answer and
 * reference solution, checked against the file's schema before any row is read.
 *
 * The names come from the same options as CSV (`idColumn`, `questionColumn`,
 * `answerColumn`). Their defaults are IMO-AnswerBench's CSV header (`Problem
 * ID`, `Problem`, `Short Answer`), which a Parquet file from Hugging Face rarely
 * has: when an option is left at its default and the file lacks that column,
 * the JSONL field names are tried next (`problem_id` or `id`, `question` or
 * `problem`, `answer`), so such a file loads without options. A name the user
 * gave must exist. A column named `solution` is the reference solution, as in JSONL.
 *
 * Those columns must be flat and of a type that holds the field: a list, a
 * struct or a map is refused with its name, as is a question column of
 * numbers. Every other column is kept in the problem's `extra`, nested or not.
 */
import type { SchemaElement, SchemaTree } from 'hyparquet';
import { inputError, optionHint, quote } from './input-error.ts';

/** The column names asked for; undefined (or the CSV default) lets the file's own names decide. */
export interface ParquetColumns {
  id?: string;
  question?: string;
  answer?: string;
}

/** The columns that hold each field; `answer` and `solution` only when the file has them. */
export interface ResolvedColumns {
  id: string;
  question: string;
  answer?: string;
  solution?: string;
}

/** What a flat column's values are, as the problem fields need to know. */
type ValueKind = 'text' | 'integer' | 'number' | 'other';

interface Field {
  /** How messages name the field (plural). */
  what: string;
  option: 'idColumn' | 'questionColumn' | 'answerColumn';
  /** The CSV default, tried first. */
  csvDefault: string;
  /** The JSONL names, tried next when the option was left at its default. */
  jsonNames: readonly string[];
  kinds: readonly ValueKind[];
  /** What the field's column must hold, for the message of one that does not. */
  holds: string;
}

const FIELDS = {
  id: { what: 'problem ids', option: 'idColumn', csvDefault: 'Problem ID', jsonNames: ['problem_id', 'id'], kinds: ['text', 'integer'], holds: 'text or integers' },
  question: { what: 'questions', option: 'questionColumn', csvDefault: 'Problem', jsonNames: ['question', 'problem'], kinds: ['text'], holds: 'text' },
  answer: { what: 'reference answers', option: 'answerColumn', csvDefault: 'Short Answer', jsonNames: ['answer'], kinds: ['text', 'integer', 'number'], holds: 'text or numbers' },
} as const satisfies Record<string, Field>;

/** The JSONL field of a reference solution; a Parquet column of that name is read as one. */
const SOLUTION_COLUMN = 'solution';

/** Picks and checks the columns of each field; throws `TMAS_INPUT` naming the file and the column. */
export function resolveColumns(schema: SchemaTree, file: string, asked: ParquetColumns): ResolvedColumns {
  const byName = new Map(schema.children.map((column) => [column.element.name, column]));
  const pick = (field: Field, name: string | undefined, required: boolean): string | undefined => {
    const chosen = chooseColumn(field, name, byName, file, required);
    if (chosen !== undefined) checkColumn(byName.get(chosen) as SchemaTree, field.kinds, file, `The ${field.what} must be ${field.holds}: name another column with ${optionHint(field.option)}, or convert this one`);
    return chosen;
  };
  const id = pick(FIELDS.id, asked.id, true) as string;
  const question = pick(FIELDS.question, asked.question, true) as string;
  const answer = pick(FIELDS.answer, asked.answer, false);
  const solutionColumn = byName.get(SOLUTION_COLUMN);
  const solution = solutionColumn === undefined || [id, question, answer].includes(SOLUTION_COLUMN) ? undefined : SOLUTION_COLUMN;
  if (solutionColumn !== undefined && solution !== undefined) {
    checkColumn(solutionColumn, ['text'], file, `A column named "${SOLUTION_COLUMN}" is read as the reference solution, which must be text: rename the column if it is something else`);
  }
  return { id, question, ...(answer === undefined ? {} : { answer }), ...(solution === undefined ? {} : { solution }) };
}

/** The column a field reads from: the one asked for, else the CSV default, else a JSONL name. */
function chooseColumn(field: Field, asked: string | undefined, byName: Map<string, SchemaTree>, file: string, required: boolean): string | undefined {
  const present = [...byName.keys()].map((name) => quote(name)).join(', ');
  if (asked !== undefined && asked !== field.csvDefault) {
    if (byName.has(asked)) return asked;
    // A name the user typed is a typo when it is missing, even for the optional answer.
    throw inputError(file, `the Parquet file has no column ${quote(asked)} (it has: ${present})`, `Name one of its columns with ${optionHint(field.option)}`);
  }
  const tried = [field.csvDefault, ...field.jsonNames];
  const found = tried.find((name) => byName.has(name));
  if (found !== undefined || !required) return found;
  throw inputError(
    file,
    `the Parquet file has none of the columns tmas looks for the ${field.what} in (${tried.map((name) => quote(name)).join(', ')}); it has: ${present}`,
    `Name the column of ${field.what} with ${optionHint(field.option)}`,
  );
}

/** Refuses a nested column, or a flat one whose values are not of the kinds the field takes. */
function checkColumn(column: SchemaTree, kinds: readonly ValueKind[], file: string, fix: string): void {
  const { name } = column.element;
  const nested = nestedShape(column);
  if (nested !== undefined) {
    throw inputError(file, `the column ${quote(name)} is a ${nested} column, and tmas reads a problem's fields only from flat columns`, fix);
  }
  if (!kinds.includes(kindOf(column.element))) {
    throw inputError(file, `the column ${quote(name)} holds ${typeName(column.element)} values`, fix);
  }
}

/** `list`, `map` or `struct` for a nested column; undefined for a flat one. */
export function nestedShape(column: SchemaTree): string | undefined {
  const { element } = column;
  if (element.repetition_type === 'REPEATED') return 'list';
  if (column.children.length === 0) return undefined;
  const annotation = element.logical_type?.type ?? element.converted_type;
  if (annotation === 'LIST') return 'list';
  if (annotation === 'MAP' || annotation === 'MAP_KEY_VALUE') return 'map';
  return 'struct';
}

/** What a flat column's values decode to (hyparquet decodes unannotated byte arrays as UTF-8 text). */
function kindOf(element: SchemaElement): ValueKind {
  const logical = element.logical_type?.type;
  const converted = element.converted_type;
  if (logical === 'DECIMAL' || converted === 'DECIMAL' || logical === 'FLOAT16' || element.type === 'FLOAT' || element.type === 'DOUBLE') return 'number';
  if (element.type === 'BYTE_ARRAY') {
    const plain = logical === undefined && converted === undefined;
    return plain || logical === 'STRING' || logical === 'ENUM' || converted === 'UTF8' || converted === 'ENUM' ? 'text' : 'other';
  }
  if (element.type === 'INT32' || element.type === 'INT64') {
    const integer = (logical === undefined || logical === 'INTEGER') && (converted === undefined || /^U?INT_/.test(converted));
    return integer ? 'integer' : 'other';
  }
  return 'other';
}

/** `INT64`, `DOUBLE`, `TIMESTAMP`, `JSON`…: the annotation when there is one, else the physical type. */
function typeName(element: SchemaElement): string {
  return element.logical_type?.type ?? element.converted_type ?? element.type ?? 'unknown';
}
