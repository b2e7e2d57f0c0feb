/** Settings of the problems a run reads: the file and, for CSV, its columns. */
import path from 'node:path';
import { UserError } from '../kernel/errors.ts';
import { packagePath } from '../kernel/package-root.ts';
import { field } from './field.ts';
import { setting } from './setting.ts';

/** The demo problem set shipped with tmas. */
export const DEMO_PROBLEMS = packagePath('problems/demo.jsonl');

/** `--input-file` and the CSV columns. */
export const PROBLEM_SETTINGS = [
  setting<string>({
    flags: '--input-file <file>',
    section: 'problems',
    help: 'problems: JSONL with problem_id, question and optional answer (or a .csv)',
    field: field('problems', 'inputFile'),
    resolve: (file, { demo }) => {
      const input = file ?? (demo ? DEMO_PROBLEMS : undefined);
      if (input === undefined) {
        throw new UserError('TMAS_USAGE', 'tmas run needs the problems to solve: give --input-file FILE (JSONL with problem_id, question, answer), or --demo to run the bundled demo set.');
      }
      return path.resolve(input);
    },
  }),
  setting<string>({ flags: '--id-column <name>', section: 'problems', help: 'CSV input: the column of problem ids', default: 'Problem ID', field: field('problems', 'idColumn') }),
  setting<string>({ flags: '--question-column <name>', section: 'problems', help: 'CSV input: the column of questions', default: 'Problem', field: field('problems', 'questionColumn') }),
  setting<string>({ flags: '--answer-column <name>', section: 'problems', help: 'CSV input: the column of reference answers', default: 'Short Answer', field: field('problems', 'answerColumn') }),
];
