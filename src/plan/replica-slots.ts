/**
 * One simulated replica as the gateway's router sees it (src/gateway/dispatch/routing.ts):
 * its calls in flight and the most it may take, its pace and knee (the
 * capacity model's own, where the gateway measures them: the plan uses the
 * true ones), and the prompts sent to it lately.
 */
import { marginOf } from '../gateway/load/load-limit.ts';
import { createPrefixMemory } from '../gateway/dispatch/prefix-memory.ts';
import type { Routable } from '../gateway/dispatch/routing.ts';
import type { CapacityEngine } from '../sim/capacity/engine.ts';
import type { CapacitySettings } from '../sim/capacity/options.ts';

/** What bounds a replica's calls: its cap (`knee`), also its queue under the load limit's margin (`margin`), or its cap alone (`none`). */
export type LimitMode = 'knee' | 'margin' | 'none';

/** A replica's slots, pace and prompt memory. */
export class ReplicaSlots implements Routable {
  inFlight = 0;
  readonly drained = false;
  readonly failedAttempts = 0;
  readonly trialAt = 0;
  readonly prefixes = createPrefixMemory();
  /** Tokens per ms one of its sequences decodes while it has room: its c. */
  readonly sequenceSpeed: number;
  /** Its throughput knee, D ÷ c sequences. */
  readonly kneeSize: number;
  /** Output tokens of the calls it finished. */
  decoded = 0;

  constructor(
    readonly engine: CapacityEngine,
    capacity: CapacitySettings,
    private readonly cap: number,
    private readonly mode: LimitMode,
  ) {
    this.sequenceSpeed = capacity.sequenceTokensPerSecond / 1000;
    this.kneeSize = capacity.decodeTokensPerSecond / capacity.sequenceTokensPerSecond;
  }

  /** Calls it may have in flight now: under `margin`, none more while its own queue is at the margin. */
  get limit(): number {
    if (this.mode !== 'margin') return this.cap;
    const { running, waiting } = this.engine.metrics();
    return waiting < marginOf(running) ? this.cap : this.inFlight;
  }
}
