/** Settings of the problems a run reads: the file and, for CSV, its columns. */
import path from 'node:path';
import { UserError } from '../../kernel/errors.ts';
import { packagePath } from '../../kernel/package-root.ts';
import { field } from '../field.ts';
import { setting } from '../setting.ts';

/** The demo problem set shipped with tmas. */
export const DEMO_PROBLEMS = packagePath('problems/demo.jsonl');

/** A column flag of the input: what it names, its field of the configuration, and the names tried without it. */
export interface ColumnFlag {
  flags: string;
  what: string;
  key: 'idColumn' | 'questionColumn' | 'answerColumn';
  defaultText: string;
}

const columnFlag = (flags: string, what: string, key: ColumnFlag['key'], names: string, json: string, note = ''): ColumnFlag => ({
  flags,
  what,
  key,
  defaultText: `in CSV and Parquet, ${names}; in JSON, ${json}; exactly, then in any case${note}`,
});

/** The column flags of every command that reads a problem file (tmas run, plan, table1, sim-server). */
export const COLUMN_FLAGS: readonly ColumnFlag[] = [
  columnFlag('--id-column <name>', 'problem ids', 'idColumn', 'Problem ID, else problem_id or id', 'problem_id or id, else Problem ID'),
  columnFlag('--question-column <name>', 'questions', 'questionColumn', 'Problem, else question or problem', 'question or problem, else Problem'),
  columnFlag('--answer-column <name>', 'reference answers', 'answerColumn', 'Short Answer, else answer', 'answer, else Short Answer', '; a file without it loads ungraded'),
];

/** A column flag's value: null when not given (the format's own names then); an empty name is refused. */
export function columnName({ flags, what }: ColumnFlag): (name: string | undefined) => string | null {
  return (name) => {
    // An empty name read no column in JSON (the defaults were used, silently) and looked for a column named "" in CSV.
    if (name !== undefined && name.trim() === '') throw new UserError('TMAS_USAGE', `${flags.split(' ')[0]} is empty: give the name of the column of ${what}, or leave the flag out to use the file's own names.`);
    return name ?? null;
  };
}

/** A column flag of the input (a field of a JSONL or JSON file): null when not given, the format's own names then. */
function column(flag: ColumnFlag) {
  return setting<string, string | null>({
    flags: flag.flags,
    section: 'problems',
    help: `the column (or JSON field) of ${flag.what}`,
    defaultText: flag.defaultText,
    // Read with --input-file only: a resume or a fork without it reads the run's problems from its store.
    namesTheRun: true,
    field: field('problems', flag.key),
    resolve: columnName(flag),
  });
}

/** `--input-file` and the CSV and Parquet columns. */
export const PROBLEM_SETTINGS = [
  setting<string>({
    flags: '--input-file <file>',
    section: 'problems',
    help: 'problems: JSONL with problem_id, question and optional answer, or a .csv (.tsv) or .parquet file',
    namesTheRun: true,
    field: field('problems', 'inputFile'),
    resolve: (file, { demo }) => {
      // The demo's settings (N, M, a simulated judge) are for its own problems: with another file they would pass unnoticed.
      if (demo && file !== undefined) throw new UserError('TMAS_USAGE', `--demo runs the bundled demo set with its own settings: leave it out to run ${file} (--input-file).`);
      // An empty value would resolve to the current directory, and be refused as a directory that is no problem file.
      if (file !== undefined && file.trim() === '') throw new UserError('TMAS_USAGE', '--input-file is empty: give the path of the problem file.');
      const input = file ?? (demo ? DEMO_PROBLEMS : undefined);
      if (input === undefined) {
        throw new UserError('TMAS_USAGE', 'No problems to solve: give --input-file FILE (JSONL with problem_id, question, answer), or --demo to run the bundled demo set.');
      }
      return path.resolve(input);
    },
  }),
  ...COLUMN_FLAGS.map(column),
];
