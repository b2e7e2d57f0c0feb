/**
 * A replica lost in the middle of a benchmark run, as a node of a cluster is:
 * its `tmas sim-server` process is stopped once the servers together have
 * decoded a given number of tokens (a share of what the same run decodes on
 * the pool whole), so that the loss lands at the same point of the run
 * whatever the machine's pace. Its stats are read just before, since a stopped
 * server answers nothing.
 */
import type { SimProcess } from '../harness/sim-process.ts';
import type { CapacityStats } from '../../src/sim/capacity/engine.ts';

/** How often the servers' tokens are read while waiting for the moment. */
const WATCH_MS = 250;

/** A loss under way: `lost` resolves with the replica's last stats once it is stopped (null when the run ended first). */
export interface ReplicaLoss {
  readonly lost: Promise<CapacityStats | null>;
  /** The run ended: stop watching. */
  stop(): void;
}

/** Stops `victim` once the decoded tokens of `sims` (less those each had decoded at `before`) reach `atTokens`. */
export function loseReplicaAt(sims: readonly SimProcess[], victim: SimProcess, atTokens: number, before: readonly CapacityStats[], stats: (url: string) => Promise<CapacityStats>): ReplicaLoss {
  let stopped = false;
  let settle: (stats: CapacityStats | null) => void = () => {};
  const lost = new Promise<CapacityStats | null>((resolve) => {
    settle = resolve;
  });
  const watch = async () => {
    while (!stopped) {
      await new Promise((resolve) => setTimeout(resolve, WATCH_MS));
      if (stopped) break;
      const now = await Promise.all(sims.map((sim) => stats(sim.url)));
      const decoded = now.reduce((sum, s, index) => sum + s.tokens.decoded - (before[index]?.tokens.decoded ?? 0), 0);
      if (decoded < atTokens) continue;
      const last = await stats(victim.url);
      await victim.stop();
      settle(last);
      return;
    }
    settle(null);
  };
  void watch();
  return {
    lost,
    stop: () => {
      stopped = true;
    },
  };
}
