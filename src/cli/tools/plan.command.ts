/**
 * `tmas plan`: a run's forecast before it starts (calls, tokens, GPU-hours or
 * cost, makespan), `--check DIR` (the forecast of a finished run beside what
 * it did), and `--from DIR` (what-if: its journaled lengths replayed under
 * other servers, concurrency or schedule). Its options are `tmas run`'s
 * settings of what the run is (src/settings/, PLANNED_RUN_SETTINGS, with the
 * strategies' flags) plus its own (src/settings/sections/plan.settings.ts).
 */
import { lstatSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { loopSettingsOf } from '../../host/problem-inputs.ts';
import { strategyNamed } from '../../../machines/strategies/index.ts';
import { completionCeiling, judgeCeiling, type RunConfig } from '../../settings/config.ts';
import { loadProblems } from '../../input/problems.ts';
import { UserError } from '../../kernel/errors.ts';
import { checkForecast } from '../../plan/check.ts';
import { forecastRun, type PlannedMethod } from '../../plan/forecast.ts';
import { drawnLengths, journalLengths, type LengthModel } from '../../plan/lengths.ts';
import { readRunJournal, stoppedEarly, type RunJournal } from '../../plan/run-journal.ts';
import { forecastTable } from '../../plan/table-forecast.ts';
import { replayRuns } from '../../plan/what-if.ts';
import { hasStore } from '../../store/repair/check.ts';
import { pathTooLong } from '../../store/run-dir-path.ts';
import type { Routing } from '../../gateway/dispatch/routing.ts';
import type { Problem } from '../../input/problem.ts';
import { PLAN_SETTINGS, PLANNED_RUN_SETTINGS } from '../../settings/configure/index.ts';
import { defineStrategyFlags, strategyFlags } from '../../settings/strategy-flags.ts';
import { toOptionName } from '../../../machines/contract.ts';
import { toRunConfig } from '../../settings/configure/to-config.ts';
import type { CliIo } from '../common/cli-io.ts';
import { checkText, forecastText, tableText, whatIfText } from './plan-output.ts';
import { runGatewayOf, serversOf, type RunGateway, type ServerFlags } from './plan-servers.ts';
import type { RunFlags } from '../run/run.command.ts';
import { flagsFor, table1Strategies, type Table1Flags } from '../run/table1.command.ts';
import { givenOptions, refuseUnreadLoopFlagsOf } from '../run/prepare-run.ts';
import { toOption } from '../common/setting-option.ts';

/** The flags `tmas plan` reads itself (the run's settings are read through their declarations). */
export interface PlanFlags extends ServerFlags {
  check?: string;
  from?: string;
  strategies?: string;
  outputTokensMedian: number;
  outputTokensP99: number;
  outputTokensProblemSpread: number;
  lengthsFrom?: string;
  draws: number;
  json?: boolean;
  concurrency: number;
  schedule: 'pipelined' | 'barrier';
  routing: Routing;
  replicaMaxInFlight?: number;
  [option: string]: unknown;
}

/** Declares the options of `tmas plan`: the run's (what it would be) and the plan's own. */
export function definePlanOptions(command: Command): Command {
  for (const setting of PLANNED_RUN_SETTINGS) command.addOption(toOption(setting));
  defineStrategyFlags(command);
  for (const setting of PLAN_SETTINGS) command.addOption(toOption(setting));
  return command;
}

/** Where the lengths come from: an earlier run's journal, else drawn for the run's limits. */
async function lengthsOf(flags: PlanFlags, config: RunConfig): Promise<LengthModel> {
  if (flags.lengthsFrom !== undefined) {
    const earlier = await readRunJournal(flags.lengthsFrom);
    return journalLengths(earlier.calls, flags.lengthsFrom);
  }
  if (flags.outputTokensP99 < flags.outputTokensMedian) {
    throw new UserError('TMAS_USAGE', `--output-tokens-p99 (${flags.outputTokensP99}) must be at least --output-tokens-median (${flags.outputTokensMedian}).`);
  }
  return drawnLengths({
    median: flags.outputTokensMedian,
    p99: flags.outputTokensP99,
    problemSpread: flags.outputTokensProblemSpread,
    completionLimit: completionCeiling(config),
    judgeLimit: judgeCeiling(config),
  });
}

/** Whether a problem has what the judge checks it against, under the run's grading. */
function judgedOf(config: RunConfig, problems: Problem[]): boolean[] {
  return problems.map((problem) => (config.loop.proof ? problem.solution : problem.answer) !== undefined);
}

/** The run `config` describes, for a forecast: its method, loop, judged problems and lengths. */
async function methodOf(flags: PlanFlags, config: RunConfig, judged: boolean[]): Promise<PlannedMethod> {
  return { strategy: strategyNamed(config.loop.strategy), settings: loopSettingsOf(config), judged, lengths: await lengthsOf(flags, config) };
}

/** A flag given on the command line (not its default). */
function given(command: Command, name: string): boolean {
  const source = command.getOptionValueSource(name);
  return source !== undefined && source !== 'default';
}

/** The run settings `--from` may change: where its journaled calls are sent and when; the calls themselves are the run's. */
const REPLAYED_SETTINGS = ['concurrency', 'routing', 'replicaMaxInFlight', 'schedule'];

/**
 * Refuses run settings given with a mode that reads them from a finished
 * run: `--check` forecasts the run as it was, `--from` replays its calls,
 * so a flag such as --max-iterations would be dropped without a word.
 */
function refuseRunSettings(command: Command, mode: '--check' | '--from', honoured: readonly string[]): void {
  const runOptions = new Set([...PLANNED_RUN_SETTINGS.map((setting) => toOption(setting).attributeName()), ...strategyFlags().map(({ flag }) => toOptionName(flag.name))]);
  const ignored = command.options.filter((option) => runOptions.has(option.attributeName()) && !honoured.includes(option.attributeName()) && given(command, option.attributeName()));
  if (ignored.length === 0) return;
  const named = ignored.map((option) => option.long ?? option.flags).join(', ');
  const instead = mode === '--check' ? '--check forecasts the run with its own settings; to see it under others, use --from DIR' : `--from replays the run's own calls; it takes only ${REPLAYED_SETTINGS.map((name) => `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`).join(', ')} and the servers' flags`;
  throw new UserError('TMAS_USAGE', `${mode} reads the run's settings from its directory, so ${named} would be ignored: ${instead}.`);
}

/** A finished run's gateway and pool, with what the command line gives instead. */
function replayedGateway(journal: RunJournal, flags: PlanFlags, command: Command): RunGateway {
  const own = runGatewayOf(journal.config);
  return {
    ...own,
    concurrency: given(command, 'concurrency') ? flags.concurrency : own.concurrency,
    routing: given(command, 'routing') ? flags.routing : own.routing,
    replicaMaxInFlight: flags.replicaMaxInFlight ?? own.replicaMaxInFlight,
  };
}

/** Whether `folder` may hold a run's store: it has a store/, or whether it has one cannot be asked (its path too long). */
function mayHoldStore(folder: string): boolean {
  try {
    lstatSync(path.join(folder, 'store'));
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ENOENT' && (error as NodeJS.ErrnoException).code !== 'ENOTDIR';
  }
}

/**
 * The runs `--from DIR` names: DIR, or the runs in its folders (a table's methods, DIR/<strategy>). A folder
 * whose path leaves no room for a run's files is left out, with a warning naming it: it stopped the whole plan
 * (TMAS_RUN_DIR), the other runs of the folder unplanned.
 */
async function journalsIn(dir: string, io: CliIo): Promise<RunJournal[]> {
  if (hasStore(dir)) return [await readRunJournal(dir, '--from')];
  const entries = (await readdir(dir, { withFileTypes: true }).catch(() => [])).filter((entry) => entry.isDirectory());
  const runs = entries.flatMap((entry) => {
    const folder = path.join(dir, entry.name);
    const tooLong = pathTooLong(folder, 'reads', 'It is left out of the plan: move it to a shorter path, or plan it alone through a link with a short name (ln -s DIR /tmp/run; tmas plan --from /tmp/run).');
    if (tooLong === null) return hasStore(folder) ? [folder] : [];
    if (mayHoldStore(folder)) io.stderr(`tmas plan: warning: ${tooLong}`);
    return [];
  });
  // No run here nor below: the error of a directory that holds none.
  if (runs.length === 0) return [await readRunJournal(dir, '--from')];
  return Promise.all(runs.map((run) => readRunJournal(run, '--from')));
}

/** `--from DIR`: the run's calls (or a table's, all at once) replayed under the servers and settings given. */
async function replay(flags: PlanFlags, command: Command, io: CliIo): Promise<{ text: string; json: unknown }> {
  refuseRunSettings(command, '--from', REPLAYED_SETTINGS);
  const journals = await journalsIn(flags.from as string, io);
  const gateway = replayedGateway(journals[0] as RunJournal, flags, command);
  const runs = journals.map((journal) => ({ journal, strategy: strategyNamed(journal.config.loop.strategy), schedule: given(command, 'schedule') ? flags.schedule : journal.config.loop.schedule }));
  const { servers } = await serversOf(flags, gateway, io);
  const replayed = replayRuns(runs, servers);
  const span = (pick: (journal: RunJournal) => number, most: (...values: number[]) => number) => most(...journals.map(pick));
  const runSeconds = (span((journal) => journal.endedAt, Math.max) - span((journal) => journal.startedAt, Math.min)) / 1000;
  const result = {
    run: flags.from as string,
    ...(journals.length > 1 ? { methods: journals.map((journal) => journal.config.loop.strategy) } : {}),
    calls: journals.reduce((sum, journal) => sum + journal.calls.length, 0),
    runMakespanSeconds: runSeconds * flags.timeScale,
    replicas: servers.replicas.length,
    concurrency: gateway.concurrency,
    routing: gateway.routing,
    schedule: [...new Set(runs.map((run) => run.schedule))].join(', '),
    // A run stopped before its end replays the calls it made: its figures are said to be of that part.
    stopped: journals.map(stoppedEarly).filter((why): why is string => why !== null),
    ...replayed,
  };
  return { text: whatIfText(result, servers), json: result };
}

/** `--check DIR`: the forecast from the run's own settings beside what it did. */
async function check(flags: PlanFlags, command: Command, io: CliIo): Promise<{ text: string; json: unknown }> {
  refuseRunSettings(command, '--check', []);
  const journal = await readRunJournal(flags.check as string, '--check');
  const stopped = stoppedEarly(journal);
  if (stopped !== null) {
    throw new UserError(
      'TMAS_RUN_STOPPED',
      `${stopped}: --check sets a forecast of the whole run beside what the run did, and would read the part it did as the whole. Resume it first (tmas run --resume ${journal.dir}), then check it.`,
    );
  }
  const { servers, billing } = await serversOf(flags, runGatewayOf(journal.config), io);
  const method = await methodOf(flags, journal.config, journal.problems.map((problem) => problem.judged));
  const forecast = forecastRun({ ...method, servers, draws: flags.draws, billing });
  const decodeCapacity = servers.replicas.reduce((sum, replica) => sum + replica.decodeTokensPerSecond, 0);
  const checked = checkForecast(forecast, journal, { timeScale: flags.timeScale, decodeCapacity });
  return { text: checkText(forecast, checked, journal), json: { forecast, check: checked } };
}

/** `--strategies a,b,c`: the table of those methods, run at once, each with the table's protocol where the flags give none. */
async function table(flags: PlanFlags, command: Command, io: CliIo): Promise<{ text: string; json: unknown }> {
  const names = table1Strategies(flags.strategies as string, command);
  const configs = names.map((name) => {
    const { outputFile: _, ...own } = flagsFor({ ...flags, budgets: 'shared' } as unknown as Table1Flags, name, '', false);
    return toRunConfig(own as RunFlags, process.env).config;
  });
  const first = configs[0] as RunConfig;
  const problems = await loadProblems(first.problems.inputFile, first.problems);
  const methods = await Promise.all(configs.map((config) => methodOf(flags, config, judgedOf(config, problems))));
  const { servers, billing } = await serversOf(flags, runGatewayOf(first), io);
  const forecast = forecastTable({ methods, servers, draws: flags.draws, billing });
  return { text: tableText(forecast, servers, first.roles.parseRetries), json: forecast };
}

/** A run's forecast from the flags. */
async function forecast(flags: PlanFlags, command: Command, io: CliIo): Promise<{ text: string; json: unknown }> {
  const { config } = toRunConfig(flags, process.env);
  refuseUnreadLoopFlagsOf(config.loop.strategy, config.loop.strategyOptions, givenOptions(command));
  const problems = await loadProblems(config.problems.inputFile, config.problems);
  const { servers, billing } = await serversOf(flags, runGatewayOf(config), io);
  const planned = forecastRun({ ...(await methodOf(flags, config, judgedOf(config, problems))), servers, draws: flags.draws, billing });
  return { text: forecastText(planned, servers, config), json: planned };
}

/** Runs `tmas plan`. */
export async function runPlanCommand(flags: PlanFlags, command: Command, io: CliIo): Promise<void> {
  const modes = [flags.check !== undefined && '--check', flags.from !== undefined && '--from', flags.strategies !== undefined && '--strategies'].filter(Boolean);
  if (modes.length > 1) {
    throw new UserError('TMAS_USAGE', `tmas plan takes one of --check DIR, --from DIR and --strategies LIST, not ${modes.join(' and ')}: --check compares a run with its forecast, --from replays it under other settings, --strategies forecasts a table.`);
  }
  const result = flags.from !== undefined ? await replay(flags, command, io) : flags.check !== undefined ? await check(flags, command, io) : flags.strategies !== undefined ? await table(flags, command, io) : await forecast(flags, command, io);
  io.stdout(flags.json ? JSON.stringify(result.json, null, 2) : result.text);
}
