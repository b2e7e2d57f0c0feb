/**
 * A run's forecast before it starts: its calls by role (from the strategy's
 * declarations), their tokens, and its makespan over several draws of the
 * lengths, each simulated on the servers' capacity model with the run's
 * schedule and ranking; then GPU-hours, or the cost on a metered API.
 */
import type { LoopSettings, Strategy } from '../../machines/contract.ts';
import { buildCallGraph, type IterationCalls } from './call-graph.ts';
import type { LengthModel } from './lengths.ts';
import { plannedCounts } from './planned-calls.ts';
import { simulateCalls, type Servers, type Simulated } from './simulate.ts';

/** How the servers are paid for: GPU-hours of the replicas, or tokens at a price per million. */
export type Billing = { gpusPerReplica: number } | { pricePerMillion: { input: number; output: number } };

/** What a forecast is made from. */
export interface ForecastInput {
  strategy: Strategy;
  settings: LoopSettings;
  /** judged[p]: problem p has a reference the judge checks. */
  judged: boolean[];
  lengths: LengthModel;
  servers: Servers;
  /** Draws of the lengths, each simulated once. */
  draws: number;
  billing: Billing;
}

/** The forecast, as `tmas plan --json` prints it. */
export interface Forecast {
  strategy: string;
  problems: number;
  /** Calls by role; roles in `bounded` are upper bounds. */
  calls: Record<string, number>;
  callsTotal: number;
  /** `exact`; `upper bound` where a role's count is one; `incomplete` where a role has no count (`uncounted`), whatever the others are. */
  callsAre: 'exact' | 'upper bound' | 'incomplete';
  bounded: string[];
  /** Roles whose count the strategy does not declare: not in any figure. */
  uncounted: string[];
  promptTokens: number;
  outputTokens: number;
  /** The median draw's makespan, and the lowest and highest of the draws. */
  makespanSeconds: number;
  makespanInterval: [number, number];
  /** Decoded tokens ÷ the replicas' decode throughput × makespan, median draw. */
  utilization: number;
  /** Replicas × GPUs per replica × makespan; null on a metered API. */
  gpuHours: number | null;
  /** Prompt and output tokens at the price per million; null on GPUs. */
  cost: number | null;
  draws: number;
  lengths: string;
}

/** Every problem's iterations, their calls' lengths from draw `draw`. */
function drawnCalls(counts: Array<Array<Record<string, number>>>, lengths: LengthModel, draw: number): IterationCalls[][] {
  return counts.map((iterations, problem) =>
    iterations.map((roles, iteration) => ({
      iteration,
      roles: Object.entries(roles).map(([role, count]) => ({ role, calls: Array.from({ length: count }, (_, index) => lengths.lengthsOf({ draw, problem, iteration, role, index })) })),
    })),
  );
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** The forecast of a run. */
export function forecastRun(input: ForecastInput): Forecast {
  const { strategy, settings } = input;
  const planned = input.judged.map((judged) => plannedCounts(strategy, settings, judged));
  const calls: Record<string, number> = {};
  for (const problem of planned) for (const iteration of problem.perIteration) for (const [role, count] of Object.entries(iteration)) calls[role] = (calls[role] ?? 0) + count;
  const bounded = [...new Set(planned.flatMap((p) => p.bounded))].filter((role) => calls[role] !== undefined);
  const uncounted = [...new Set(planned.flatMap((p) => p.uncounted))];
  const shape = { stages: strategy.stages ?? {}, schedule: settings.schedule ?? 'pipelined' };
  const runs: Simulated[] = [];
  for (let draw = 0; draw < input.draws; draw++) {
    const graph = buildCallGraph(drawnCalls(planned.map((p) => p.perIteration), input.lengths, draw), shape);
    runs.push(simulateCalls(graph, { servers: input.servers, iterations: settings.maxIterations, stages: shape.stages }));
  }
  const makespans = runs.map((run) => run.makespanSeconds);
  const middle = runs.find((run) => run.makespanSeconds === median(makespans)) as Simulated;
  const mean = (pick: (run: Simulated) => number) => Math.round(runs.reduce((sum, run) => sum + pick(run), 0) / runs.length);
  const promptTokens = mean((run) => run.promptTokens);
  const outputTokens = mean((run) => run.decodedTokens);
  const { billing } = input;
  return {
    strategy: strategy.name,
    problems: input.judged.length,
    calls,
    callsTotal: Object.values(calls).reduce((a, b) => a + b, 0),
    callsAre: uncounted.length > 0 ? 'incomplete' : bounded.length > 0 ? 'upper bound' : 'exact',
    bounded,
    uncounted,
    promptTokens,
    outputTokens,
    makespanSeconds: middle.makespanSeconds,
    makespanInterval: [Math.min(...makespans), Math.max(...makespans)],
    utilization: middle.utilization,
    gpuHours: 'gpusPerReplica' in billing ? (input.servers.replicas * billing.gpusPerReplica * middle.makespanSeconds) / 3600 : null,
    cost: 'pricePerMillion' in billing ? (promptTokens * billing.pricePerMillion.input + outputTokens * billing.pricePerMillion.output) / 1e6 : null,
    draws: input.draws,
    lengths: input.lengths.description,
  };
}
