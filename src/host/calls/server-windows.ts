/**
 * The context windows servers stated in their context-length errors, kept
 * for the run's process per endpoint and model, so that a call after the
 * first refusal is fitted into the server's window at once: before, each
 * call learned it alone and paid a 400 for it (33 refusals for 30 calls on a
 * server of 8,192 under the default --max-tokens). A pool of replicas is one
 * endpoint here, as a call's prompt is fitted before a replica is chosen: it
 * keeps the smallest window stated to a call that asked for the run's whole
 * window (llm-call.ts), which every replica that refused accepts; the gateway
 * sends a refused call once to another replica, so replicas set up unlike
 * each other still answer the calls fitted into one's window.
 *
 * What is kept shapes no journal key by itself: a call fitted into a stated
 * window is keyed by that window, as it was when it learned the window from
 * its own refusal, and kept under the key it is asked by first as well
 * (store/refit.ts), where a resume or a replay, which know no window yet,
 * find it; a journal written before refits were kept is found after the
 * resume's first refusal (llm-call.ts looks a call up under both windows).
 */
import type { Endpoint } from '../../gateway/gateway.ts';

/** The windows stated so far. */
export interface ServerWindows {
  /** The window stated for the endpoint's model, or undefined while none was. */
  of(endpoint: Endpoint): number | undefined;
  /** Keeps `window`, stated by the endpoint for its model, when it is smaller than one kept. */
  stated(endpoint: Endpoint, window: number): void;
}

export function createServerWindows(): ServerWindows {
  const windows = new Map<string, number>();
  const keyOf = (endpoint: Endpoint) => JSON.stringify([endpoint.replicas ?? [endpoint.baseUrl], endpoint.model]);
  return {
    of: (endpoint) => windows.get(keyOf(endpoint)),
    stated(endpoint, window) {
      const key = keyOf(endpoint);
      const kept = windows.get(key);
      if (kept === undefined || window < kept) windows.set(key, window);
    },
  };
}
