/**
 * `tmas fork DIR --output-file NEW [settings]`: an ablation of a run. NEW is a
 * new run of DIR's problems under DIR's settings with the ones given changed
 * (an `--agents` module, a prompt, N, a model, …), as a resume with --force
 * merges them; every call whose request is the same as one in DIR's journal
 * is answered from it (read through, copied into NEW's journal), the others
 * are sent. NEW starts from iteration 0 with a log, banks and results of its
 * own, and its manifest names the run it came from and what changed. DIR is
 * never written. Loaded when the command runs: it imports the runtime.
 */
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { forkReuseEstimate } from '../../analysis/fork-estimate.ts';
import { runLockHolder } from '../../store/run-lock.ts';
import { UserError } from '../../kernel/errors.ts';
import { journalSourceOf } from '../../host/calls/journal-source.ts';
import { newRunLeftovers, outputDirEntries } from '../../host/outputs/output-dir.ts';
import { resolveStrategy } from '../../host/strategy/plugins.ts';
import { checkJournalVersion } from '../../host/resume.ts';
import { readRunManifest } from '../../host/run/run-manifest.ts';
import { changedSettings, type SettingChange } from '../../settings/configure/resume.ts';
import { hasStore, openStoreView, whyNoStore } from '../../store/repair/check.ts';
import { checkJournalHeld } from '../../store/repair/journal-check.ts';
import type { ForkedFrom, Store } from '../../store/store.ts';
import type { CliIo } from '../common/cli-io.ts';
import { checkSameProblems, mergeStoredConfig, type PreparedRun } from './prepare-run.ts';
import { runPrepared } from './run-action.ts';
import type { RunFlags } from './run.command.ts';

/** A fork ready to start: a new run, where it comes from, and what DIR's journal holds. */
interface PreparedFork extends PreparedRun {
  forkedFrom: ForkedFrom;
  changed: SettingChange[];
  /** The calls in DIR's journal. */
  journaled: number;
  /**
   * The one view of DIR's store the fork reads, left open: the calls counted, the estimate and the
   * fork's own lookups all read this snapshot. Each step opened a view of its own before, so a DIR
   * still being written was said to hold 79 calls, estimated on another snapshot, and forked from a
   * third that held 162.
   */
  view: Store;
  /** DIR's configuration, as its manifest holds it. */
  sourceConfig: unknown;
}

/** Flags that make no sense for a fork, refused rather than ignored; the new directory is required. */
function forkTarget(flags: RunFlags, sourceDir: string): string {
  if (flags.resume !== undefined) {
    throw new UserError('TMAS_USAGE', `tmas fork makes a new run from ${sourceDir} and takes no --resume: to continue a run, tmas run --resume DIR (a fork too, once made).`);
  }
  if (flags.demo === true) {
    throw new UserError('TMAS_USAGE', `tmas fork runs the problems and settings of ${sourceDir} and takes no --demo: give only the settings to change.`);
  }
  if (flags.outputFile === undefined) {
    throw new UserError('TMAS_USAGE', `tmas fork needs --output-file NEW, the new run's directory (${sourceDir} itself is never written).`);
  }
  return path.resolve(flags.outputFile);
}

/** A path with its links resolved: the path itself when it exists, else its nearest existing folder's with the rest joined. */
async function realPlace(place: string): Promise<string> {
  const resolved = await realpath(place).catch(() => null);
  if (resolved !== null) return resolved;
  const parent = path.dirname(place);
  return parent === place ? place : path.join(await realPlace(parent), path.basename(place));
}

/** Refuses a new directory inside the forked run (which is never written), one holding a run, or one not empty. Creates nothing. */
async function checkForkTarget(sourceDir: string, target: string): Promise<void> {
  const inside = path.relative(await realPlace(sourceDir), await realPlace(target));
  if (inside === '' || (!inside.startsWith('..') && !path.isAbsolute(inside))) {
    throw new UserError('TMAS_OUTPUT', `--output-file ${target} is ${inside === '' ? '' : 'inside '}the run being forked, ${sourceDir}, which a fork never writes. Give a new directory outside it.`);
  }
  if (hasStore(target)) {
    throw new UserError('TMAS_OUTPUT', `The output directory ${target} already holds a tmas run. A fork makes a new run: give a new --output-file (to continue that run: tmas run --resume ${target}).`);
  }
  const entries = await outputDirEntries(target);
  // A fork stopped before its store existed leaves only the store it was building: the same command goes on.
  if ((await newRunLeftovers(target, entries)).length > 0) throw new UserError('TMAS_OUTPUT', `The output directory ${target} is not empty. Give a new --output-file for the fork.`);
}

/** Reads DIR (through a private view) and builds the fork's configuration, keys and problems. Creates nothing on disk. */
export async function prepareFork(dir: string, flags: RunFlags, command: Command, env: NodeJS.ProcessEnv): Promise<PreparedFork> {
  const sourceDir = path.resolve(dir);
  const target = forkTarget(flags, sourceDir);
  if (!hasStore(sourceDir)) throw new UserError('TMAS_RESUME', `${sourceDir} holds no tmas run to fork (${whyNoStore(sourceDir)}). Give the output directory of an earlier tmas run.`);
  await checkForkTarget(sourceDir, target);
  const store = await openStoreView(sourceDir);
  let prepared = false;
  try {
    const manifest = await readRunManifest(store);
    if (!manifest) throw new UserError('TMAS_RESUME', `${sourceDir} holds no tmas run to fork (no manifest in its store). Give the output directory of an earlier tmas run.`);
    checkJournalVersion(manifest, sourceDir);
    await checkJournalHeld(sourceDir, store, { none: 'A fork would send every one of its calls again, and pay for them', some: 'A fork would send them again, and pay for them' });
    const problems = await store.loadProblems();
    const advice = 'A fork runs the problems of the run it comes from (kept in its store): leave --input-file out, or start a new run with tmas run.';
    if (flags.inputFile !== undefined) await checkSameProblems(flags, problems, sourceDir, advice);
    const merge = { target, runDir: sourceDir, changes: true, files: flags.force === true, command: `tmas fork ${sourceDir}`, oneMethod: true };
    const { config, secrets } = mergeStoredConfig(manifest, flags, command, env, merge);
    const changed = changedSettings(manifest.config, config);
    let journaled = 0;
    for await (const _ of store.calls().keys()) journaled++;
    const forkedFrom = { run: manifest.run, dir: sourceDir, changed: changed.map((change) => change.flag) };
    prepared = true;
    return { config, secrets, problems, resume: false, forkedFrom, changed, journaled, view: store, sourceConfig: manifest.config };
  } finally {
    if (!prepared) await store.close();
  }
}

/** What the fork changes, in words: the flags, those that change calls first. */
function describeChanges(changed: SettingChange[]): string {
  if (changed.length === 0) return 'no setting changed (every call should be answered from its journal)';
  const shaping = changed.filter((change) => change.shapesCalls).map((change) => change.flag);
  const others = changed.filter((change) => !change.shapesCalls).map((change) => change.flag);
  return [shaping.length > 0 ? `changes ${shaping.join(', ')}` : 'changes no call', others.length > 0 ? `and how it runs: ${others.join(', ')}` : ''].filter(Boolean).join(' ');
}

/**
 * Says so when DIR's run is still being written: the fork reads a view of DIR
 * taken as it starts, so what the live run journals later is sent again, and
 * two forks of it made apart reuse different calls.
 */
async function warnIfStillWritten(from: string, journaled: number, io: CliIo): Promise<void> {
  const holder = await runLockHolder(from);
  if (holder === null) return;
  const who = holder.pid === 0 ? 'a process starting now' : `pid ${holder.pid}`;
  io.stderr(
    `tmas fork: warning: ${from} is still being written (${who}). The fork reads its journal as it is now (${journaled} calls): calls that run journals from here on are sent again by the fork. To reuse them, fork it once it has finished.`,
  );
}

/** Runs `tmas fork DIR` with its parsed flags: says what it expects to reuse, runs the fork, says what it reused and paid. */
export async function runForkCommand(dir: string, flags: RunFlags, command: Command, io: CliIo & { terminal?: NodeJS.WriteStream | undefined }): Promise<void> {
  const fork = await prepareFork(dir, flags, command, process.env);
  const from = fork.forkedFrom.dir;
  // The fork's lookups close the view when it ends; the estimate reads the same view through a source of its own, which counts apart.
  const source = journalSourceOf(from, fork.view, fork.sourceConfig, { closes: true });
  try {
    const strategy = await resolveStrategy(fork.config.loop);
    io.stdout(`tmas fork: ${fork.config.outputs.dir} from ${from} (run ${fork.forkedFrom.run}, ${fork.journaled} journaled calls): ${describeChanges(fork.changed)}.`);
    await warnIfStillWritten(from, fork.journaled, io);
    const estimateSource = journalSourceOf(from, fork.view, fork.sourceConfig, { closes: false });
    const expected = await forkReuseEstimate(from, fork.config, { strategy, secrets: fork.secrets, source: estimateSource });
    io.stdout(
      `tmas fork: expects to answer about ${expected} calls from the journal of ${from} (an estimate: the fork replayed offline up to each problem's first call the change reaches); the others are sent.`,
    );
    const summary = (outcome: { calls: { issued: number } }) => [`${source.answered} calls answered from the journal of ${from}, ${outcome.calls.issued} issued.`];
    await runPrepared(fork, flags, io, { forkedFrom: fork.forkedFrom, source, strategy, summary });
  } finally {
    await source.close();
  }
}
