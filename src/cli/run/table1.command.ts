/**
 * `tmas table1`: the comparison of TMAS's Table 1 in one command. Runs each
 * chosen strategy on one problem set with the paper's setup (N = 8,
 * M = 8, T = 20, MV@64, 4 judge passes unless flags say otherwise; the demo's
 * sizes under --demo) into
 * sibling run directories `<out>/<strategy>`, then writes the table (Pass@1
 * per iteration per method with 95% intervals and paired differences from
 * TMAS, MV@k as one figure: see table1-markdown.ts) and one report of all runs.
 * A directory that already holds a run is resumed: nothing is paid twice.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { toOptionName, type StrategyOptionValue } from '../../../machines/contract.ts';
import { STRATEGIES, type Strategy } from '../../../machines/strategies/index.ts';
import { checkPromptsOf, promptSpecsFor } from '../../host/strategy/prompt-templates.ts';
import { TmasError, UserError } from '../../kernel/errors.ts';
import { checkOutputPlaces, outputError, writeOutputFile } from '../../host/outputs/output-file.ts';
import type { RunOutcome } from '../../host/run/run-evaluation.ts';
import type { WorkloadRun } from '../../host/run/run-workload.ts';
import type { RunDrain } from '../../host/run/run-drain.ts';
import type { StoppedIteration } from '../../host/calls/call-failures.ts';
import type { RunFlags } from './run.command.ts';
import { strategyFlags } from '../../settings/strategy-flags.ts';
import { SAMPLES_FLAG } from '../../../machines/strategies/majority/majority.program.ts';
import { notAResultColumns, notAResultCount, notAResultSentence, notAResultTableError } from './table1-ungraded.ts';
import { DEMO } from '../../settings/sections/run.settings.ts';
import { thrownText } from '../../kernel/thrown-text.ts';

/** The methods of Table 1, in its order. */
export const TABLE1_STRATEGIES = ['majority', 'self-refine', 'verify-refine', 'pacore', 'rse', 'tmas'] as const;

/** The paper's settings, used where the command line gives none. */
const PAPER_SETUP = { nCandidates: 8, nVerifications: 8, maxIterations: 20, judgePasses: 4 } as const;

/**
 * The sizes a table takes where the command line gives none: the paper's, or under `--demo` the demo's, as
 * `tmas run --demo` takes them (the paper's sizes on the demo's 40 problems were six methods of 20
 * iterations, some 49 hours of a simulated GPU, for a command its help called the demo).
 */
function setupOf(flags: Table1Flags): { nCandidates: number; nVerifications: number; maxIterations: number; judgePasses: number } {
  return flags.demo === true ? DEMO : PAPER_SETUP;
}

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
  const setup = setupOf(flags);
  return {
    ...(own as RunFlags),
    strategy,
    nCandidates: flags.nCandidates ?? setup.nCandidates,
    nVerifications: flags.nVerifications ?? setup.nVerifications,
    maxIterations: flags.maxIterations ?? setup.maxIterations,
    judgePasses: flags.judgePasses ?? setup.judgePasses,
    ...(resume ? { resume: dir, outputFile: undefined } : { outputFile: dir, resume: undefined }),
  };
}

/**
 * Options of the command's runs: `together` false runs the methods one after another, each with its own gateway
 * (what tmas table1 did before; the benchmark's comparison); `onOutputProgress`, told as each method writes its outputs
 * (the stop's deadline counts the time a stop goes without it: signals.ts).
 */
export interface Table1RunOptions {
  together?: boolean;
  onOutputProgress?: () => void;
  /** The first Ctrl-C: every method sends no new call, and stops once its calls in flight are journaled. */
  drain?: RunDrain;
}

type IO = { stdout(line: string): void; stderr(line: string): void; terminal?: NodeJS.WriteStream };

/** Each method's run, prepared (flags checked, problems read) before any starts: a refused flag stops the command with nothing run. */
async function prepareMethods(flags: Table1Flags, strategies: string[], out: string, command: Command, io: IO, onOutputProgress: (() => void) | undefined): Promise<WorkloadRun[]> {
  const [{ prepareRun }, { resolveStrategy }, { checkOutputsWritable }] = await Promise.all([import('./prepare-run.ts'), import('../../host/strategy/plugins.ts'), import('../../host/outputs/outputs.ts')]);
  const runs: WorkloadRun[] = [];
  for (const strategy of strategies) {
    const dir = path.join(out, strategy);
    const resume = existsSync(path.join(dir, 'store'));
    const { config, secrets, problems } = await prepareRun(flagsFor(flags, strategy, dir, resume), command, process.env, false);
    // Before any method runs: a method whose outputs could not be written would stop, the others running on.
    if (resume) await checkOutputsWritable(dir, 'give the same tmas table1 command again');
    runs.push({ label: strategy, config, secrets, problems, options: { resume, strategy: await resolveStrategy(config.loop), ...(onOutputProgress === undefined ? {} : { onOutputProgress }) } });
  }
  for (const run of runs) io.stderr(`tmas table1: ${run.options?.resume === true ? 'resuming' : 'running'} ${run.label} in ${run.config.outputs.dir}`);
  return runs;
}

/**
 * Runs the methods (together through one gateway unless `together` is false)
 * and returns each one's outcome. A method that failed does not stop the
 * others; once all have ended, its error is thrown (every other failure said
 * first), or TMAS_INTERRUPTED after a stop: each method resumes where it was.
 */
async function runMethods(runs: WorkloadRun[], io: IO, stop: { signal: AbortSignal; drain?: RunDrain | undefined }, together: boolean): Promise<RunOutcome[]> {
  const { runWorkload } = await import('../../host/run/run-workload.ts');
  const settled: Array<PromiseSettledResult<RunOutcome>> = [];
  const stopped = () => stop.signal.aborted || stop.drain?.signal.aborted === true;
  if (together) settled.push(...(await runWorkload(runs, io, stop)));
  else for (const run of runs) if (!stopped()) settled.push(...(await runWorkload([run], io, stop)));
  const failed = settled.flatMap((result, i) => (result.status === 'rejected' ? [{ strategy: (runs[i] as WorkloadRun).label, error: result.reason as unknown }] : []));
  const message = (error: unknown) => (thrownText(error));
  // A failure every method met (an endpoint down, a key refused) is said once, as the error.
  const shared = failed.length === runs.length && failed.every(({ error }) => message(error) === message(failed[0]?.error));
  // One run-stopping failure (a spent quota, a refused key) stops every method still running with that very error (shared-stop.ts).
  const stoppedAlike = failed.length > 1 && failed.every(({ error }) => error === failed[0]?.error);
  if (stoppedAlike && !stopped()) io.stderr(`tmas table1: ${failed.map(({ strategy }) => strategy).join(', ')} stopped together, each once its calls in flight were journaled; once the cause below is fixed, give the same tmas table1 command again to resume them all.`);
  if (!shared && !stoppedAlike) for (const { strategy, error } of failed.slice(stopped() ? 0 : 1)) if (!isInterruption(error)) io.stderr(`tmas table1: ${strategy} failed: ${message(error)}`);
  if (stopped()) {
    throw new TmasError('TMAS_INTERRUPTED', `Interrupted: each method's run keeps what it finished; give the same tmas table1 command again to resume them all.`, { cause: failed[0]?.error });
  }
  const first = failed[0];
  if (first !== undefined) {
    if (!shared && !stoppedAlike) io.stderr(`tmas table1: ${first.strategy} failed; the other methods ran to their end.`);
    throw first.error;
  }
  return settled.map((result) => (result as PromiseFulfilledResult<RunOutcome>).value);
}

/** The methods of `--strategies`: each a registered strategy, named once (each runs in DIR/<strategy>), at least one; `--strategy` given beside them is refused. */
export function table1Strategies(list: string, command?: Command): string[] {
  const strategy = command?.getOptionValue('strategy') as unknown;
  if (command?.getOptionValueSource('strategy') === 'cli') throw new UserError('TMAS_USAGE', `--strategy names the method of one run; a table's methods are --strategies (default: ${TABLE1_STRATEGIES.join(',')}). Give --strategies ${String(strategy)} for that method alone, or leave --strategy out.`);
  const strategies = list.split(',').map((name) => name.trim()).filter(Boolean);
  if (strategies.length === 0) throw new UserError('TMAS_USAGE', `--strategies: no strategy named. Choose from: ${Object.keys(STRATEGIES).join(', ')}.`);
  for (const [i, name] of strategies.entries()) {
    if (!STRATEGIES[name]) throw new UserError('TMAS_USAGE', `--strategies: unknown strategy "${name}". Choose from: ${Object.keys(STRATEGIES).join(', ')}.`);
    if (strategies.indexOf(name) !== i) throw new UserError('TMAS_USAGE', `--strategies: "${name}" is named twice; each method runs once, in DIR/${name}.`);
  }
  return strategies;
}

/** Whether a method's error is only the stop every method was given. */
function isInterruption(error: unknown): boolean {
  return error instanceof TmasError && error.code === 'TMAS_INTERRUPTED';
}

/** Runs the comparison and writes `<out>/table1.md` and `<out>/report.html`. */
export async function runTable1Command(flags: Table1Flags, command: Command, io: IO, signal: AbortSignal, options: Table1RunOptions = {}): Promise<void> {
  const strategies = table1Strategies(flags.strategies, command);
  // --resume first: a table resumed as a run is (tmas table1 --resume DIR) lacks --output-file too, and needs only the word that says how.
  if (flags.resume !== undefined) throw new UserError('TMAS_USAGE', 'tmas table1 resumes by itself: give the same tmas table1 command again, with --output-file DIR and without --resume');
  if (flags.outputFile === undefined) throw new UserError('TMAS_USAGE', 'tmas table1 needs --output-file DIR: each method runs in DIR/<strategy>, and the table and report go to DIR.');
  // Offered by its help as a run's flag, --view served nothing in a table: said, rather than taken without a word.
  if (flags.view !== undefined) throw new UserError('TMAS_USAGE', `tmas table1 serves no viewer of its own: leave --view out, and watch its methods while they run with tmas view ${flags.outputFile} (each method's run is shown live).`);
  checkPromptsOf(strategies.map((name) => STRATEGIES[name] as Strategy), flags.prompt ?? []);
  // Nothing is created before every method's run is prepared: a refused run (a bad flag, a run that can grade nothing) leaves no directory.
  const out = path.resolve(flags.outputFile);
  await checkTableDir(out);
  // Before any method runs: a table1.md or report.html that could not be written would be found after every call.
  await checkOutputPlaces([path.join(out, 'table1.md'), path.join(out, 'report.html')], `move it away, or give --output-file a writable folder`);
  const runs = await prepareMethods(flags, strategies, out, command, io, options.onOutputProgress);
  const outcomes = await runMethods(runs, io, { signal, drain: options.drain }, options.together !== false);
  await writeTable1(out, runs.map((run, i) => ({ strategy: run.label, outcome: outcomes[i] as RunOutcome, options: run.config.loop.strategyOptions })), (runs[0] as WorkloadRun).config.outputs.unusableWarnShare, io);
}

/**
 * Refuses a DIR that holds what a table did not write (a user's own table1.md would be overwritten): DIR may be new, empty,
 * or a table's, whose folders of methods are resumed and whose table and report are written again.
 */
async function checkTableDir(out: string): Promise<void> {
  const entries = await readdir(out).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? [] : Promise.reject(outputError(out, error, 'give --output-file a folder of its own'))));
  // A table's: its table and report, their files being written (a dot or a suffix of the writer), a folder per method.
  const own = (name: string) => name.startsWith('table1.md') || name.startsWith('report.html') || Object.hasOwn(STRATEGIES, name) || name.startsWith('.');
  const foreign = entries.filter((name) => !own(name));
  if (foreign.length > 0) {
    throw new UserError('TMAS_OUTPUT', `${out} holds files that no tmas table1 wrote (${foreign.slice(0, 5).join(', ')}${foreign.length > 5 ? ', …' : ''}): the table writes table1.md, report.html and a folder per method there. Give --output-file a new or empty folder, or the folder of the table to go on with.`);
  }
}

/** Writes the table and the report of the methods' runs, with their warnings; throws when calls that failed for good left a method unfinished. */
async function writeTable1(out: string, runs: Array<{ strategy: string; outcome: RunOutcome; options: Record<string, number | string> }>, unusableShare: number, io: IO): Promise<void> {
  const advice = 'give --output-file a writable folder';
  const [{ runReportCommand }, { loadRun }, { readVoteDraws }, { formatTable1 }, { unusableOutputWarnings }] = await Promise.all([
    import('../inspect/report.command.ts'),
    import('../../report/load.ts'),
    import('../../report/vote-draws.ts'),
    import('./table1-markdown.ts'),
    import('../../observers/role-outputs.ts'),
  ]);
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
  // Calls that failed for good left iterations undone: say where, in every method, and how to finish them (running the command again).
  const incomplete = runs.filter((run) => run.outcome.stopped.length > 0);
  // A column that is not a result (no figure, a rule's 0.0 of the format, a role that used nothing) ends at 3 as the failed calls do, whatever graded it.
  const hollow = notAResultColumns(methods);
  if (incomplete.length > 0) throw incompleteTableError(incomplete.map((run) => ({ strategy: run.strategy, stopped: run.outcome.stopped })), out, notAResultSentence(hollow, methods.length, out));
  if (notAResultCount(hollow) > 0) throw notAResultTableError(hollow, methods.length, out);
}

/**
 * The error a table ends with when calls failed for good in some methods (exit code 3): each such method with the
 * problems it lost, and the one way to finish them all, the same tmas table1 command (a `tmas run --resume` of one
 * method would leave the others unfinished and table1.md as it is).
 */
function incompleteTableError(methods: Array<{ strategy: string; stopped: StoppedIteration[] }>, out: string, ungraded: string): UserError {
  const listed = methods.map(({ strategy, stopped }) => {
    const failed = stopped.reduce((sum, entry) => sum + entry.failed, 0);
    const where = stopped.slice(0, 5).map((entry) => `${entry.problem} at iteration ${entry.iteration}`).join(', ');
    return `${strategy}: ${failed} failed in ${stopped.length} problem iteration${stopped.length === 1 ? '' : 's'} (${where}${stopped.length > 5 ? ', …' : ''}; first: ${stopped[0]?.first ?? '?'})`;
  });
  return new UserError(
    'TMAS_RUN_INCOMPLETE',
    `Calls failed for good in ${methods.length} of the methods: ${listed.join('; ')}. Those problems stopped at that iteration, which is in neither results.jsonl nor ${path.join(out, 'table1.md')} (marked ‡ there). ` +
      'Fix the cause, then give the same tmas table1 command again: it resumes every method, issues only what is missing, and writes the table again.' +
      (ungraded === '' ? '' : ` ${ungraded}`),
  );
}
