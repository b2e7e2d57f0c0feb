/**
 * A run's calls through replicas of the capacity model, in simulated
 * seconds on a manual clock (no HTTP, no wall time): each call is held once
 * the calls it waits on are done, ranked as the run ranks its calls
 * (src/host/call-ranks.ts), and sent as the gateway sends them.
 */
import { CAP_OVER_KNEE } from '../gateway/throughput-knee.ts';
import { createCallRanks } from '../host/call-ranks.ts';
import { createManualClock } from '../sim/capacity/clock.ts';
import { createCapacityEngine } from '../sim/capacity/engine.ts';
import type { CapacitySettings } from '../sim/capacity/options.ts';
import type { PlannedCall } from './call-graph.ts';
import { ScheduledServer } from './scheduled-server.ts';

/** The servers a plan runs on. */
export interface Servers {
  replicas: number;
  /** One replica's capacity model. */
  capacity: CapacitySettings;
  /** `--concurrency`: calls in flight over all replicas at most. */
  concurrency: number;
}

/** What one simulation gives. */
export interface Simulated {
  makespanSeconds: number;
  decodedTokens: number;
  promptTokens: number;
  /** Decoded tokens ÷ (the replicas' D × the makespan). */
  utilization: number;
}

/** The cap a replica gets: a little above its throughput knee (D ÷ c sequences), as the gateway sets it. */
export function replicaCapOf(capacity: CapacitySettings): number {
  return Math.max(1, Math.round((CAP_OVER_KNEE * capacity.decodeTokensPerSecond) / capacity.sequenceTokensPerSecond));
}

/** Runs `calls` to the end on `servers`; `iterations` and `stages` rank them as the run would. */
export function simulateCalls(calls: PlannedCall[], options: { servers: Servers; iterations: number; stages: Readonly<Record<string, number>> }): Simulated {
  const { servers } = options;
  const clock = createManualClock();
  const engines = Array.from({ length: servers.replicas }, () => createCapacityEngine(servers.capacity, clock));
  const server = new ScheduledServer({
    engines,
    replicaCap: replicaCapOf(servers.capacity),
    concurrency: servers.concurrency,
    limit: 'knee',
    ranks: createCallRanks(options.iterations, options.stages),
    clairvoyant: false,
  });
  const waiting = calls.map((call) => call.deps.length);
  const dependents: number[][] = calls.map(() => []);
  calls.forEach((call, index) => call.deps.forEach((dep) => (dependents[dep] as number[]).push(index)));
  const send = (index: number): void => {
    server.send(calls[index] as PlannedCall, () => {
      for (const next of dependents[index] as number[]) if (--(waiting[next] as number) === 0) send(next);
    });
  };
  waiting.forEach((count, index) => count === 0 && send(index));
  server.pump();
  clock.runAll();
  const makespanSeconds = clock.now();
  for (const engine of engines) engine.close();
  const capacity = servers.replicas * servers.capacity.decodeTokensPerSecond * makespanSeconds;
  return { makespanSeconds, decodedTokens: server.decoded, promptTokens: server.prompted, utilization: capacity > 0 ? server.decoded / capacity : 0 };
}
