/**
 * A forecast set beside what the run did: calls by role, tokens, makespan and
 * utilization, each with its relative difference, and the largest named. The
 * calls a role asked again after an unusable output (--parse-retries) are a
 * row of their own: no forecast counts them, and counted by role they would
 * read as a forecast exceeded.
 */
import type { Forecast } from './forecast.ts';
import type { RunJournal } from './run-journal.ts';

/** One figure, forecast and actual. */
export interface CheckRow {
  figure: string;
  forecast: number;
  actual: number;
  /** (forecast − actual) ÷ actual; null when the actual is 0. */
  difference: number | null;
}

/** The comparison, and its rows with the largest differences first (at most three, only those over 1%). */
export interface CheckResult {
  rows: CheckRow[];
  largest: CheckRow[];
  /** The run's makespan in the server's seconds (its span × the time scale). */
  makespanSeconds: number;
}

/** The row of the calls asked again after an unusable output: no forecast counts them, so it has no difference. */
export const ASKED_AGAIN = 'calls asked again';

function row(figure: string, forecast: number, actual: number): CheckRow {
  return { figure, forecast, actual, difference: actual === 0 ? null : (forecast - actual) / actual };
}

/** Compares `forecast` with the run in `journal`; `decodeCapacity` is the servers' decode tokens/s in all, for the run's utilization. */
export function checkForecast(forecast: Forecast, journal: RunJournal, options: { timeScale: number; decodeCapacity: number }): CheckResult {
  // A call asked again after an unusable output is one no strategy declares: the calls by role are the run's others, and those asked again a row of their own.
  const actualCalls = new Map<string, number>();
  let askedAgain = 0;
  let promptTokens = 0;
  let outputTokens = 0;
  for (const call of journal.calls) {
    if (call.askedAgain) askedAgain++;
    else actualCalls.set(call.role, (actualCalls.get(call.role) ?? 0) + 1);
    promptTokens += call.promptTokens;
    outputTokens += call.outputTokens;
  }
  const makespanSeconds = journal.spanSeconds * options.timeScale;
  const roles = [...new Set([...Object.keys(forecast.calls), ...actualCalls.keys()])];
  const rows = [
    ...roles.map((role) => row(`calls: ${role}`, forecast.calls[role] ?? 0, actualCalls.get(role) ?? 0)),
    row('calls', forecast.callsTotal, journal.calls.length - askedAgain),
    ...(askedAgain > 0 ? [{ figure: ASKED_AGAIN, forecast: 0, actual: askedAgain, difference: null }] : []),
    row('prompt tokens', forecast.promptTokens, promptTokens),
    row('output tokens', forecast.outputTokens, outputTokens),
    row('makespan, s', forecast.makespanSeconds, makespanSeconds),
    row('utilization', forecast.utilization, makespanSeconds > 0 ? outputTokens / (options.decodeCapacity * makespanSeconds) : 0),
  ];
  const largest = rows
    .filter((r) => r.difference === null ? r.forecast !== 0 : Math.abs(r.difference) > 0.01)
    .sort((a, b) => Math.abs(b.difference ?? Number.POSITIVE_INFINITY) - Math.abs(a.difference ?? Number.POSITIVE_INFINITY))
    .slice(0, 3);
  return { rows, largest, makespanSeconds };
}
