/**
 * A server's `/metrics` that our own streams belie: it says it runs far fewer
 * sequences than ours that stream from it (a gateway or proxy answering
 * /metrics of its own or of another server, a replica whose exporter is stuck
 * at 0, a page a cache serves long after). Before, its readings held the
 * knee's slow start at 16 calls for the whole run (their batch of 0 measured
 * nothing, so the cap never stepped), and its queue gauge steered the limit.
 * A few such readings in a row and its metrics are not used: its load is
 * inferred from our streams, and its tokens counted from them, as on a server
 * without metrics; the user is told once.
 */
import type { ServerLoad } from '../load/server-load.ts';
import type { EndpointState } from './endpoint-state.ts';
import { stopUsingMetrics } from './unused-metrics.ts';

/** A server running fewer than this fraction of our sequences streaming from it is not the server its metrics describe. */
const BELIED_BELOW = 0.5;
/** Fewer of our sequences streaming than this say too little to doubt a server's metrics (calls just ended there, still in transit). */
const FEWEST_TO_DOUBT = 4;
/** Belied readings in a row after which a server's metrics are not used, when they span BELIED_FOR_MS at least. */
const BELIED_READINGS = 3;
/** How long the readings must belie the metrics: a gauge updated only now and then (SGLang's, every 40 decoding steps) lags our calls for a second or two as the slow start steps up. */
const BELIED_FOR_MS = 5_000;

/**
 * Whether `load` is trusted, or set aside (our `streaming` sequences belie
 * it), or the last straw: after BELIED_READINGS in a row, the server's
 * metrics are not used from then on (unused-metrics.ts). `streaming` is the
 * fewer of ours streaming when the page was asked for and when it came: a page
 * that takes a second while the slow start steps 16 calls to 64 said 16.
 */
export function beliedByStreams(state: EndpointState, load: ServerLoad, streaming: number): 'trusted' | 'set aside' | 'unused' {
  // Sequences preempted back into its queue still stream to us: they count as the server's too.
  if (!(streaming >= FEWEST_TO_DOUBT && load.running + load.waiting < BELIED_BELOW * streaming)) {
    state.metrics.belied = 0;
    return 'trusted';
  }
  const now = performance.now();
  if (state.metrics.belied++ === 0) state.metrics.beliedSince = now;
  if (state.metrics.belied < BELIED_READINGS || now - state.metrics.beliedSince < BELIED_FOR_MS) return 'set aside';
  stopUsingMetrics(
    state,
    `its /metrics said ${load.running + load.waiting} requests running or queued while ${streaming} of ours streamed from it for ${Math.round((now - state.metrics.beliedSince) / 1000)} s, ` +
      "so they are not the server's own (a gateway's, a proxy's cache, a stuck exporter): point --base-url at the server itself to use them",
  );
  return 'unused';
}
