/**
 * What runs started together share (run-workload.ts): one worker pool, one
 * gateway (one in-flight limit, one knee per replica, one line of held calls
 * ranked across the runs), one embedded simulated model when no endpoint is
 * given, one scale of call ranks, and one stop for a failure every call
 * would meet (shared-stop.ts). Each run keeps its own store, bus,
 * actors and outputs, and sees the gateway through a view of its own, which
 * counts its calls alone (its metrics.json's gateway block).
 */
import type { Gateway } from '../../gateway/gateway.ts';
import type { Pool } from '../../pool/pool.ts';
import type { SimServer } from '../../sim/server.ts';
import type { RankScale } from '../calls/call-ranks.ts';
import type { SharedStop } from './shared-stop.ts';

/** The shared parts; whoever made them closes them once every run has ended. */
export interface SharedRunParts {
  pool: Pool;
  /** One run's view of the shared gateway (Gateway.forRun): its stats are the run's own calls'. */
  gateway: Gateway;
  /** The labels of the other runs the gateway is shared with, as the run's metrics.json names them. */
  sharedWith: string[];
  /** The embedded simulated model, when the runs use it; null when they name their endpoints. */
  sim: SimServer | null;
  rankScale: RankScale;
  /** A run-stopping failure of one run stops them all, each once its calls in flight are journaled. */
  stop: SharedStop;
}
