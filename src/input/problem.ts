/**
 * The problem record every run starts from, and where in its file each one came
 * from (kept only while loading, so that errors can point at a line).
 */

/** One benchmark problem, as loaded from a problem file. */
export interface Problem {
  /** Unique within its file; keys the saved results, so a run can resume. */
  id: string;
  question: string;
  /** The reference answer; absent when the file gives none (the run then cannot grade it). */
  answer?: string;
  /** A reference solution, optional. */
  solution?: string;
  /** Unknown extra fields, kept as given. */
  extra: Record<string, unknown>;
}

/** Where a problem (or a mistake) sits in its file. */
export interface SourceLocation {
  file: string;
  /** 1-based line where the record starts (its row, when `unit` is `row`). */
  line: number;
  /** Index in the top-level JSON array, when the file is one. */
  index?: number;
  /** `row` in a file of rows rather than lines of text (Parquet): `line` counts rows, from 1. */
  unit?: 'row';
}

/** A loaded problem with the place it came from, for duplicate-id messages. */
export interface LocatedProblem {
  problem: Problem;
  where: SourceLocation;
}

/**
 * A problem from its fields, with the place it came from; an answer or a
 * solution that is undefined is left out, so the stored JSON has no such key.
 */
export function locatedProblem(
  fields: { id: string; question: string; answer: string | undefined; solution: string | undefined; extra: Record<string, unknown> },
  where: SourceLocation,
): LocatedProblem {
  const { id, question, answer, solution, extra } = fields;
  return {
    problem: { id, question, ...(answer === undefined ? {} : { answer }), ...(solution === undefined ? {} : { solution }), extra },
    where,
  };
}
