/**
 * What `tmas run` does before the runtime starts: a new run validates its
 * input file; a resumed run (`--resume DIR`) reads its manifest and problems
 * from the store and merges the flags given on this command line.
 */
import { access, constants } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { isDeepStrictEqual } from 'node:util';
import type { RunConfig, Secrets } from '../../settings/config.ts';
import { UserError } from '../../kernel/errors.ts';
import { loadProblems, type Problem } from '../../input/problems.ts';
import { checkJournalVersion } from '../../host/resume.ts';
import { resumeConfig } from '../../settings/configure/resume.ts';
import { checkRunAgents } from '../../settings/files/agents-file.ts';
import { checkRunTokenizer } from '../../settings/files/tokenizer-file.ts';
import { AGENTS_FILE, keepPathIdentity, TOKENIZER_FILE } from '../../settings/files/file-identity.ts';
import { readRunManifest, type RunManifest } from '../../host/run/run-manifest.ts';
import type { ForkedFrom, Store } from '../../store/store.ts';
import { checkRecordsReadable, hasStore, openStoreView, whyNoStore } from '../../store/repair/check.ts';
import { callsLost, notedLost, refuseJournalDeleted } from '../../store/repair/journal-check.ts';
import { requireOpenablePath } from '../../store/run-dir-path.ts';
import { lockedError, runLockHolder } from '../../store/run-lock.ts';
import { checkGradable, toRunConfig, type RunFlags } from './run.command.ts';
import { NEW_STORE_DIR } from '../../host/outputs/output-dir.ts';
import { forkSourceNow } from '../../host/calls/journal-source.ts';
import { refuseUnreadLoopFlags, unreadLoopFlags } from '../../settings/strategy-flags.ts';
import { refuseSimFlagsWithoutSim } from '../../settings/sections/sim.settings.ts';
import { refuseJudgeFlagsWithoutJudge } from '../../settings/configure/unused-judge.ts';
import { refuseSamplingUnsent } from '../../settings/configure/unsent-sampling.ts';
import { STRATEGIES } from '../../../machines/strategies/index.ts';

/** A run ready to start. */
export interface PreparedRun {
  config: RunConfig;
  secrets: Secrets;
  problems: Problem[];
  resume: boolean;
  /** A resumed fork's origin (its manifest's), whose journal still answers the calls the fork's lacks. */
  forkedFrom?: ForkedFrom;
  /** Calls a resume finds lost from its journal, as `tmas repair` noted them: those the run still needs are sent, and paid for, again. */
  callsLost?: number;
}

/** The option names given on the command line (not defaults). */
export function givenOptions(command: Command): Set<string> {
  return new Set(Object.keys(command.opts()).filter((name) => command.getOptionValueSource(name) === 'cli'));
}

/**
 * Refuses, for a command that runs one method (tmas run, fork, plan), a shared loop flag given on its
 * command line (`given`) that the run's strategy does not read under `options` (strategy-flags.ts).
 * tmas table1 gives its flags to every method, each reading those it has.
 */
export function refuseUnreadLoopFlagsOf(strategy: string, options: RunConfig['loop']['strategyOptions'], given: ReadonlySet<string>): void {
  const declared = STRATEGIES[strategy];
  if (declared !== undefined) refuseUnreadLoopFlags(declared, options, given);
}

/** `given` less the shared loop flags `strategy` does not read under `options`. */
function withoutUnreadLoopFlags(strategy: string, options: RunConfig['loop']['strategyOptions'], given: ReadonlySet<string>): ReadonlySet<string> {
  const declared = STRATEGIES[strategy];
  if (declared === undefined) return given;
  const unread: ReadonlySet<string> = new Set(unreadLoopFlags(declared, options, given));
  return new Set([...given].filter((option) => !unread.has(option)));
}

/** How a stored run's configuration takes this command's flags: where the run goes, whether call-shaping changes are allowed, how errors name the command. */
interface Merge {
  /** The run's output directory: the resumed run's own, or a fork's new one. */
  target: string;
  /** The stored run's directory, as errors about its files name it. */
  runDir: string;
  /** Accept settings that change the calls (a resume's --force; always for a fork). */
  changes: boolean;
  /** Accept a tokenizer or module changed in place since the run started (--force). */
  files: boolean;
  /** The command, as the errors tell the user to give it again. */
  command: string;
  /** The command runs this one method (a resume, a fork), not tmas table1's several: a loop flag it does not read is refused. */
  oneMethod: boolean;
}

/** A stored run's configuration with the settings this command line gives, as a resume merges them (a fork too). */
export function mergeStoredConfig(manifest: RunManifest, flags: RunFlags, command: Command, env: NodeJS.ProcessEnv, merge: Merge): { config: RunConfig; secrets: Secrets } {
  const given = givenOptions(command);
  refuseColumnsWithoutInput(given, merge.command);
  // The run's own strategy, unless this command changes it: its flags are read against that one.
  const strategy = given.has('strategy') ? flags.strategy : manifest.config.loop.strategy;
  // The run's own window unless one is given: the settings that depend on it (a completion limit must be below it) read it.
  const maxTokens = given.has('maxTokens') ? flags.maxTokens : manifest.config.context.window;
  const { config: requested, secrets } = toRunConfig({ ...flags, maxTokens, strategy, inputFile: manifest.config.problems.inputFile, outputFile: merge.target }, env);
  // A run started before tokenizers had digests keys its calls by the tokenizer's path: it keeps doing so.
  keepPathIdentity(TOKENIZER_FILE, manifest.config, requested);
  // So does one started before agents modules had digests, by the module's path.
  keepPathIdentity(AGENTS_FILE, manifest.config, requested);
  // The run's own options, with those given here: a resumed pacore run started with --round-widths '' reads N.
  const own = given.has('strategy') ? {} : manifest.config.loop.strategyOptions;
  const options = { ...own, ...Object.fromEntries(Object.entries(requested.loop.strategyOptions).filter(([name]) => given.has(name))) };
  // Before the resume's own comparison, which would offer --force for a flag that changes nothing.
  if (merge.oneMethod) refuseUnreadLoopFlagsOf(requested.loop.strategy, options, given);
  // tmas table1 gives its flags to every method: one a method does not read changes nothing of its run (a larger
  // --n-candidates refused majority, whose calls it leaves as they were, and named it alone).
  const heeded = merge.oneMethod ? given : withoutUnreadLoopFlags(requested.loop.strategy, options, given);
  const merged = resumeConfig(manifest.config, requested, heeded, { force: merge.changes, runDir: merge.target });
  refuseSimFlagsWithoutSim(merged, given);
  refuseJudgeFlagsWithoutJudge(merged, given);
  refuseSamplingUnsent(merged, given);
  // A tokenizer or module given on this command was read and hashed just now; the manifest's are checked to be still there and the same.
  const check = { force: merge.files, command: merge.command };
  const context = given.has('tokenizerPath') ? merged.context : checkRunTokenizer(merged.context, merge.runDir, check);
  const loop = given.has('agents') ? merged.loop : checkRunAgents(merged.loop, merge.runDir, check);
  return { config: { ...merged, context, loop }, secrets };
}

/** Builds the configuration, the keys and the problems of a new or resumed run. Creates nothing on disk. */
export async function prepareRun(flags: RunFlags, command: Command, env: NodeJS.ProcessEnv, oneMethod = true): Promise<PreparedRun> {
  if (flags.resume === undefined) {
    const { config, secrets } = toRunConfig(flags, env);
    if (oneMethod) refuseUnreadLoopFlagsOf(config.loop.strategy, config.loop.strategyOptions, givenOptions(command));
    refuseSimFlagsWithoutSim(config, givenOptions(command));
    refuseJudgeFlagsWithoutJudge(config, givenOptions(command));
    refuseSamplingUnsent(config, givenOptions(command));
    // Validate the input before anything is created on disk.
    const problems = await loadProblems(config.problems.inputFile, config.problems);
    checkGradable({ proof: config.loop.proof, judgePasses: config.judge.passes, inputFile: config.problems.inputFile }, problems, { force: flags.force === true });
    return { config, secrets, problems, resume: false };
  }
  const runDir = path.resolve(flags.resume);
  refuseNewRunFlags(flags, runDir);
  await checkResumable(runDir);
  // A private view, its structure and every block checked: a store with a table, MANIFEST or CURRENT lost, or
  // a corrupt block or log record, is refused before anything in the run directory is written.
  const store = await openStoreView(runDir, undefined, { everyBlock: true, everyTableOpen: true });
  try {
    const manifest = await readRunManifest(store);
    if (!manifest) throw new UserError('TMAS_RESUME', `${runDir} holds no tmas run (no manifest in its store). Give the output directory of an earlier tmas run.`);
    checkJournalVersion(manifest, runDir);
    // Every record read back before anything is written: a record of the wrong shape, or a gap in the message log, was met
    // where the run read it, after the resume had logged its start and its first messages into the store.
    await checkRecordsReadable(runDir, store);
    // A journal deleted is refused; one that lost some records is refused by the structure check when a table went, and
    // read for lost calls only once a repair noted some: the whole message log read for them takes 0.2 s on the demo's
    // 10,554 calls, about 3 s more on a run of 164,000.
    await refuseJournalDeleted(runDir, store, { none: 'A resume would send every call of the iterations it finishes again, and pay for them' });
    const lost = await callsStillLost(store);
    const problems = await store.loadProblems();
    if (flags.inputFile !== undefined) await checkSameProblems(flags, problems, runDir, 'A resume continues the run\'s own problems (kept in its store): leave --input-file out, or start a new run with another --output-file.');
    const force = flags.force === true;
    const { config, secrets } = mergeStoredConfig(manifest, flags, command, env, { target: runDir, runDir, changes: force, files: force, command: `tmas run --resume ${runDir}`, oneMethod });
    // Only a lowered target can fall below what is done (and a run's own T always stands, whatever it holds).
    if (config.loop.maxIterations < manifest.config.loop.maxIterations) await refuseTargetBelowDone(store, config.loop.maxIterations, runDir);
    // A fork moved together with the run it came from still reads through to it, where it lies now.
    const forkedFrom = manifest.forkedFrom === undefined ? {} : { forkedFrom: forkSourceNow(manifest.forkedFrom, manifest.config.outputs.dir, runDir) };
    return { config, secrets, problems, resume: true, ...forkedFrom, ...(lost > 0 ? { callsLost: lost } : {}) };
  } finally {
    await store.close();
  }
}

/**
 * The calls the journal still lacks of those a repair noted as lost: none when no repair noted any (the message
 * log is read only then); a resume journals each one it sends again, so the count falls to 0 once it has.
 */
async function callsStillLost(store: Store): Promise<number> {
  if ((await notedLost(store)) === 0) return 0;
  return (await callsLost(store)).lost.size;
}

/** Flags that choose what a new run is: a resume keeps its run's problems and directory, so they are refused rather than ignored. */
function refuseNewRunFlags(flags: RunFlags, runDir: string): void {
  if (flags.demo === true) {
    throw new UserError('TMAS_USAGE', `--demo starts a new run and cannot apply to --resume ${runDir}: leave it out to continue that run.`);
  }
  if (flags.outputFile !== undefined && path.resolve(flags.outputFile) !== runDir) {
    throw new UserError(
      'TMAS_USAGE',
      `--output-file cannot apply to --resume: a resumed run writes into its own directory ${runDir}. To continue it elsewhere, copy the directory there and resume the copy.`,
    );
  }
}

/**
 * `--max-iterations` on a resume is the total target: below the iterations a problem has already
 * completed it would record a T that the run's results contradict, so it is refused, naming both.
 */
async function refuseTargetBelowDone(store: Store, target: number, runDir: string): Promise<void> {
  let done = 0;
  for await (const { iteration } of store.iterationRecords({}, ['iteration'])) done = Math.max(done, iteration + 1);
  if (target >= done) return;
  throw new UserError(
    'TMAS_RESUME_CONFLICT',
    `--max-iterations ${target} is below the ${done} iterations the run in ${runDir} has completed: on a resume it is the total target, and a resume only goes further. ` +
      `Give --max-iterations ${done} or more, or leave it out; for a shorter run, tmas fork ${runDir} --output-file NEW --max-iterations ${target} (its calls answered from this run's journal).`,
  );
}

/** Refuses, before anything is created, a directory that holds no run or cannot be written. */
async function checkResumable(runDir: string): Promise<void> {
  // A resume writes deeper than a read: refused before any call rather than when its outputs are written.
  requireOpenablePath(runDir, 'writes');
  if (!hasStore(runDir)) {
    const stoppedEarly = hasStore(path.join(runDir, NEW_STORE_DIR));
    throw new UserError(
      'TMAS_RESUME',
      stoppedEarly
        ? `${runDir} holds no run to resume: it was stopped before its run started. Run the same command again (with --output-file ${runDir}): the directory is reused.`
        : `${runDir} holds no tmas run (${whyNoStore(runDir)}). Give the output directory of an earlier tmas run.`,
    );
  }
  await access(path.join(runDir, 'store'), constants.W_OK).catch((error: unknown) => {
    throw new UserError(
      'TMAS_OUTPUT',
      `Cannot resume ${runDir}: its store is not writable (${(error as Error).message}). Copy the directory to a writable place and resume the copy; tmas log, show, export and replay read it as it is.`,
      { cause: error },
    );
  });
  // Before the store is copied and the endpoints checked: a live run in the directory refuses this one at once.
  const holder = await runLockHolder(runDir);
  if (holder) throw lockedError(runDir, holder);
}

/** The column flags, which say how to read `--input-file`. */
const COLUMN_OPTIONS = { idColumn: '--id-column', questionColumn: '--question-column', answerColumn: '--answer-column' };

/**
 * A column flag without `--input-file` on a resume or a fork reads nothing (the problems come from
 * the run's store): refused rather than dropped. With `--input-file` it reads that file, which must
 * hold the run's own problems.
 */
function refuseColumnsWithoutInput(given: ReadonlySet<string>, command: string): void {
  if (given.has('inputFile')) return;
  for (const [option, flag] of Object.entries(COLUMN_OPTIONS)) {
    if (!given.has(option)) continue;
    throw new UserError(
      'TMAS_USAGE',
      `${flag} names a column of --input-file, which ${command} does not read: the run's problems come from its store, as they were read. Leave ${flag} out.`,
    );
  }
}

/** `--input-file` on a resume (or a fork) is accepted only when it holds the run's own problems; `advice` says what to do instead. */
export async function checkSameProblems(flags: RunFlags, stored: Problem[], runDir: string, advice: string): Promise<void> {
  const file = flags.inputFile as string;
  // As the store keeps them: JSON, without undefined fields.
  const given = JSON.parse(JSON.stringify(await loadProblems(file, { idColumn: flags.idColumn, questionColumn: flags.questionColumn, answerColumn: flags.answerColumn }))) as Problem[];
  if (isDeepStrictEqual(given, stored)) return;
  // A run made from a CSV before its quoted line breaks were kept as written holds them as LF: the same file still.
  if (isDeepStrictEqual(JSON.parse(JSON.stringify(given), (_, value: unknown) => (typeof value === 'string' ? value.replace(/\r\n?/g, '\n') : value)), stored)) return;
  const at = given.findIndex((problem, i) => !isDeepStrictEqual(problem, stored[i]));
  const where = at === -1 ? `it has ${given.length} problems, the run ${stored.length}` : `problem ${at + 1} differs (${given[at]?.id ?? '?'} against the run's ${stored[at]?.id ?? 'none'})`;
  throw new UserError('TMAS_RESUME_CONFLICT', `--input-file ${file} is not the input of the run in ${runDir}: ${where}. ${advice}`);
}
