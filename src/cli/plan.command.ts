/**
 * `tmas plan`: a run's forecast before it starts (calls, tokens, GPU-hours or
 * cost, makespan), `--check DIR` (the forecast of a finished run beside what
 * it did), and `--from DIR` (what-if: its journaled lengths replayed under
 * other servers, concurrency or schedule). Its options are `tmas run`'s
 * settings of what the run is (src/settings/, PLANNED_RUN_SETTINGS, with the
 * strategies' flags) plus its own (src/settings/plan.settings.ts).
 */
import type { Command } from 'commander';
import { loopSettingsOf } from '../host/problem-inputs.ts';
import { strategyNamed } from '../../machines/strategies/index.ts';
import { completionCeiling, judgeCeiling, type RunConfig } from '../settings/config.ts';
import { loadProblems } from '../input/problems.ts';
import { UserError } from '../kernel/errors.ts';
import { checkForecast } from '../plan/check.ts';
import { forecastRun, type Billing, type Forecast } from '../plan/forecast.ts';
import { drawnLengths, journalLengths, type LengthModel } from '../plan/lengths.ts';
import { measureCapacity } from '../plan/metrics-reading.ts';
import { readRunJournal, type RunJournal } from '../plan/run-journal.ts';
import type { Servers } from '../plan/simulate.ts';
import { replayRun } from '../plan/what-if.ts';
import { PLAN_SETTINGS, PLANNED_RUN_SETTINGS } from '../settings/index.ts';
import { defineStrategyFlags } from '../settings/strategy-flags.ts';
import { toRunConfig } from '../settings/to-config.ts';
import { resolveCapacity } from '../sim/capacity/options.ts';
import type { CliIo } from './cli-io.ts';
import { checkText, forecastText, whatIfText } from './plan-output.ts';
import { toOption } from './setting-option.ts';

/** The flags `tmas plan` reads itself (the run's settings are read through their declarations). */
export interface PlanFlags {
  check?: string;
  from?: string;
  replicas: number;
  gpusPerReplica: number;
  decodeTokensPerSecond: number;
  sequenceTokensPerSecond: number;
  kvTokens: number;
  prefillTokensPerSecond: number;
  metricsFrom?: string;
  metricsSeconds: number;
  pricePerMillion?: { input: number; output: number };
  outputTokensMedian: number;
  outputTokensP99: number;
  outputTokensProblemSpread: number;
  lengthsFrom?: string;
  draws: number;
  timeScale: number;
  json?: boolean;
  concurrency: number;
  schedule: 'pipelined' | 'barrier';
  [option: string]: unknown;
}

/** Declares the options of `tmas plan`: the run's (what it would be) and the plan's own. */
export function definePlanOptions(command: Command): Command {
  for (const setting of PLANNED_RUN_SETTINGS) command.addOption(toOption(setting));
  defineStrategyFlags(command);
  for (const setting of PLAN_SETTINGS) command.addOption(toOption(setting));
  return command;
}

/** The servers the flags describe (read from a live server's metrics with --metrics-from), and how they are paid for. */
async function serversOf(flags: PlanFlags, concurrency: number, io: CliIo): Promise<{ servers: Servers; billing: Billing }> {
  let decode = flags.decodeTokensPerSecond;
  let sequence = flags.sequenceTokensPerSecond;
  if (flags.metricsFrom !== undefined) {
    const measured = await measureCapacity(flags.metricsFrom, flags.metricsSeconds);
    // A sped-up simulator decodes time-scale times faster per real second than in its own seconds.
    decode = Math.max(1, Math.round(measured.decodeTokensPerSecond / flags.timeScale));
    sequence = Math.max(1, Math.round(measured.sequenceTokensPerSecond / flags.timeScale));
    io.stderr(`tmas plan: ${flags.metricsFrom} decoded ${decode} tokens/s with ${measured.running.toFixed(1)} sequences running (${sequence} tokens/s each), over ${measured.seconds.toFixed(1)} s`);
  }
  const base = { decodeTokensPerSecond: decode, sequenceTokensPerSecond: sequence, kvTokens: flags.kvTokens, prefillTokensPerSecond: flags.prefillTokensPerSecond };
  if (flags.pricePerMillion !== undefined) {
    // A metered API: every call in flight decodes at the per-sequence rate, and nothing else binds.
    const api = { ...base, decodeTokensPerSecond: sequence * concurrency, kvTokens: Number.MAX_SAFE_INTEGER };
    return { servers: { replicas: 1, capacity: resolveCapacity(api), concurrency }, billing: { pricePerMillion: flags.pricePerMillion } };
  }
  return { servers: { replicas: flags.replicas, capacity: resolveCapacity(base), concurrency }, billing: { gpusPerReplica: flags.gpusPerReplica } };
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

/** The forecast of the run `config` describes, over problems judged as `judged` says. */
async function forecastOf(flags: PlanFlags, config: RunConfig, judged: boolean[], io: CliIo): Promise<{ forecast: Forecast; servers: Servers }> {
  const { servers, billing } = await serversOf(flags, config.gateway.concurrency, io);
  const lengths = await lengthsOf(flags, config);
  const forecast = forecastRun({ strategy: strategyNamed(config.loop.strategy), settings: loopSettingsOf(config), judged, lengths, servers, draws: flags.draws, billing });
  return { forecast, servers };
}

/** A flag given on the command line (not its default). */
function given(command: Command, name: string): boolean {
  const source = command.getOptionValueSource(name);
  return source !== undefined && source !== 'default';
}

/** Runs `tmas plan`. */
export async function runPlanCommand(flags: PlanFlags, command: Command, io: CliIo): Promise<void> {
  if (flags.check !== undefined && flags.from !== undefined) throw new UserError('TMAS_USAGE', 'tmas plan takes --check DIR or --from DIR, not both: --check compares a run with its forecast, --from replays it under other settings.');
  const print = (text: string, json: unknown) => io.stdout(flags.json ? JSON.stringify(json, null, 2) : text);
  if (flags.from !== undefined) {
    const journal = await readRunJournal(flags.from);
    const concurrency = given(command, 'concurrency') ? flags.concurrency : journal.config.gateway.concurrency;
    const schedule = given(command, 'schedule') ? flags.schedule : journal.config.loop.schedule;
    const { servers } = await serversOf(flags, concurrency, io);
    const replayed = replayRun(journal, { strategy: strategyNamed(journal.config.loop.strategy), servers, schedule });
    const result = { run: journal.dir, calls: journal.calls.length, runMakespanSeconds: journal.spanSeconds * flags.timeScale, replicas: servers.replicas, concurrency, schedule, ...replayed };
    print(whatIfText(result, servers), result);
    return;
  }
  if (flags.check !== undefined) {
    const journal: RunJournal = await readRunJournal(flags.check);
    const { forecast, servers } = await forecastOf(flags, journal.config, journal.problems.map((problem) => problem.judged), io);
    const decodeCapacity = servers.replicas * servers.capacity.decodeTokensPerSecond;
    const check = checkForecast(forecast, journal, { timeScale: flags.timeScale, decodeCapacity });
    print(checkText(forecast, check, journal), { forecast, check });
    return;
  }
  const { config } = toRunConfig(flags, process.env);
  const problems = await loadProblems(config.problems.inputFile, config.problems);
  const judged = problems.map((problem) => (config.loop.proof ? problem.solution : problem.answer) !== undefined);
  const { forecast, servers } = await forecastOf(flags, config, judged, io);
  print(forecastText(forecast, servers, config), forecast);
}
