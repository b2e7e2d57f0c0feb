/**
 * `tmas run`: its options are the settings declared in src/settings/ (with
 * the strategies' own flags); this file names the flags the command itself
 * reads and parses an argument list as the CLI would.
 */
import { Command } from 'commander';
import type { RunConfig } from '../host/config.ts';
import { kebabCaseFlags } from '../settings/parsers.ts';
import { defineRunOptions } from './run-options.ts';

export { toRunConfig } from '../settings/to-config.ts';
export { defineRunOptions } from './run-options.ts';
export { DEMO_PROBLEMS } from '../settings/index.ts';

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
  idColumn: string;
  questionColumn: string;
  answerColumn: string;
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
 * The warning for a run in proof mode (the default) whose problems carry
 * short answers but no reference solution: nothing grades them then, and the
 * curves stay empty. Null when the run is not in that case.
 */
export function proofModeWarning(config: Pick<RunConfig, 'proof'>, problems: Array<{ answer?: string; solution?: string }>): string | null {
  if (!config.proof) return null;
  const answered = problems.filter((p) => p.answer !== undefined && p.answer !== '').length;
  if (answered === 0 || problems.some((p) => p.solution !== undefined && p.solution !== '')) return null;
  return (
    `tmas: warning: this run is in proof mode (the default), but ${answered} of its ${problems.length} problems carry a short answer and none a reference solution: ` +
    'candidates are then not graded against the answers, and Pass@1 and the curves stay empty. For short answers in \\boxed{}, add --no-proof.'
  );
}

/** Parses `tmas run` arguments (kebab- or snake_case) into flags with their defaults, as the CLI would. */
export function parseRunFlags(argv: string[]): RunFlags {
  const command = defineRunOptions(new Command('run').exitOverride().configureOutput({ writeErr: () => {} }));
  command.parse(kebabCaseFlags(argv), { from: 'user' });
  return command.opts<RunFlags>();
}
