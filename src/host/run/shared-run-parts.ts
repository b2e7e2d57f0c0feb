/**
 * What runs started together share (run-workload.ts): one worker pool, one
 * gateway (one in-flight limit, one knee per replica, one line of held calls
 * ranked across the runs), one embedded simulated model when no endpoint is
 * given, and one scale of call ranks. Each run keeps its own store, bus,
 * actors and outputs.
 */
import type { Gateway } from '../../gateway/gateway.ts';
import type { Pool } from '../../pool/pool.ts';
import type { SimServer } from '../../sim/server.ts';
import type { RankScale } from '../calls/call-ranks.ts';

/** The shared parts; whoever made them closes them once every run has ended. */
export interface SharedRunParts {
  pool: Pool;
  gateway: Gateway;
  /** The embedded simulated model, when the runs use it; null when they name their endpoints. */
  sim: SimServer | null;
  rankScale: RankScale;
}
