/**
 * The schedule benchmark: the order in which held calls go, compared over many
 * draws of the output lengths. TMAS's chain of dependent calls (per problem and
 * iteration: N solutions, M verifications of each, a summary of each, then the
 * two bank updates) runs as a discrete-event simulation on the simulator's
 * capacity model (src/sim/capacity/engine.ts on a manual clock: no HTTP, no
 * wall time), its lengths drawn as the simulator draws them
 * (src/sim/capacity/output-length.ts), its held calls ranked by the run's own
 * rank (src/host/calls/call-ranks.ts) in the gateway's own heap
 * (src/gateway/dispatch/held-calls.ts) and sent up to the knee's cap (on a server whose
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
 *
 * The rules: schedule-rules.ts; the lengths of a draw: schedule-plans.ts; the
 * server and its held calls: src/plan/scheduled-server.ts; the calls of a run and what
 * each waits for: schedule-run.ts.
 */
import { createManualClock } from '../../src/sim/capacity/clock.ts';
import { createCapacityEngine } from '../../src/sim/capacity/engine.ts';
import { describeCapacity, resolveCapacity, type CapacityOptions, type CapacitySettings } from '../../src/sim/capacity/options.ts';
import { drawPlans, RUN, type RunShape } from './schedule-plans.ts';
import { ASYNCIO, PARTLY_CLAIRVOYANT, RULES, SLOW_TAKES_NEXT, TMAS_MEMORY_BOUND, type Rule } from './schedule-rules.ts';
import { ScheduleRun } from './schedule-run.ts';
import { knownChain, TRUE_CHAIN } from './partial-knowledge.ts';
import { ScheduledServer } from '../../src/plan/scheduled-server.ts';
import { replicaCapOf } from '../../src/plan/simulate.ts';
import type { Benchmark, BenchRow } from '../harness/types.ts';

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
  const clock = createManualClock();
  const replicas = replicaSettings(shape).map((settings) => {
    const cap = rule.limit === 'knee' ? replicaCapOf(settings) : run.concurrency;
    return { engine: createCapacityEngine(settings, clock), capacity: settings, cap };
  });
  const ranks = typeof rule.ranks === 'function' ? rule.ranks(run.iterations) : null;
  const plans = drawPlans(capacity, run, draw, judgePasses);
  // One server takes no more than its cap; a pool, the run's concurrency over its replicas' caps, routed as the gateway routes.
  const pooled = replicas.length > 1;
  const concurrency = pooled || rule.limit !== 'knee' ? run.concurrency : (replicas[0] as { cap: number }).cap;
  const partly = typeof rule.ranks === 'object' && rule.ranks !== null ? rule.ranks.knows : null;
  const clairvoyant = rule.ranks === 'clairvoyant' || partly !== null;
  const server = new ScheduledServer({ replicas, concurrency, limit: rule.limit, routing: pooled ? 'prefix' : 'least-loaded', ranks, clairvoyant, slowTakesNext: rule.slowTakesNext === true });
  new ScheduleRun(rule, run, plans, judgePasses, server, partly === null ? TRUE_CHAIN : knownChain(partly, plans)).start();
  clock.runAll();
  const makespan = clock.now();
  for (const { engine } of replicas) engine.close();
  const longestProblem = Math.max(...plans.map((iterations) => iterations.reduce((sum, plan) => sum + plan.longest, 0)));
  const decode = replicas.reduce((sum, { capacity: settings }) => sum + settings.decodeTokensPerSecond, 0);
  const fastest = Math.max(...replicas.map(({ capacity: settings }) => settings.sequenceTokensPerSecond));
  const bound = Math.max(server.decoded / decode, longestProblem / fastest);
  return makespan / bound;
}

/** The shape's servers: one, or its pool's replicas, the first `halfSpeed` of them with D and c halved. */
function replicaSettings(shape: Shape): CapacitySettings[] {
  const settings = resolveCapacity(shape.capacity);
  const half = { ...settings, decodeTokensPerSecond: settings.decodeTokensPerSecond / 2, sequenceTokensPerSecond: settings.sequenceTokensPerSecond / 2 };
  return Array.from({ length: shape.pool?.replicas ?? 1 }, (_, index) => (index < (shape.pool?.halfSpeed ?? 0) ? half : settings));
}

/** A server and its lengths, the rules compared on it (besides the asyncio-like client), and the run when not RUN's. */
interface Shape {
  label: string;
  capacity: CapacityOptions;
  rules: Rule[];
  judgePasses?: number;
  run?: Pick<RunShape, 'problems' | 'iterations'>;
  /** A pool of replicas (the run's --concurrency over them, --routing prefix), the first `halfSpeed` at half speed; one server when absent. */
  pool?: { replicas: number; halfSpeed?: number };
  /** Draws of the lengths when fewer than the benchmark's: a pool's run of 100 × 4 takes a second or two a draw. */
  draws?: number;
  /** The issue's target for tmas's rank on this shape (makespan / bound at most), checked on the mean of the draws; none when absent. */
  target?: number;
}

/** tmas's rank and the clairvoyant bar, on pools. */
const POOL_RULES: Rule[] = [RULES[0] as Rule, RULES[3] as Rule];

/**
 * Pools at the scale users run (50 problems a replica × 8 iterations: 400 × 8 on eight, against
 * IMO-AnswerBench's 400 × 20), where the pool targets of capacity-replicas are checked. At 100 × 4
 * a run on eight replicas lasts about 2.2 simulated hours and the longest single call (about
 * 1,000 s at c) is an eighth of it: whichever call turns out longest ends the run, and no order
 * that does not know the lengths in advance comes within 3% there. The bound is the same; only
 * the run is the size the targets were set for. 30 to 60 s a draw on eight replicas.
 */
const USER_SCALE: Shape[] = [
  ...[2, 4, 8].map((replicas): Shape => ({ label: `pool of ${replicas}, ${50 * replicas} × 8`, capacity: {}, rules: POOL_RULES, run: { problems: 50 * replicas, iterations: 8 }, pool: { replicas }, draws: 2, target: 1.03 })),
  { label: 'pool of 4 (2 at half speed), 200 × 8', capacity: {}, rules: POOL_RULES, run: { problems: 200, iterations: 8 }, pool: { replicas: 4, halfSpeed: 2 }, draws: 2, target: 1.05 },
];

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
  // The capacity-replicas benchmark's run on its pools, and capacity-chains' on its: how much of each live gap an order could close.
  ...[2, 4, 8].map((replicas): Shape => ({ label: `pool of ${replicas}, 100 × 4`, capacity: {}, rules: POOL_RULES, run: { problems: 100, iterations: 4 }, pool: { replicas }, draws: 6 })),
  // The issue's live shapes: where between tmas's order and the bar knowing the lengths would put a run.
  { label: 'pool of 4, 30 × 3', capacity: {}, rules: [...POOL_RULES, ...PARTLY_CLAIRVOYANT], pool: { replicas: 4 } },
  { label: 'pool of 4 (2 at half speed), 30 × 3', capacity: {}, rules: [...POOL_RULES, ...SLOW_TAKES_NEXT, ...PARTLY_CLAIRVOYANT], pool: { replicas: 4, halfSpeed: 2 } },
  { label: 'pool of 4, 30 × 3, spread 0.5', capacity: { outputTokensProblemSpread: 0.5 }, rules: POOL_RULES, pool: { replicas: 4 } },
  { label: 'pool of 4 (2 at half speed), 30 × 3, spread 0.5', capacity: { outputTokensProblemSpread: 0.5 }, rules: [...POOL_RULES, ...SLOW_TAKES_NEXT], pool: { replicas: 4, halfSpeed: 2 } },
  ...USER_SCALE,
];

/** The schedule benchmark. */
export const scheduleBenchmark: Benchmark = {
  name: 'schedule',
  async run({ quick, log }) {
    const rows: BenchRow[] = [];
    for (const shape of quick ? SHAPES.filter((shape) => (shape.run?.problems ?? 0) < 100) : SHAPES) {
      const draws = Math.min(quick ? 6 : 24, shape.draws ?? 24);
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
        const targeted = shape.target !== undefined && rule === shape.rules[0];
        rows.push({
          figure: `schedule ${shape.label}: ${rule.label}: makespan / bound`,
          target: targeted ? `≤ ${(shape.target as number).toFixed(2)}` : '—',
          measured: `mean ${mean.toFixed(3)}x, ${Math.min(...values).toFixed(3)}-${Math.max(...values).toFixed(3)}x${rule === ASYNCIO ? '' : `; ahead of asyncio-like in ${ahead} of ${draws}`}`,
          pass: targeted ? mean <= (shape.target as number) : null,
        });
      }
      rows.push({
        figure: `schedule ${shape.label}: the server`,
        target: '—',
        measured: `simulated: ${describeCapacity(resolveCapacity(shape.capacity))}${shape.pool === undefined ? '' : `; ${shape.pool.replicas} replicas${shape.pool.halfSpeed ? `, ${shape.pool.halfSpeed} at half speed` : ''}, --concurrency ${RUN.concurrency}, --routing prefix`}; ${shape.run?.problems ?? RUN.problems} × ${shape.run?.iterations ?? RUN.iterations} × ${RUN.candidates} × ${RUN.verifications}, ${draws} draws of the lengths`,
        pass: null,
      });
    }
    return rows;
  },
};
