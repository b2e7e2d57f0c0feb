/**
 * The forecast of a whole table: several methods on one problem set, their
 * calls sharing the servers at once (one gateway, one rank order across the
 * methods: pooled-runs.ts), each method's calls and tokens, and the time and
 * cost of them all. Beside it, each method alone on the same servers and
 * their sum, what the methods take one after another.
 */
import { callsForecast, planMethod, simulateDraws, timeForecast, type Billing, type Forecast, type PlannedMethod, type TimeForecast, type Tokens } from './forecast.ts';
import { simulateRuns, type Servers } from './simulate.ts';

/** One method of the table: its calls and tokens, and its makespan alone on the servers (the median draw's lengths). */
export type MethodForecast = Omit<Forecast, keyof TimeForecast> & { aloneSeconds: number };

/** The table's forecast, as `tmas plan --strategies … --json` prints it. */
export interface TableForecast extends TimeForecast {
  strategies: string[];
  problems: number;
  methods: MethodForecast[];
  callsTotal: number;
  promptTokens: number;
  outputTokens: number;
  /** The methods alone, one after another: the sum of their `aloneSeconds`. */
  sequentialSeconds: number;
}

/** What a table's forecast is made from. */
export interface TableInput {
  methods: PlannedMethod[];
  servers: Servers;
  draws: number;
  billing: Billing;
}

/** The forecast of the methods run at once on the servers. */
export function forecastTable(input: TableInput): TableForecast {
  const plans = input.methods.map((method) => planMethod(method, method.strategy.name));
  const { runs, middle, middleDraw, tokens } = simulateDraws(plans, input.servers, input.draws);
  const methods = plans.map((plan, index) => ({
    ...callsForecast(plan, tokens[index] as Tokens),
    aloneSeconds: simulateRuns([plan.graph(middleDraw)], input.servers).makespanSeconds,
  }));
  const sum = (pick: (method: MethodForecast) => number) => methods.reduce((total, method) => total + pick(method), 0);
  const all = { promptTokens: sum((method) => method.promptTokens), outputTokens: sum((method) => method.outputTokens) };
  return {
    strategies: methods.map((method) => method.strategy),
    problems: Math.max(...methods.map((method) => method.problems)),
    methods,
    callsTotal: sum((method) => method.callsTotal),
    ...all,
    sequentialSeconds: sum((method) => method.aloneSeconds),
    ...timeForecast(runs, middle, { servers: input.servers, billing: input.billing, ...all }),
  };
}
