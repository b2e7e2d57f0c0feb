/** What `tmas plan` prints: a forecast, a forecast beside its run (--check), a what-if (--from). */
import type { RunConfig } from '../../settings/config.ts';
import { ASKED_AGAIN, type CheckResult } from '../../plan/check.ts';
import type { Forecast } from '../../plan/forecast.ts';
import type { RunJournal } from '../../plan/run-journal.ts';
import type { Servers, Simulated } from '../../plan/simulate.ts';
import type { TableForecast } from '../../plan/table-forecast.ts';
import type { CapacitySettings } from '../../sim/capacity/options.ts';

const count = (value: number): string => Math.round(value).toLocaleString('en-US');
const hours = (seconds: number): string => `${(seconds / 3600).toFixed(2)} h`;
const percent = (fraction: number): string => `${(fraction * 100).toFixed(1)}%`;
const line = (label: string, value: string): string => `  ${label.padEnd(22)}${value}`;

/** The replicas, those of one capacity counted together, and how calls reach them. */
function serversLine(servers: Servers): string {
  const kinds = new Map<string, number>();
  for (const c of servers.replicas) {
    const text = `D ${count(c.decodeTokensPerSecond)} tok/s, c ${count(c.sequenceTokensPerSecond)} tok/s per sequence, K ${count(c.kvTokens)} KV tokens, prefill ${count(c.prefillTokensPerSecond)} tok/s`;
    kinds.set(text, (kinds.get(text) ?? 0) + 1);
  }
  const n = servers.replicas.length;
  const replicas = kinds.size === 1 ? `${n} replica${n === 1 ? '' : 's'}, each ${[...kinds.keys()][0] as string}` : `${n} replicas: ${[...kinds].map(([text, k]) => `${k} × (${text})`).join(', ')}`;
  const cap = servers.replicaMaxInFlight === null ? '' : `, --replica-max-in-flight ${servers.replicaMaxInFlight}`;
  return `${replicas}; --concurrency ${servers.concurrency}${n > 1 ? `, --routing ${servers.routing}` : ''}${cap}`;
}

/** Each replica's utilization: every one up to eight, else the lowest, the median and the highest. */
function replicasLine(utilization: number[]): string {
  if (utilization.length <= 8) return utilization.map(percent).join(', ');
  const sorted = [...utilization].sort((a, b) => a - b);
  return `lowest ${percent(sorted[0] as number)}, median ${percent(sorted[Math.floor(sorted.length / 2)] as number)}, highest ${percent(sorted.at(-1) as number)}`;
}

/** The pooled bound's figures (simulate.ts). */
interface PoolTime {
  makespanSeconds: number;
  boundSeconds: number;
  workSeconds: number;
  chainSeconds: number;
  replicaUtilization: number[];
}

/**
 * Which of the bound's terms binds, with the other beside it: a run bound by
 * its chains is not made shorter by more replicas, which is what a user sizing
 * a cluster needs to know before paying for them.
 */
function boundByLine(time: PoolTime): string {
  const work = `all tokens over the replicas' D, ${count(time.workSeconds)} s`;
  const chain = `the longest chain of dependent calls at the fastest c, ${count(time.chainSeconds)} s`;
  if (time.chainSeconds > time.workSeconds) return `its chains: ${chain}, which more replicas cannot shorten; ${work}`;
  return `the work: ${work}; ${chain}`;
}

/** The makespan against the pooled bound, and each replica's utilization. */
function poolLines(time: PoolTime): string[] {
  const over = time.boundSeconds > 0 ? ` (the makespan ${(time.makespanSeconds / time.boundSeconds).toFixed(2)}x it)` : '';
  return [
    line('pooled bound', `${count(time.boundSeconds)} s${over}: no schedule on these replicas ends sooner`),
    line('bound by', boundByLine(time)),
    ...(time.replicaUtilization.length > 1 ? [line('per replica', replicasLine(time.replicaUtilization))] : []),
  ];
}

/**
 * What the calls' figures leave out: an output a role cannot use is asked for again (--parse-retries), and
 * no forecast knows how many will be, so "exact" counted one call per output and said nothing of those.
 */
function askedAgainClause(parseRetries: number): string {
  if (parseRetries === 0) return '';
  return `one per output used: an output a role cannot use is asked again, up to ${parseRetries} time${parseRetries === 1 ? '' : 's'} (--parse-retries), each a call more`;
}

/** The forecast's figures, as the forecast prints them. */
function forecastLines(forecast: Forecast, parseRetries: number): string[] {
  const notes = {
    exact: 'exact',
    'upper bound': `upper bound: ${forecast.bounded.join(', ')} can make fewer`,
    incomplete: `incomplete: the replies decide how many calls ${forecast.uncounted.join(', ')} make, and no figure counts them`,
  };
  const callsNote = notes[forecast.callsAre];
  const [low, high] = forecast.makespanInterval;
  return [
    `calls (${[callsNote, askedAgainClause(parseRetries)].filter(Boolean).join('; counted ')})`,
    ...Object.entries(forecast.calls).map(([role, calls]) => line(role, count(calls))),
    line('total', count(forecast.callsTotal)),
    `tokens`,
    line('prompt', count(forecast.promptTokens)),
    line('output', count(forecast.outputTokens)),
    `time and cost`,
    line('makespan', `${count(forecast.makespanSeconds)} s (${hours(forecast.makespanSeconds)}); ${forecast.draws} draw${forecast.draws === 1 ? '' : 's'}: ${count(low)}-${count(high)} s`),
    line('utilization', percent(forecast.utilization)),
    ...poolLines(forecast),
    forecast.gpuHours === null ? line('cost', (forecast.cost ?? 0).toFixed(2)) : line('GPU-hours', forecast.gpuHours.toFixed(2)),
  ];
}

/** The plan of a run before it starts. */
export function forecastText(forecast: Forecast, servers: Servers, config: RunConfig): string {
  return [
    `tmas plan: ${forecast.strategy}, ${forecast.problems} problems, T=${config.loop.maxIterations}, N=${config.loop.nCandidates}, M=${config.loop.nVerifications}, ${config.loop.schedule}`,
    `servers: ${forecast.cost === null ? serversLine(servers) : `a metered API, ${(servers.replicas[0] as CapacitySettings).sequenceTokensPerSecond} tok/s per call; --concurrency ${servers.concurrency}`}`,
    `lengths: ${forecast.lengths}`,
    '',
    ...forecastLines(forecast, config.roles.parseRetries),
  ].join('\n');
}

function difference(value: number | null): string {
  return value === null ? '—' : `${value >= 0 ? '+' : ''}${(value * 100).toFixed(1)}%`;
}

function figure(value: number, name: string): string {
  return name === 'utilization' ? percent(value) : count(value);
}

/** What the row of calls asked again means, when the run has one. */
function askedAgainNote(check: CheckResult): string[] {
  const askedAgain = check.rows.find((row) => row.figure === ASKED_AGAIN);
  if (askedAgain === undefined) return [];
  return [
    `${ASKED_AGAIN}: ${count(askedAgain.actual)} calls whose output the role could not use and asked for again (--parse-retries); no forecast counts them, so the calls above are the run's others. Their tokens and time are in the run's figures.`,
    '',
  ];
}

/**
 * A run's utilization is its output tokens over the described servers' D × its makespan: above
 * 100%, the run decoded faster than the servers the flags describe, so its time and utilization
 * are not comparable with the forecast's, and the note says which flag to give.
 */
function overfullNote(check: CheckResult, journal: RunJournal): string[] {
  const utilization = check.rows.find((row) => row.figure === 'utilization');
  if (utilization === undefined || utilization.actual <= 1) return [];
  const why = journal.simulated
    ? 'it ran on the simulated model, whose replies take no GPU time unless it was started with --capacity (then give its --time-scale)'
    : "give its servers' --decode-tokens-per-second and --replicas";
  return [
    `utilization over 100%: the run decoded faster than the servers described here, so its makespan and utilization are not a measure of them; ${why}.`,
    '',
  ];
}

/** The forecast from a finished run's settings beside what it did. */
export function checkText(forecast: Forecast, check: CheckResult, journal: RunJournal): string {
  const rows = check.rows.map((row) => `  ${row.figure.padEnd(24)}${figure(row.forecast, row.figure).padStart(16)}${figure(row.actual, row.figure).padStart(16)}${difference(row.difference).padStart(10)}`);
  const largest = check.largest.map((row) => `${row.figure} (${difference(row.difference)})`);
  return [
    `tmas plan --check ${journal.dir}: ${forecast.strategy}, ${forecast.problems} problems; calls forecast ${forecast.callsAre === 'exact' ? 'exactly' : forecast.callsAre === 'upper bound' ? 'as an upper bound' : `in part (${forecast.uncounted.join(', ')} not)`}`,
    `lengths: ${forecast.lengths}`,
    '',
    `  ${'figure'.padEnd(24)}${'forecast'.padStart(16)}${'run'.padStart(16)}${'diff'.padStart(10)}`,
    ...rows,
    '',
    ...askedAgainNote(check),
    ...overfullNote(check, journal),
    largest.length === 0 ? 'The forecast matches the run within 1% on every figure.' : `Largest differences: ${largest.join('; ')}.`,
  ].join('\n');
}

/** A finished run replayed under other settings. */
export function whatIfText(result: Simulated & { run: string; methods?: string[]; calls: number; runMakespanSeconds: number; concurrency: number; schedule: string; stopped: string[] }, servers: Servers): string {
  const whose = result.methods === undefined ? 'its' : `its ${result.methods.length} runs' (${result.methods.join(', ')}), at once,`;
  return [
    `tmas plan --from ${result.run}: ${whose} ${count(result.calls)} journaled calls replayed, ${result.schedule}`,
    ...result.stopped.map((why) => `partial: ${why}; these figures are of the calls it made, not of the whole run (tmas run --resume completes it)`),
    `servers: ${serversLine(servers)}`,
    '',
    line('makespan', `${count(result.makespanSeconds)} s (${hours(result.makespanSeconds)})`),
    line('utilization', percent(result.utilization)),
    ...poolLines(result),
    line('output tokens', count(result.decodedTokens)),
    line(result.methods === undefined ? 'the run took' : 'the runs took', `${count(result.runMakespanSeconds)} s (${hours(result.runMakespanSeconds)}), ${result.methods === undefined ? 'its' : 'first call to last, their'} own servers and settings`),
  ].join('\n');
}

/** The forecast of a table: each method's calls and its makespan alone, then the table's at once. */
export function tableText(forecast: TableForecast, servers: Servers, parseRetries: number): string {
  const [low, high] = forecast.makespanInterval;
  const rows = forecast.methods.map((m) => `  ${m.strategy.padEnd(16)}${count(m.callsTotal).padStart(12)}${(m.callsAre === 'exact' ? '' : '*').padEnd(2)}${count(m.outputTokens).padStart(16)}${count(m.aloneSeconds).padStart(12)}`);
  const marked = forecast.methods.filter((m) => m.callsAre !== 'exact').map((m) => `${m.strategy} (${m.callsAre === 'upper bound' ? `${m.bounded.join(', ')} can make fewer` : `${m.uncounted.join(', ')} not counted`})`);
  return [
    `tmas plan: a table of ${forecast.strategies.length} methods run at once, ${forecast.problems} problems`,
    `servers: ${forecast.cost === null ? serversLine(servers) : `a metered API; --concurrency ${servers.concurrency}`}`,
    `lengths: ${forecast.methods[0]?.lengths ?? ''}`,
    '',
    `  ${'method'.padEnd(16)}${'calls'.padStart(12)}  ${'output tokens'.padStart(16)}${'alone, s'.padStart(12)}`,
    ...rows,
    ...(marked.length === 0 ? [] : [`  * calls not exact: ${marked.join('; ')}`]),
    ...(parseRetries === 0 ? [] : [`  calls counted ${askedAgainClause(parseRetries)}`]),
    `time and cost, the methods at once`,
    line('calls', count(forecast.callsTotal)),
    line('output tokens', count(forecast.outputTokens)),
    line('makespan', `${count(forecast.makespanSeconds)} s (${hours(forecast.makespanSeconds)}); ${forecast.draws} draw${forecast.draws === 1 ? '' : 's'}: ${count(low)}-${count(high)} s`),
    line('one after another', `${count(forecast.sequentialSeconds)} s (${hours(forecast.sequentialSeconds)}): each method alone, in turn`),
    line('utilization', percent(forecast.utilization)),
    ...poolLines(forecast),
    forecast.gpuHours === null ? line('cost', (forecast.cost ?? 0).toFixed(2)) : line('GPU-hours', forecast.gpuHours.toFixed(2)),
  ].join('\n');
}
