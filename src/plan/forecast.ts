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
import { simulateRuns, type PlannedRun, type Servers, type Simulated } from './simulate.ts';

/** How the servers are paid for: GPU-hours of the replicas, or tokens at a price per million. */
export type Billing = { gpusPerReplica: number } | { pricePerMillion: { input: number; output: number } };

/** One run a forecast is made of: its method, its loop, its problems and where its lengths come from. */
export interface PlannedMethod {
  strategy: Strategy;
  settings: LoopSettings;
  /** judged[p]: problem p has a reference the judge checks. */
  judged: boolean[];
  lengths: LengthModel;
}

/** What a forecast is made from. */
export interface ForecastInput extends PlannedMethod {
  servers: Servers;
  /** Draws of the lengths, each simulated once. */
  draws: number;
  billing: Billing;
}

/** What a forecast says of the time and cost of its calls on the servers. */
export interface TimeForecast {
  /** The median draw's makespan, and the lowest and highest of the draws. */
  makespanSeconds: number;
  makespanInterval: [number, number];
  /** Decoded tokens ÷ the replicas' decode throughput × makespan, median draw. */
  utilization: number;
  /** Each replica's share of its own decode throughput over the makespan, median draw. */
  replicaUtilization: number[];
  /** The pooled bound of the median draw: no schedule on these servers ends sooner (simulate.ts). */
  boundSeconds: number;
  /** Its two terms: all decoded tokens over the replicas' D, and the longest chain at the fastest c. */
  workSeconds: number;
  chainSeconds: number;
  /** Replicas × GPUs per replica × makespan; null on a metered API. */
  gpuHours: number | null;
  /** Prompt and output tokens at the price per million; null on GPUs. */
  cost: number | null;
  draws: number;
}

/** The forecast, as `tmas plan --json` prints it. */
export interface Forecast extends TimeForecast {
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
  lengths: string;
}

/** Every problem's iterations, their calls' lengths from draw `draw`. */
function drawnCalls(counts: Array<Array<Record<string, number>>>, lengths: LengthModel, draw: number, run: string | undefined): IterationCalls[][] {
  return counts.map((iterations, problem) =>
    iterations.map((roles, iteration) => ({
      iteration,
      roles: Object.entries(roles).map(([role, count]) => ({ role, calls: Array.from({ length: count }, (_, index) => lengths.lengthsOf({ draw, problem, iteration, role, index, ...(run === undefined ? {} : { run }) })) })),
    })),
  );
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** A method's planned calls: counted once, drawn afresh for each draw. */
export interface MethodPlan {
  method: PlannedMethod;
  calls: Record<string, number>;
  bounded: string[];
  uncounted: string[];
  /** The run's calls and what ranks them, lengths from draw `draw`. */
  graph(draw: number): PlannedRun;
}

/** Counts a method's calls; `run` keys its drawn lengths apart from other methods' (a table), none for a run alone. */
export function planMethod(method: PlannedMethod, run?: string): MethodPlan {
  const { strategy, settings } = method;
  const planned = method.judged.map((judged) => plannedCounts(strategy, settings, judged));
  const calls: Record<string, number> = {};
  for (const problem of planned) for (const iteration of problem.perIteration) for (const [role, count] of Object.entries(iteration)) calls[role] = (calls[role] ?? 0) + count;
  const bounded = [...new Set(planned.flatMap((p) => p.bounded))].filter((role) => calls[role] !== undefined);
  const uncounted = [...new Set(planned.flatMap((p) => p.uncounted))];
  const shape = { stages: strategy.stages ?? {}, schedule: settings.schedule ?? 'pipelined' };
  const counts = planned.map((p) => p.perIteration);
  return { method, calls, bounded, uncounted, graph: (draw) => ({ calls: buildCallGraph(drawnCalls(counts, method.lengths, draw, run), shape), iterations: rankedIterations(strategy, settings.maxIterations), stages: shape.stages }) };
}

/** Prompt and output tokens of calls. */
export interface Tokens {
  promptTokens: number;
  outputTokens: number;
}

/** What the draws of a forecast gave: each draw simulated, the median one, and each method's tokens (the draws' mean). */
export interface Draws {
  runs: Simulated[];
  middle: Simulated;
  middleDraw: number;
  tokens: Tokens[];
}

/** Simulates each draw of `plans` together on the servers. */
export function simulateDraws(plans: MethodPlan[], servers: Servers, draws: number): Draws {
  const runs: Simulated[] = [];
  const sums = plans.map(() => ({ promptTokens: 0, outputTokens: 0 }));
  for (let draw = 0; draw < draws; draw++) {
    const graphs = plans.map((plan) => plan.graph(draw));
    graphs.forEach((graph, index) => {
      const sum = sums[index] as Tokens;
      for (const call of graph.calls) [sum.promptTokens, sum.outputTokens] = [sum.promptTokens + call.promptTokens, sum.outputTokens + call.outputTokens];
    });
    runs.push(simulateRuns(graphs, servers));
  }
  const middleDraw = runs.findIndex((run) => run.makespanSeconds === median(runs.map((r) => r.makespanSeconds)));
  const tokens = sums.map((sum) => ({ promptTokens: Math.round(sum.promptTokens / draws), outputTokens: Math.round(sum.outputTokens / draws) }));
  return { runs, middle: runs[middleDraw] as Simulated, middleDraw, tokens };
}

/** The time and cost of simulated draws, `promptTokens` and `outputTokens` being their mean. */
export function timeForecast(runs: Simulated[], middle: Simulated, input: Tokens & { servers: Servers; billing: Billing }): TimeForecast {
  const makespans = runs.map((run) => run.makespanSeconds);
  const { billing } = input;
  return {
    makespanSeconds: middle.makespanSeconds,
    makespanInterval: [Math.min(...makespans), Math.max(...makespans)],
    utilization: middle.utilization,
    replicaUtilization: middle.replicaUtilization,
    boundSeconds: middle.boundSeconds,
    workSeconds: middle.workSeconds,
    chainSeconds: middle.chainSeconds,
    gpuHours: 'gpusPerReplica' in billing ? (input.servers.replicas.length * billing.gpusPerReplica * middle.makespanSeconds) / 3600 : null,
    cost: 'pricePerMillion' in billing ? (input.promptTokens * billing.pricePerMillion.input + input.outputTokens * billing.pricePerMillion.output) / 1e6 : null,
    draws: runs.length,
  };
}

/** What a method's forecast says of its calls and their tokens. */
export function callsForecast(plan: MethodPlan, tokens: Tokens): Omit<Forecast, keyof TimeForecast> {
  const { calls, bounded, uncounted } = plan;
  return {
    strategy: plan.method.strategy.name,
    problems: plan.method.judged.length,
    calls,
    callsTotal: Object.values(calls).reduce((a, b) => a + b, 0),
    callsAre: uncounted.length > 0 ? 'incomplete' : bounded.length > 0 ? 'upper bound' : 'exact',
    bounded,
    uncounted,
    ...tokens,
    lengths: plan.method.lengths.description,
  };
}

/** The forecast of a run. */
export function forecastRun(input: ForecastInput): Forecast {
  const plan = planMethod(input);
  const { runs, middle, tokens } = simulateDraws([plan], input.servers, input.draws);
  const own = tokens[0] as Tokens;
  return { ...callsForecast(plan, own), ...timeForecast(runs, middle, { servers: input.servers, billing: input.billing, ...own }) };
}

/** The iterations a run's calls are ranked over, as the runtime ranks them: a strategy that makes every call up front ranks as one. */
export function rankedIterations(strategy: { upFront?: boolean }, maxIterations: number): number {
  return strategy.upFront === true ? 1 : maxIterations;
}
