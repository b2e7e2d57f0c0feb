/**
 * A finished run's calls replayed offline through the capacity model (as
 * `tmas plan --from` replays them), once ranked as tmas ranks them and once
 * ranked by what no client can know: the true length of the longest chain
 * from each call to its problem's end, the lengths of calls not yet sent
 * included. The second is the bar for the first: what is left between them
 * is what knowing the future would buy, not what routing or caps could.
 */
import { createCallRanks } from '../../src/host/calls/call-ranks.ts';
import type { PlannedCall } from '../../src/plan/call-graph.ts';
import { buildCallGraph } from '../../src/plan/call-graph.ts';
import { rankedIterations } from '../../src/plan/forecast.ts';
import { readRunJournal } from '../../src/plan/run-journal.ts';
import { ScheduledServer } from '../../src/plan/scheduled-server.ts';
import { replicaCapOf } from '../../src/plan/simulate.ts';
import { journaledCalls } from '../../src/plan/what-if.ts';
import { createManualClock } from '../../src/sim/capacity/clock.ts';
import { createCapacityEngine } from '../../src/sim/capacity/engine.ts';
import type { CapacitySettings } from '../../src/sim/capacity/options.ts';
import { strategyNamed } from '../../machines/strategies/index.ts';

/** Each replay's makespan over the pooled bound of the replayed calls. */
export interface ChainReplay {
  ranked: number;
  clairvoyant: number;
}

/** For each call, the calls that wait on it. */
function dependentsOf(calls: readonly PlannedCall[]): number[][] {
  const dependents: number[][] = calls.map(() => []);
  calls.forEach((call, index) => call.deps.forEach((dep) => (dependents[dep] as number[]).push(index)));
  return dependents;
}

/** For each call, its output tokens plus the longest chain of calls that wait on it (deps come before their dependents). */
function chainsFrom(calls: readonly PlannedCall[], dependents: number[][]): Float64Array {
  const chain = new Float64Array(calls.length);
  for (let index = calls.length - 1; index >= 0; index--) {
    let after = 0;
    for (const next of dependents[index] as number[]) after = Math.max(after, chain[next] as number);
    chain[index] = (calls[index] as PlannedCall).outputTokens + after;
  }
  return chain;
}

/** One replay on `replicas`, tmas's ranking or the clairvoyant one; the makespan over the bound. */
function replay(
  { calls, dependents, chain }: { calls: readonly PlannedCall[]; dependents: number[][]; chain: Float64Array },
  replicas: CapacitySettings[],
  ranking: { iterations: number; stages: Readonly<Record<string, number>> } | 'clairvoyant',
): number {
  const clock = createManualClock();
  const served = replicas.map((capacity) => ({ engine: createCapacityEngine(capacity, clock), capacity, cap: replicaCapOf(capacity) }));
  const ranks = ranking === 'clairvoyant' ? null : createCallRanks(ranking.iterations, ranking.stages);
  const server = new ScheduledServer({ replicas: served, concurrency: 800, limit: 'knee', routing: 'prefix', ranks, clairvoyant: ranking === 'clairvoyant' });
  const waiting = calls.map((call) => call.deps.length);
  const send = (index: number): void =>
    server.send({ ...(calls[index] as PlannedCall), chain: chain[index] as number }, () => {
      for (const next of dependents[index] as number[]) if (--(waiting[next] as number) === 0) send(next);
    });
  waiting.forEach((count, index) => count === 0 && send(index));
  server.pump();
  clock.runAll();
  for (const { engine } of served) engine.close();
  const decode = replicas.reduce((sum, capacity) => sum + capacity.decodeTokensPerSecond, 0);
  const fastest = Math.max(...replicas.map((capacity) => capacity.sequenceTokensPerSecond));
  return clock.now() / Math.max(server.decoded / decode, Math.max(...chain) / fastest);
}

/** The run in `runDir` replayed on `replicas` under tmas's ranking and under the clairvoyant one. */
export async function replayChains(runDir: string, replicas: CapacitySettings[]): Promise<ChainReplay> {
  const journal = await readRunJournal(runDir);
  const strategy = strategyNamed(journal.config.loop.strategy);
  const stages = strategy.stages ?? {};
  const calls = buildCallGraph(journaledCalls(journal), { stages, schedule: 'pipelined' });
  const dependents = dependentsOf(calls);
  const graph = { calls, dependents, chain: chainsFrom(calls, dependents) };
  return {
    ranked: replay(graph, replicas, { iterations: rankedIterations(strategy, journal.config.loop.maxIterations), stages }),
    clairvoyant: replay(graph, replicas, 'clairvoyant'),
  };
}
