/**
 * Which columns of a Parquet file hold a problem's id, question, answer and
 * reference solution, checked against the file's schema before any row is read.
 *
 * The names are picked as a CSV header's are (columns.ts): a name the user
 * gave must exist; left out, IMO-AnswerBench's CSV names, then the JSONL ones
 * (`problem_id` or `id`, `question` or `problem`, `answer`), so a Hugging Face
 * file loads without options. A column named `solution` is the reference solution.
 *
 * Those columns must be flat and of a type that holds the field: a list, a
 * struct or a map is refused with its name, as is a question column of
 * numbers. Every other column is kept in the problem's `extra`, nested or not.
 */
import type { SchemaElement, SchemaTree } from 'hyparquet';
import { resolveColumnNames, type AskedColumns, type ColumnField, type ResolvedColumns } from './columns.ts';
import { inputError, optionHint, quote } from './input-error.ts';
import { isDecimal } from './parquet-decimals.ts';
import type { NumberForm } from './parquet-values.ts';

/** The columns of each field, and the number columns whose values are written otherwise than as a double prints (parquet-values.ts). */
export interface ParquetResolved extends ResolvedColumns {
  numberForms: ReadonlyMap<string, NumberForm>;
}

/** The column names asked for (a name given must exist); undefined lets the file's own names decide. */
export type ParquetColumns = AskedColumns;

/** What a flat column's values are, as the problem fields need to know. */
type ValueKind = 'text' | 'integer' | 'number' | 'other';

/** What each field's column must hold, and how a message says so. */
const KINDS: Record<ColumnField['option'], { kinds: readonly ValueKind[]; holds: string }> = {
  idColumn: { kinds: ['text', 'integer'], holds: 'text or integers' },
  questionColumn: { kinds: ['text'], holds: 'text' },
  answerColumn: { kinds: ['text', 'integer', 'number'], holds: 'text or numbers' },
};

/** Picks and checks the columns of each field; throws `TMAS_INPUT` naming the file and the column. */
export function resolveColumns(schema: SchemaTree, file: string, asked: ParquetColumns): ParquetResolved {
  const byName = new Map(schema.children.map((column) => [column.element.name, column]));
  const table = { names: [...byName.keys()], kind: 'the Parquet file', where: file };
  const resolved = resolveColumnNames(table, asked, (column, field) => {
    const { kinds, holds } = KINDS[field.option];
    checkColumn(byName.get(column) as SchemaTree, kinds, file, `The ${field.what} must be ${holds}: name another column with ${optionHint(field.option)}, or convert this one`);
  });
  if (resolved.solution !== undefined) {
    checkColumn(byName.get(resolved.solution) as SchemaTree, ['text'], file, `A column named "${resolved.solution}" is read as the reference solution, which must be text: rename the column if it is something else`);
  }
  const numberForms = new Map(schema.children.flatMap((column) => {
    const form = nestedShape(column) === undefined ? numberFormOf(column.element) : undefined;
    return form === undefined ? [] : [[column.element.name, form] as const];
  }));
  return { ...resolved, numberForms };
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

/** How a flat number column's values are written: a float's shortest decimal, a decimal's digits at its scale; undefined for a double or an integer. */
function numberFormOf(element: SchemaElement): NumberForm | undefined {
  if (isDecimal(element)) return { scale: element.scale ?? 0 };
  return element.type === 'FLOAT' ? 'float32' : undefined;
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
  if (isDecimal(element) || logical === 'FLOAT16' || element.type === 'FLOAT' || element.type === 'DOUBLE') return 'number';
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
