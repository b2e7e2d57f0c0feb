/**
 * `tmas table1`: the comparison of TMAS's Table 1 in one command. Runs each
 * chosen strategy on one problem set with the paper's setup (N = 8,
 * M = 8, T = 20, MV@64, 4 judge passes unless flags say otherwise) into
 * sibling run directories `<out>/<strategy>`, then writes the table (Pass@1
 * per iteration per method with 95% intervals and paired differences from
 * TMAS, MV@k as one figure: see table1-markdown.ts) and one report of all runs.
 * A directory that already holds a run is resumed: nothing is paid twice.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { toOptionName, type StrategyOptionValue } from '../../machines/contract.ts';
import { STRATEGIES, type Strategy } from '../../machines/strategies/index.ts';
import { checkPromptsOf, promptSpecsFor } from '../host/prompt-templates.ts';
import { UserError } from '../kernel/errors.ts';
import { outputError, writeOutputFile } from '../host/output-file.ts';
import type { RunOutcome } from '../host/run-evaluation.ts';
import type { RunFlags } from './run.command.ts';
import { strategyFlags } from '../settings/strategy-flags.ts';
import { SAMPLES_FLAG } from '../../machines/strategies/majority/majority.program.ts';

/** The methods of Table 1, in its order. */
export const TABLE1_STRATEGIES = ['majority', 'self-refine', 'verify-refine', 'pacore', 'rse', 'tmas'] as const;

/** The paper's settings, used where the command line gives none. */
const PAPER_SETUP = { nCandidates: 8, nVerifications: 8, maxIterations: 20, judgePasses: 4 } as const;

/**
 * Strategy options the paper's setup gives where the command line gives none.
 * PaCoRe runs N wide every round (`--round-widths ''`): each iteration's
 * Pass@1 is then over N responses, as every other method's is, where `tmas
 * run`'s default is upstream's round of 4 then one synthesis.
 */
const PAPER_OPTIONS: Readonly<Record<string, Readonly<Record<string, StrategyOptionValue>>>> = { pacore: { roundWidths: '' } };

/**
 * Majority draws this many times k samples per problem where `--vote-pool` is
 * not given, and MV@k is the mean vote over draws of k of them: an estimate of
 * the model's MV@k on each problem rather than one draw's luck. At k = 64, 256
 * samples: under a fifth of the calls TMAS makes on a problem in the
 * paper's setup (160 solutions and 1,280 verifications).
 */
const VOTE_POOL_FACTOR = 4;

/** Flags of `tmas table1`: those of `tmas run`, plus the strategies to compare. */
export interface Table1Flags extends RunFlags {
  strategies: string;
  /** `shared`: one completion limit for every method; `upstream`: each method's upstream budget. */
  budgets: 'shared' | 'upstream';
}

/** The flags of one strategy's run: the shared ones, that strategy's own, and its directory. */
export function flagsFor(flags: Table1Flags, strategy: string, dir: string, resume: boolean): RunFlags {
  const own = { ...flags } as Record<string, unknown>;
  for (const { owner, flag } of strategyFlags()) if (owner !== strategy) delete own[toOptionName(flag.name)];
  delete own.strategies;
  delete own.budgets;
  // One budget for every column unless told otherwise: the flag's, else what the window leaves (not rse's upstream 38,912).
  if (flags.budgets === 'shared') own.completionMaxTokens ??= 'window';
  for (const [option, value] of Object.entries(PAPER_OPTIONS[strategy] ?? {})) own[option] ??= value;
  // A run resumed keeps the pool it was started with (one made before --vote-pool existed has none).
  if (strategy === 'majority' && !resume) own.votePool ??= VOTE_POOL_FACTOR * Number(own.samples ?? SAMPLES_FLAG.default);
  // Each method gets the templates of its own roles (checked for all methods before any runs).
  const prompts = promptSpecsFor(STRATEGIES[strategy] as Strategy, flags.prompt ?? []);
  if (prompts.length === 0) delete own.prompt;
  else own.prompt = prompts;
  return {
    ...(own as RunFlags),
    strategy,
    nCandidates: flags.nCandidates ?? PAPER_SETUP.nCandidates,
    nVerifications: flags.nVerifications ?? PAPER_SETUP.nVerifications,
    maxIterations: flags.maxIterations ?? PAPER_SETUP.maxIterations,
    judgePasses: flags.judgePasses ?? PAPER_SETUP.judgePasses,
    ...(resume ? { resume: dir, outputFile: undefined } : { outputFile: dir, resume: undefined }),
  };
}

/** Runs the comparison and writes `<out>/table1.md` and `<out>/report.html`. */
export async function runTable1Command(flags: Table1Flags, command: Command, io: { stdout(line: string): void; stderr(line: string): void; terminal?: NodeJS.WriteStream }, signal: AbortSignal): Promise<void> {
  const strategies = flags.strategies.split(',').map((name) => name.trim()).filter(Boolean);
  for (const name of strategies) {
    if (!STRATEGIES[name]) throw new UserError('TMAS_USAGE', `--strategies: unknown strategy "${name}". Choose from: ${Object.keys(STRATEGIES).join(', ')}.`);
  }
  if (flags.outputFile === undefined) throw new UserError('TMAS_USAGE', 'tmas table1 needs --output-file DIR: each method runs in DIR/<strategy>, and the table and report go to DIR.');
  if (flags.resume !== undefined) throw new UserError('TMAS_USAGE', 'tmas table1 resumes by itself: give the same --output-file again, without --resume.');
  checkPromptsOf(strategies.map((name) => STRATEGIES[name] as Strategy), flags.prompt ?? []);
  // Nothing is created before the first method's run is prepared: a refused run (a bad flag, a run that can grade nothing) leaves no directory.
  const out = path.resolve(flags.outputFile);
  const advice = 'give --output-file a writable folder';
  const [{ prepareRun }, { resolveStrategy }, { runEvaluation }, { runReportCommand }, { loadRun }, { readVoteDraws }, { formatTable1 }, { unusableOutputWarnings }] = await Promise.all([
    import('./prepare-run.ts'),
    import('../host/plugins.ts'),
    import('../host/run-evaluation.ts'),
    import('./report.command.ts'),
    import('../report/load.ts'),
    import('../report/vote-draws.ts'),
    import('./table1-markdown.ts'),
    import('../observers/role-outputs.ts'),
  ]);
  const runs: Array<{ strategy: string; outcome: RunOutcome; options: Record<string, number | string> }> = [];
  let unusableShare = 0;
  for (const strategy of strategies) {
    const dir = path.join(out, strategy);
    const resume = existsSync(path.join(dir, 'store'));
    io.stderr(`tmas table1: ${resume ? 'resuming' : 'running'} ${strategy} in ${dir}`);
    const { config, secrets, problems } = await prepareRun(flagsFor(flags, strategy, dir, resume), command, process.env);
    const outcome = await runEvaluation(config, secrets, problems, io, { signal, resume, strategy: await resolveStrategy(config.loop) });
    runs.push({ strategy, outcome, options: config.loop.strategyOptions });
    unusableShare = config.outputs.unusableWarnShare;
  }
  const methods = [];
  for (const run of runs) {
    // Majority's MV@k is drawn from its pool of samples, read back from its store.
    const draws = run.strategy === 'majority' ? { draws: await readVoteDraws(run.outcome.outputDir, Number(run.options.samples)) } : {};
    methods.push({ strategy: run.strategy, options: run.options, run: await loadRun(run.outcome.outputDir, { unusableShare }), ...draws });
  }
  const table = formatTable1(methods);
  await mkdir(out, { recursive: true }).catch((error: unknown) => Promise.reject(outputError(path.join(out, 'table1.md'), error, advice)));
  await writeOutputFile(path.join(out, 'table1.md'), `${table}
`, { advice });
  io.stdout(table);
  await runReportCommand(runs.map((run) => run.outcome.outputDir), { format: 'html', out: path.join(out, 'report.html') }, io, { unusableShare });
  for (const run of runs) for (const warning of unusableOutputWarnings(run.outcome.iterations, run.outcome.outputDir, unusableShare)) io.stderr(warning.replace('tmas: warning: ', `tmas: warning: ${run.strategy}: `));
  // Calls that failed for good left iterations undone: say where, and how to finish them (running the command again).
  const incomplete = runs.find((run) => run.outcome.stopped.length > 0);
  if (incomplete) {
    const { incompleteRunError } = await import('../host/call-failures.ts');
    throw incompleteRunError(incomplete.outcome.stopped, incomplete.outcome.outputDir);
  }
}
