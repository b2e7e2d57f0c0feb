/**
 * The schedule benchmark: the order in which held calls go, compared over many
 * draws of the output lengths. TMAS's chain of dependent calls (per problem and
 * iteration: N solutions, M verifications of each, a summary of each, then the
 * two bank updates) runs as a discrete-event simulation on the simulator's
 * capacity model (src/sim/capacity/engine.ts on a manual clock: no HTTP, no
 * wall time), its lengths drawn as the simulator draws them
 * (src/sim/capacity/output-length.ts), its held calls ranked by the run's own
 * rank (src/host/call-ranks.ts) in the gateway's own heap
 * (src/gateway/held-calls.ts) and sent up to the knee's cap (on a server whose
 * KV cache binds first, while the server's queue is under the load limit's
 * margin, as tmas does there). A clairvoyant
 * rule, which ranks each call by the true length of its chain to the end, is
 * the bar: how far an order alone could go if lengths were known.
 *
 * Why: a live capacity run (bench `capacity`) is one draw of the lengths per
 * 80 s, and one draw moves the makespan by up to ±7 points by itself, more
 * than the rules differ. Here each rule meets the same 24 draws, in under a minute.
 * What it leaves out: the gateway's reading of the load and the knee (the cap
 * is the true knee's), the network and the process, the prefix cache (every
 * prompt is its own); the live benchmark keeps those.
 */
import { HeldCalls, type Held } from '../gateway/held-calls.ts';
import type { CallRank } from '../gateway/completion.ts';
import { createCallRanks, type CallRanks } from '../host/call-ranks.ts';
import { tmasStrategy } from '../../machines/strategies/tmas/index.ts';
import { createManualClock } from '../sim/capacity/clock.ts';
import { createCapacityEngine } from '../sim/capacity/engine.ts';
import { describeCapacity, resolveCapacity, type CapacityOptions } from '../sim/capacity/options.ts';
import { outputLengthOf } from '../sim/capacity/output-length.ts';
import { CAP_OVER_KNEE } from '../gateway/throughput-knee.ts';
import { marginOf } from '../gateway/load-limit.ts';
import type { Benchmark, BenchRow } from './types.ts';

/** The run's shape, as in the issue's reference figures. */
const RUN = { problems: 30, iterations: 3, candidates: 8, verifications: 8, concurrency: 800 };
type RunShape = typeof RUN;
/** Prompt sizes by role, in tokens: they set only the KV cache each call holds. */
const PROMPT_TOKENS: Record<string, number> = { solution: 500, verification: 2_500, summary: 4_000, experience: 4_000, guideline: 4_000 };
/** A completion limit, as a run's window sets one. */
const MAX_OUTPUT = 120_000;
/** A judge call's completion limit (`--judge-max-tokens`' default). */
const JUDGE_MAX_OUTPUT = 4_096;

/** How held calls are ordered and how many go to the server. */
interface Rule {
  label: string;
  /** A fresh ranking per draw, null for first come first served, or 'clairvoyant': each call ranked by the true length of the longest chain from it to its problem's end (what no client can know: the bar for the others). */
  ranks: ((iterations: number) => CallRanks) | 'clairvoyant' | null;
  /** Each phase of a problem waits for the whole previous phase (the asyncio-like client), instead of each call for its own inputs. */
  barrier: boolean;
  /**
   * How many calls the server gets: up to the true knee's cap (`knee`); while
   * its own queue is under the load limit's margin (`margin`: what tmas does
   * where no knee is found, a server whose KV cache binds first); or the
   * whole concurrency, the server queueing the rest (`none`).
   */
  limit: 'knee' | 'margin' | 'none';
}

const RULES: Rule[] = [
  { label: 'tmas (rank by stages left, capped at the knee)', ranks: (iterations) => createCallRanks(iterations, tmasStrategy.stages), barrier: false, limit: 'knee' },
  { label: 'rank by iterations left (before stages), capped', ranks: (iterations) => createCallRanks(iterations), barrier: false, limit: 'knee' },
  { label: 'first come first served, capped', ranks: null, barrier: false, limit: 'knee' },
  { label: 'clairvoyant (true longest chain left first), capped', ranks: 'clairvoyant', barrier: false, limit: 'knee' },
];
/** The baseline every rule is compared with, on every shape. */
const ASYNCIO: Rule = { label: 'asyncio-like (barrier per phase, server queue)', ranks: null, barrier: true, limit: 'none' };
/** tmas where the KV cache binds before decode: no knee is found (throughput-knee.ts sets such windows aside), the load limit keeps the server's queue short. */
const TMAS_MEMORY_BOUND: Rule = { label: 'tmas (rank by stages left, server queue at its margin: no knee)', ranks: (iterations) => createCallRanks(iterations, tmasStrategy.stages), barrier: false, limit: 'margin' };

/** One problem's iteration, every length drawn. */
interface IterationPlan {
  solutions: number[];
  /** checks[k][v]: the v-th verification of candidate k. */
  checks: number[][];
  summaries: number[];
  /** The experience and guideline calls. */
  banks: number[];
  /** judges[k][p]: the p-th judge pass on candidate k (none without the judge). */
  judges: number[][];
  /** The longest chain through the iteration: a candidate's solution, slowest check and summary, then the slower bank. */
  longest: number;
}

interface Call extends Held {
  problem: number;
  iteration: number;
  role: string;
  outputTokens: number;
  done(): void;
}

/** Every length of one draw: plans[problem][iteration]. */
function drawPlans(capacity: CapacityOptions, run: RunShape, draw: number, judgePasses: number): IterationPlan[][] {
  const settings = resolveCapacity(capacity);
  const shape = { median: settings.outputTokensMedian, p99: settings.outputTokensP99, problemSpread: settings.outputTokensProblemSpread };
  const { problems, iterations, candidates: n, verifications: m } = run;
  return Array.from({ length: problems }, (_, problem) => {
    const lengthOf = (key: string, limit = MAX_OUTPUT) => outputLengthOf(`${draw}/${problem}/${key}`, { ...shape, problem: `${draw}/${problem}` }, limit);
    return Array.from({ length: iterations }, (__, iteration) => {
      const solutions = Array.from({ length: n }, (_s, k) => lengthOf(`${iteration}/solution/${k}`));
      const checks = solutions.map((_s, k) => Array.from({ length: m }, (_c, v) => lengthOf(`${iteration}/verification/${k}/${v}`)));
      const summaries = solutions.map((_s, k) => lengthOf(`${iteration}/summary/${k}`));
      const banks = ['experience', 'guideline'].map((role) => lengthOf(`${iteration}/${role}`));
      const judges = solutions.map((_s, k) => Array.from({ length: judgePasses }, (_j, p) => lengthOf(`${iteration}/judge/${k}/${p}`, JUDGE_MAX_OUTPUT)));
      const longest = Math.max(...solutions.map((s, k) => s + Math.max(...(checks[k] as number[])) + (summaries[k] as number))) + Math.max(...banks);
      return { solutions, checks, summaries, banks, judges, longest };
    });
  });
}

/**
 * One run of `rule` on `draw`: its makespan over the lower bound (decoded
 * tokens / D, or the longest problem's chain at the per-sequence ceiling).
 * With `judgePasses`, each solution is graded that many times as soon as it
 * is written, by calls that go after every call of the loop; neither the
 * bank updates nor the next iteration wait for them, the one after that does
 * (as tmas's TMAS loop does); the chain leaves them out, as the live
 * benchmark's does.
 */
export function simulateSchedule(rule: Rule, shape: Shape, draw: number): number {
  const { capacity, judgePasses = 0 } = shape;
  const run = { ...RUN, ...shape.run };
  const settings = resolveCapacity(capacity);
  const clock = createManualClock();
  const engine = createCapacityEngine(settings, clock);
  const cap = rule.limit === 'knee' ? Math.round((CAP_OVER_KNEE * settings.decodeTokensPerSecond) / settings.sequenceTokensPerSecond) : run.concurrency;
  const underMargin = (): boolean => {
    if (rule.limit !== 'margin') return true;
    const { running, waiting } = engine.metrics();
    return waiting < marginOf(running);
  };
  const ranks = typeof rule.ranks === 'function' ? rule.ranks(run.iterations) : null;
  const plans = drawPlans(capacity, run, draw, judgePasses);
  // after[problem][iteration]: the longest chain from the end of that iteration's banks to the problem's end.
  const after = plans.map((iterations) => iterations.map((_, iteration) => iterations.slice(iteration + 1).reduce((sum, plan) => sum + plan.longest, 0)));
  const held = new HeldCalls<Call>();
  // judgesLeft[problem][iteration]: its judge passes still out; gradedWaiters: the next iteration waiting on them.
  const judgesLeft: number[][] = [];
  const gradedWaiters: Array<Map<number, () => void>> = [];
  let inFlight = 0;
  let sequence = 0;
  let decoded = 0;

  const pump = (): void => {
    while (inFlight < cap && underMargin()) {
      const sent = held.pop();
      if (sent === undefined) return;
      inFlight++;
      engine.submit({
        prompt: `${sent.problem}/${sent.iteration}/${sent.role}/${sent.sequence}`,
        promptTokens: PROMPT_TOKENS[sent.role] ?? 1_000,
        outputTokens: sent.outputTokens,
        steps: 1,
        onFinish: () => {
          inFlight--;
          decoded += sent.outputTokens;
          ranks?.record(String(sent.problem), sent.outputTokens);
          sent.done();
          pump();
        },
      });
    }
  };
  /** Holds one call; `chain` is the true longest chain from its start to its problem's end, which only the clairvoyant rule reads. */
  const send = (problem: number, iteration: number, role: string, outputTokens: number, chain: number, done: () => void): void => {
    const grading = role === 'judge';
    const rank: CallRank =
      rule.ranks === 'clairvoyant' ? { grading, remaining: chain } : (ranks?.rankOf({ problem: String(problem), iteration, role, grading }) ?? { grading, remaining: 0 });
    held.push({ rank, sequence: sequence++, problem, iteration, role, outputTokens, done });
  };
  /** Sends `count` calls and calls `then` once all are done. */
  const all = (count: number, each: (index: number, done: () => void) => void, then: () => void): void => {
    let left = count;
    for (let index = 0; index < count; index++) each(index, () => --left === 0 && then());
  };

  const iterate = (problem: number, iteration: number): void => {
    const plan = plans[problem]?.[iteration];
    if (plan === undefined) return;
    const { solutions, checks, summaries, banks, judges } = plan;
    const { candidates: n, verifications: m } = run;
    const rest = (after[problem] as number[])[iteration] as number;
    const afterSummary = Math.max(...banks) + rest;
    const check = (k: number, v: number) => (checks[k] as number[])[v] as number;
    const sendSolution = (k: number, done: () => void) =>
      send(problem, iteration, 'solution', solutions[k] as number, (solutions[k] as number) + Math.max(...(checks[k] as number[])) + (summaries[k] as number) + afterSummary, done);
    const sendCheck = (k: number, v: number, done: () => void) => send(problem, iteration, 'verification', check(k, v), check(k, v) + (summaries[k] as number) + afterSummary, done);
    const sendSummary = (k: number, done: () => void) => send(problem, iteration, 'summary', summaries[k] as number, (summaries[k] as number) + afterSummary, done);
    const sendJudge = (k: number, p: number, done: () => void) => send(problem, iteration, 'judge', (judges[k] as number[])[p] as number, 0, done);
    const updateBanks = (then: () => void) =>
      all(2, (b, done) => send(problem, iteration, b === 0 ? 'experience' : 'guideline', banks[b] as number, (banks[b] as number) + rest, done), then);
    if (rule.barrier) {
      // The judge passes go with the verifications, the phase after the solutions.
      all(n, sendSolution, () =>
        all(
          n * (m + judgePasses),
          (j, done) => (j < n * m ? sendCheck(Math.floor(j / m), j % m, done) : sendJudge(Math.floor((j - n * m) / judgePasses), (j - n * m) % judgePasses, done)),
          () => all(n, sendSummary, () => updateBanks(() => iterate(problem, iteration + 1))),
        ),
      );
    } else {
      // Once its solution is in, a candidate's judge passes start; the bank updates wait only for the
      // summaries, and the next iteration for the banks and the previous iteration's judge passes
      // (as the TMAS loop does: it runs at most one iteration ahead of its grading).
      const judging = (judgesLeft[problem] ??= []);
      judging[iteration] = n * judgePasses;
      let banksDone = false;
      let started = false;
      const next = (): void => {
        if (started || !banksDone) return;
        if ((judging[iteration - 1] ?? 0) > 0) {
          (gradedWaiters[problem] ??= new Map()).set(iteration - 1, next);
          return;
        }
        started = true;
        iterate(problem, iteration + 1);
      };
      const judged = (): void => {
        if (--(judging[iteration] as number) > 0) return;
        const waiter = gradedWaiters[problem]?.get(iteration);
        gradedWaiters[problem]?.delete(iteration);
        waiter?.();
      };
      const candidate = (k: number, done: () => void) =>
        sendSolution(k, () => {
          for (let p = 0; p < judgePasses; p++) sendJudge(k, p, judged);
          all(m, (v, checked) => sendCheck(k, v, checked), () => sendSummary(k, done));
        });
      all(n, candidate, () =>
        updateBanks(() => {
          banksDone = true;
          next();
        }),
      );
    }
    pump();
  };

  for (let problem = 0; problem < run.problems; problem++) iterate(problem, 0);
  pump();
  clock.runAll();
  const makespan = clock.now();
  engine.close();
  const longestProblem = Math.max(...plans.map((iterations) => iterations.reduce((sum, plan) => sum + plan.longest, 0)));
  const bound = Math.max(decoded / settings.decodeTokensPerSecond, longestProblem / settings.sequenceTokensPerSecond);
  return makespan / bound;
}

/** A server and its lengths, the rules compared on it (besides the asyncio-like client), and the run when not RUN's. */
interface Shape {
  label: string;
  capacity: CapacityOptions;
  rules: Rule[];
  judgePasses?: number;
  run?: Pick<RunShape, 'problems' | 'iterations'>;
}

const SHAPES: Shape[] = [
  { label: 'defaults', capacity: {}, rules: RULES },
  // The capacity ablations' run, whose live figures are one draw of these.
  { label: 'defaults, 24 × 4', capacity: {}, rules: [RULES[0] as Rule], run: { problems: 24, iterations: 4 } },
  { label: 'defaults, 4 judge passes', capacity: {}, rules: [RULES[0] as Rule], judgePasses: 4 },
  { label: 'defaults, 24 × 4, 4 judge passes', capacity: {}, rules: [RULES[0] as Rule], judgePasses: 4, run: { problems: 24, iterations: 4 } },
  // The capacity benchmark's target run: the same last chains weigh a quarter as much in a run four times as long.
  { label: 'defaults, 50 × 8', capacity: {}, rules: [RULES[0] as Rule], run: { problems: 50, iterations: 8 } },
  { label: 'median 5,000', capacity: { outputTokensMedian: 5_000 }, rules: RULES },
  { label: 'spread 0.4', capacity: { outputTokensProblemSpread: 0.4 }, rules: RULES },
  // About 45 sequences fit, fewer than the knee's 80: memory binds, and the bound (which ignores it) is far below.
  { label: 'KV 600,000', capacity: { kvTokens: 600_000 }, rules: [TMAS_MEMORY_BOUND] },
];

/** The schedule benchmark. */
export const scheduleBenchmark: Benchmark = {
  name: 'schedule',
  async run({ quick, log }) {
    const draws = quick ? 6 : 24;
    const rows: BenchRow[] = [];
    for (const shape of SHAPES) {
      const rules = [...shape.rules, ASYNCIO];
      const ratios = new Map<Rule, number[]>();
      for (const rule of rules) {
        ratios.set(rule, Array.from({ length: draws }, (_, draw) => simulateSchedule(rule, shape, draw + 1)));
        // The simulation is synchronous: let the runner's progress through between rules.
        await new Promise((resolve) => setImmediate(resolve));
        log(`schedule ${shape.label}: ${rule.label} done`);
      }
      const baseline = ratios.get(ASYNCIO) as number[];
      for (const rule of rules) {
        const values = ratios.get(rule) as number[];
        const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
        const ahead = values.filter((value, draw) => value < (baseline[draw] as number)).length;
        rows.push({
          figure: `schedule ${shape.label}: ${rule.label}: makespan / bound`,
          target: '—',
          measured: `mean ${mean.toFixed(3)}x, ${Math.min(...values).toFixed(3)}-${Math.max(...values).toFixed(3)}x${rule === ASYNCIO ? '' : `; ahead of asyncio-like in ${ahead} of ${draws}`}`,
          pass: null,
        });
      }
      rows.push({
        figure: `schedule ${shape.label}: the server`,
        target: '—',
        measured: `simulated: ${describeCapacity(resolveCapacity(shape.capacity))}; ${shape.run?.problems ?? RUN.problems} × ${shape.run?.iterations ?? RUN.iterations} × ${RUN.candidates} × ${RUN.verifications}, ${draws} draws of the lengths`,
        pass: null,
      });
    }
    return rows;
  },
};
