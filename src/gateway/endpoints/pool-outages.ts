/**
 * Pools whose every replica is drained, each given a grace period before it
 * stops the run: a cluster's replicas restarted together (a rolling update
 * gone wrong, a network blip) are back within seconds, and one endpoint alone
 * rides out such an outage on its retries. Its calls wait, held, meanwhile;
 * the first replica that answers again ends the outage (replica-return.ts).
 */
import type { UserError } from '../../kernel/errors.ts';

/** The outages under way. */
export interface PoolOutages {
  /** Every replica of `pool` is drained: unless one answers within the grace period, `error()` stops the pool. */
  begin(pool: string, error: () => UserError): void;
  /** A replica of `pool` answers again. */
  end(pool: string): void;
  /** Stops every timer (the gateway closes). */
  close(): void;
}

/** Outages that stop their pool with `stop` after `graceMs`. */
export function createPoolOutages(graceMs: number, stop: (pool: string, error: UserError) => void): PoolOutages {
  const timers = new Map<string, NodeJS.Timeout>();
  return {
    begin(pool, error) {
      if (timers.has(pool)) return;
      // Not unref'd: the calls held for the pool are all the process waits on, and they must get their answer.
      timers.set(
        pool,
        setTimeout(() => {
          timers.delete(pool);
          stop(pool, error());
        }, graceMs),
      );
    },
    end(pool) {
      clearTimeout(timers.get(pool));
      timers.delete(pool);
    },
    close() {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}
