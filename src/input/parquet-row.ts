/**
 * One Parquet row as a problem, checked as a JSONL line is: an id and a
 * question that are present and not blank, an answer and a solution that may
 * be missing (null or blank), and every other column kept in `extra`. The
 * column types were checked once, on the schema (parquet-columns.ts), so what
 * is left to refuse here is a row's own cells.
 */
import { inputError, quote } from './input-error.ts';
import type { ParquetResolved } from './parquet-columns.ts';
import { cellText, jsonCell } from './parquet-values.ts';
import { locatedProblem, type LocatedProblem, type SourceLocation } from './problem.ts';

/** Converts one row; throws `TMAS_INPUT` naming the row and the column. */
export function toProblemFromRow(row: Record<string, unknown>, columns: ParquetResolved, where: SourceLocation): LocatedProblem {
  const required = (column: string, what: string, fix: string): string => {
    const value = cellText(row[column], column, where, columns.numberForms.get(column));
    if (value === undefined) throw inputError(where, `the ${what} (column ${quote(column)}) is missing: the cell is null`, fix);
    if (value.trim() === '') throw inputError(where, `the ${what} (column ${quote(column)}) is empty`, fix);
    return value;
  };
  const optional = (column: string | undefined): string | undefined => {
    const value = column === undefined ? undefined : cellText(row[column], column, where, columns.numberForms.get(column));
    return value === undefined || value.trim() === '' ? undefined : value;
  };
  const id = required(columns.id, 'problem id', 'Give every problem a unique, non-empty id; ids key the saved results, so an interrupted run can resume');
  const question = required(columns.question, 'question', 'Write the problem statement, or delete the row');
  const answer = optional(columns.answer);
  const solution = optional(columns.solution);
  const used = new Set<string>([columns.id, columns.question, columns.answer ?? '', columns.solution ?? '']);
  // fromEntries defines properties, so a "__proto__" column stays a plain field.
  const extra = Object.fromEntries(Object.entries(row).filter(([column]) => !used.has(column)).map(([column, value]) => [column, jsonCell(value, column, where, columns.numberForms.get(column))]));
  return locatedProblem({ id, question, answer, solution, extra }, where);
}
