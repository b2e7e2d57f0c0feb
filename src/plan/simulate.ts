/**
 * Runs' calls through replicas of the capacity model, in simulated seconds
 * on a manual clock (no HTTP, no wall time): each call is held once the
 * calls it waits on are done, ranked as its run ranks its calls
 * (src/host/calls/call-ranks.ts), and sent as the gateway sends them. Several runs
 * share the servers as the methods of a table do when they run at once
 * through one gateway: one heap, each call ranked by its own run.
 */
import type { Routing } from '../gateway/dispatch/routing.ts';
import { CAP_OVER_KNEE } from '../gateway/load/throughput-knee.ts';
import { createManualClock } from '../sim/capacity/clock.ts';
import { createCapacityEngine } from '../sim/capacity/engine.ts';
import type { CapacitySettings } from '../sim/capacity/options.ts';
import type { PlannedCall } from './call-graph.ts';
import { pooledRanks, pooledCalls, type PlannedRun } from './pooled-runs.ts';
import { ScheduledServer } from './scheduled-server.ts';

export type { PlannedRun } from './pooled-runs.ts';

/** The servers a plan runs on. */
export interface Servers {
  /** One capacity model per replica (replicas of different speeds have different ones). */
  replicas: CapacitySettings[];
  /** `--concurrency`: calls in flight over all replicas at most. */
  concurrency: number;
  /** `--routing`: which replica a call goes to, of those with room. */
  routing: Routing;
  /** `--replica-max-in-flight`: calls on one replica at most, below its knee's cap; null: no such cap. */
  replicaMaxInFlight: number | null;
}

/** What one simulation gives. */
export interface Simulated {
  makespanSeconds: number;
  decodedTokens: number;
  promptTokens: number;
  /** Decoded tokens ÷ (the replicas' D in all × the makespan). */
  utilization: number;
  /** Each replica's decoded tokens ÷ (its D × the makespan), in the replicas' order. */
  replicaUtilization: number[];
  /** No schedule ends sooner: the decoded tokens over the replicas' D in all, or the longest chain of calls at the fastest replica's c, whichever is longer. */
  boundSeconds: number;
  /** The bound's first term: the decoded tokens over the replicas' D in all. */
  workSeconds: number;
  /** The bound's second term: the longest chain of calls at the fastest replica's c; when it is the larger, more replicas would not shorten the run. */
  chainSeconds: number;
}

/** The cap a replica gets: a little above its throughput knee (D ÷ c sequences), as the gateway sets it. */
export function replicaCapOf(capacity: CapacitySettings): number {
  return Math.max(1, Math.round((CAP_OVER_KNEE * capacity.decodeTokensPerSecond) / capacity.sequenceTokensPerSecond));
}

/** Output tokens along the longest chain of calls that wait on one another (deps come before their dependents). */
function longestChain(calls: PlannedCall[]): number {
  const chain = new Float64Array(calls.length);
  let longest = 0;
  calls.forEach((call, index) => {
    let before = 0;
    for (const dep of call.deps) before = Math.max(before, chain[dep] as number);
    chain[index] = before + call.outputTokens;
    longest = Math.max(longest, chain[index] as number);
  });
  return longest;
}

/**
 * The calls that wait on each call, in one array: call i's are `calls[start[i]]` up to `calls[start[i + 1]]`.
 * An array of its own per call held room for 17 entries (about 150 bytes) where most have one.
 */
function dependentsOf(calls: readonly PlannedCall[]): { start: Int32Array; calls: Int32Array } {
  const start = new Int32Array(calls.length + 1);
  for (const call of calls) for (const dep of call.deps) (start[dep + 1] as number)++;
  for (let i = 0; i < calls.length; i++) start[i + 1] = (start[i + 1] as number) + (start[i] as number);
  const filled = start.slice(0, calls.length);
  const waiters = new Int32Array(start[calls.length] as number);
  calls.forEach((call, index) => call.deps.forEach((dep) => (waiters[(filled[dep] as number)++] = index)));
  return { start, calls: waiters };
}

/** Runs every run's calls to the end at once on `servers`, each call ranked by its own run. */
export function simulateRuns(runs: PlannedRun[], servers: Servers): Simulated {
  const clock = createManualClock();
  const replicas = servers.replicas.map((capacity) => ({
    engine: createCapacityEngine(capacity, clock),
    capacity,
    cap: Math.min(replicaCapOf(capacity), servers.replicaMaxInFlight ?? Number.POSITIVE_INFINITY),
  }));
  const server = new ScheduledServer({ replicas, concurrency: servers.concurrency, limit: 'knee', routing: servers.routing, ranks: pooledRanks(runs), clairvoyant: false });
  const calls = pooledCalls(runs);
  const waiting = Int32Array.from(calls, (call) => call.deps.length);
  const dependents = dependentsOf(calls);
  const send = (index: number): void => {
    server.send(calls[index] as PlannedCall, () => {
      for (let at = dependents.start[index] as number; at < (dependents.start[index + 1] as number); at++) {
        const next = dependents.calls[at] as number;
        if (--(waiting[next] as number) === 0) send(next);
      }
    });
  };
  waiting.forEach((count, index) => count === 0 && send(index));
  server.pump();
  clock.runAll();
  const makespanSeconds = clock.now();
  for (const { engine } of replicas) engine.close();
  const decode = servers.replicas.reduce((sum, capacity) => sum + capacity.decodeTokensPerSecond, 0);
  const fastest = Math.max(...servers.replicas.map((capacity) => capacity.sequenceTokensPerSecond));
  const share = (tokens: number, rate: number) => (makespanSeconds > 0 ? tokens / (rate * makespanSeconds) : 0);
  const workSeconds = server.decoded / decode;
  const chainSeconds = longestChain(calls) / fastest;
  return {
    makespanSeconds,
    decodedTokens: server.decoded,
    promptTokens: server.prompted,
    utilization: share(server.decoded, decode),
    replicaUtilization: server.decodedBy.map((tokens, replica) => share(tokens, (servers.replicas[replica] as CapacitySettings).decodeTokensPerSecond)),
    boundSeconds: Math.max(workSeconds, chainSeconds),
    workSeconds,
    chainSeconds,
  };
}
