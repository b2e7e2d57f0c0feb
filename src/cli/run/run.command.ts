/**
 * `tmas run`: its options are the settings declared in src/settings/ (with
 * the strategies' own flags); this file names the flags the command itself
 * reads and parses an argument list as the CLI would.
 */
import { Command } from 'commander';
import { judgePassesOf } from '../../../machines/judging.ts';
import { UserError } from '../../kernel/errors.ts';
import { kebabCaseFlags } from '../../settings/parsers.ts';
import { defineRunOptions } from './run-options.ts';

export { toRunConfig } from '../../settings/configure/to-config.ts';
export { defineRunOptions } from './run-options.ts';

/**
 * The options commander hands over, by option name. The fields named here are
 * those the commands read themselves; every other setting is read through its
 * declaration (src/settings/).
 */
export interface RunFlags {
  resume?: string;
  force?: boolean;
  demo?: boolean;
  inputFile?: string;
  idColumn?: string;
  questionColumn?: string;
  answerColumn?: string;
  outputFile?: string;
  strategy: string;
  apiKey?: string;
  nCandidates?: number;
  nVerifications?: number;
  maxIterations?: number;
  judgePasses?: number;
  /** `--view [port]`: serve the viewer of this run while it goes (true: any free port). */
  view?: boolean | number;
  /** `--wide`: every column of the final table (default: the essential ones, within 80 columns). */
  wide?: boolean;
  /** `--prompt ROLE=FILE`, as given (tmas table1 gives each method those of its roles). */
  prompt?: string[];
  [option: string]: unknown;
}

/**
 * Refuses a new run that can grade nothing, before any call: in proof mode
 * (the default) only the LLM judge grades, against each problem's reference
 * solution, so problems that carry short answers but no reference solution
 * would leave Pass@1 and the curves empty after every call was paid for.
 * Proof problems with neither are not this case (a run may generate without
 * grading). With --no-proof every candidate is graded against its problem's
 * short answer: problems none of which has one grade nothing either (a CSV
 * whose answers are in a column tmas does not look in). `force` (`--force`)
 * runs it anyway.
 */
export function checkGradable(
  run: { proof: boolean; judgePasses: number; inputFile: string },
  problems: Array<{ id: string; question: string; answer?: string; solution?: string }>,
  options: { force: boolean },
): void {
  if (options.force) return;
  const answered = problems.filter((p) => p.answer !== undefined && p.answer !== '').length;
  if (!run.proof) {
    if (answered > 0) return;
    throw new UserError(
      'TMAS_UNGRADABLE',
      `This run would grade nothing: with --no-proof each candidate is graded against its problem's reference answer, but none of the ${problems.length} problems in ${run.inputFile} has one. ` +
        'Give each problem its answer (an "answer" field; in a CSV or Parquet file, a column "Short Answer" or "answer", or the one --answer-column names). To run it anyway, ungraded, add --force.',
    );
  }
  if (answered === 0) return;
  const settings = { proof: true, judgePasses: run.judgePasses };
  if (problems.some((problem) => judgePassesOf({ problem, settings }) > 0)) return;
  const judged = settings.judgePasses > 0;
  throw new UserError(
    'TMAS_UNGRADABLE',
    `This run would grade nothing: it is in proof mode (the default), where only an LLM judge grades, against each problem's reference solution, ` +
      `but ${answered} of the ${problems.length} problems in ${run.inputFile} carry a short answer and none a reference solution` +
      `${judged ? '' : ', and no judge is named'}. ` +
      'For short answers in \\boxed{}, add --no-proof (the rule-based grader grades them, and a judge too when one is named: --judge-base-url URL, --judge-model-name NAME, --judge-passes N). ' +
      'For proofs, give each problem a reference solution (a "solution" field) and name a judge. To run it anyway, ungraded, add --force.',
  );
}

/** Parses `tmas run` arguments (kebab- or snake_case) into flags with their defaults, as the CLI would. */
export function parseRunFlags(argv: string[]): RunFlags {
  const command = defineRunOptions(new Command('run').exitOverride().configureOutput({ writeErr: () => {} }));
  command.parse(kebabCaseFlags(argv), { from: 'user' });
  return command.opts<RunFlags>();
}
