/**
 * A report of runs some of which are not a result (no figure at all, a rule's 0.0 that is the replies' format, a
 * role of their own that used no output): the report is written, and marks them, but `tmas report` ended at 0,
 * where `tmas table1` and `tmas run` end at 3 for the same runs; a script publishing the report on 0 published them.
 */
import { UserError } from '../../kernel/errors.ts';
import type { ReportRun } from '../../report/load.ts';
import { notAResultColumns, notAResultCount, notAResultSentences, type NotAResult } from './table1-ungraded.ts';
import { unreferencedProblems } from '../../report/unreferenced-problems.ts';

/**
 * Whether `run` was left ungraded by its own choice: problems without a reference answer (run with --force), no judge
 * that failed. tmas run ends at 0 on such a run; its report's '-' cells say it, and ending the report at 3 stopped a
 * script on a run the user had asked for.
 */
function ungradedByChoice(run: ReportRun): boolean {
  return !run.unusable.some((entry) => entry.role === 'judge') && (unreferencedProblems(run) ?? []).length > 0;
}

/** The runs' entries, each read as its strategy (whose roles say which wrote the candidates) and named as the report names it. */
function runsNotAResult(runs: ReportRun[]): NotAResult {
  const all: NotAResult = { ungraded: [], answerless: [], hollow: [] };
  for (const run of runs) {
    const strategy = run.strategy ?? run.name;
    const found = notAResultColumns([{ strategy, options: {}, run }]);
    const columns = ungradedByChoice(run) ? { ...found, ungraded: [] } : found;
    const named = (entry: string) => `${run.name}${run.name === strategy ? '' : ` (${strategy})`}${entry.slice(strategy.length)}`;
    for (const kind of ['ungraded', 'answerless', 'hollow'] as const) all[kind].push(...columns[kind].map(named));
  }
  return all;
}

/** The error (exit code 3) `tmas report` ends with once `file` is written, when some of `runs` is not a result; null when none. */
export function notAResultReportError(runs: ReportRun[], file: string | null): UserError | null {
  const columns = runsNotAResult(runs);
  const count = notAResultCount(columns);
  if (count === 0) return null;
  const written = file === null ? 'The report is written' : `The report is written (${file})`;
  return new UserError(
    'TMAS_REPORT_UNGRADED',
    `${written}, but ${count} of its ${runs.length} run${runs.length === 1 ? '' : 's'} ${count === 1 ? 'is' : 'are'} not a result, whatever their figures: ` +
      notAResultSentences(columns, 'run it again into a new --output-file').join(' ').replaceAll('run the table again into a new --output-file; do not publish these columns', 'run it again into a new --output-file; do not publish these runs').replaceAll('tmas calls <method>', 'tmas calls <run>'),
  );
}
