/** What `tmas plan` prints: a forecast, a forecast beside its run (--check), a what-if (--from). */
import type { RunConfig } from '../settings/config.ts';
import type { CheckResult } from '../plan/check.ts';
import type { Forecast } from '../plan/forecast.ts';
import type { RunJournal } from '../plan/run-journal.ts';
import type { Servers, Simulated } from '../plan/simulate.ts';

const count = (value: number): string => Math.round(value).toLocaleString('en-US');
const hours = (seconds: number): string => `${(seconds / 3600).toFixed(2)} h`;
const percent = (fraction: number): string => `${(fraction * 100).toFixed(1)}%`;
const line = (label: string, value: string): string => `  ${label.padEnd(22)}${value}`;

function serversLine(servers: Servers): string {
  const c = servers.capacity;
  return `${servers.replicas} replica${servers.replicas === 1 ? '' : 's'}, each D ${count(c.decodeTokensPerSecond)} tok/s, c ${count(c.sequenceTokensPerSecond)} tok/s per sequence, K ${count(c.kvTokens)} KV tokens, prefill ${count(c.prefillTokensPerSecond)} tok/s; --concurrency ${servers.concurrency}`;
}

/** The forecast's figures, as the forecast and --check print them. */
function forecastLines(forecast: Forecast): string[] {
  const notes = {
    exact: 'exact',
    'upper bound': `upper bound: ${forecast.bounded.join(', ')} can make fewer`,
    incomplete: `incomplete: the replies decide how many calls ${forecast.uncounted.join(', ')} make, and no figure counts them`,
  };
  const callsNote = notes[forecast.callsAre];
  const [low, high] = forecast.makespanInterval;
  return [
    `calls (${callsNote})`,
    ...Object.entries(forecast.calls).map(([role, calls]) => line(role, count(calls))),
    line('total', count(forecast.callsTotal)),
    `tokens`,
    line('prompt', count(forecast.promptTokens)),
    line('output', count(forecast.outputTokens)),
    `time and cost`,
    line('makespan', `${count(forecast.makespanSeconds)} s (${hours(forecast.makespanSeconds)}); ${forecast.draws} draw${forecast.draws === 1 ? '' : 's'}: ${count(low)}-${count(high)} s`),
    line('utilization', percent(forecast.utilization)),
    forecast.gpuHours === null ? line('cost', (forecast.cost ?? 0).toFixed(2)) : line('GPU-hours', forecast.gpuHours.toFixed(2)),
  ];
}

/** The plan of a run before it starts. */
export function forecastText(forecast: Forecast, servers: Servers, config: RunConfig): string {
  return [
    `tmas plan: ${forecast.strategy}, ${forecast.problems} problems, T=${config.loop.maxIterations}, N=${config.loop.nCandidates}, M=${config.loop.nVerifications}, ${config.loop.schedule}`,
    `servers: ${forecast.cost === null ? serversLine(servers) : `a metered API, ${servers.capacity.sequenceTokensPerSecond} tok/s per call; --concurrency ${servers.concurrency}`}`,
    `lengths: ${forecast.lengths}`,
    '',
    ...forecastLines(forecast),
  ].join('\n');
}

function difference(value: number | null): string {
  return value === null ? '—' : `${value >= 0 ? '+' : ''}${(value * 100).toFixed(1)}%`;
}

function figure(value: number, name: string): string {
  return name === 'utilization' ? percent(value) : count(value);
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
    largest.length === 0 ? 'The forecast matches the run within 1% on every figure.' : `Largest differences: ${largest.join('; ')}.`,
  ].join('\n');
}

/** A finished run replayed under other settings. */
export function whatIfText(result: Simulated & { run: string; calls: number; runMakespanSeconds: number; concurrency: number; schedule: string }, servers: Servers): string {
  return [
    `tmas plan --from ${result.run}: its ${count(result.calls)} journaled calls replayed, ${result.schedule}`,
    `servers: ${serversLine(servers)}`,
    '',
    line('makespan', `${count(result.makespanSeconds)} s (${hours(result.makespanSeconds)})`),
    line('utilization', percent(result.utilization)),
    line('output tokens', count(result.decodedTokens)),
    line('the run took', `${count(result.runMakespanSeconds)} s (${hours(result.runMakespanSeconds)}), its own servers and settings`),
  ].join('\n');
}
