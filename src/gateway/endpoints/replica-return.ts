/**
 * A drained replica of a pool, watched until it answers again: on a cluster a
 * server that went away (a node restarted, a pod rescheduled) usually comes
 * back at the same address, and the run should use it again rather than go on
 * without it. It is asked `GET /models` (what the run's check asked at start),
 * first after twice the retries' first backoff step, then at doubling
 * periods up to the backoff's cap (a minute by default). A replica drained
 * again before any call succeeded on it (it answers the list but fails its
 * completions) is first asked after a period doubled for each such drain.
 */
import type { BackoffOptions } from '../request/retry.ts';
import type { HttpTransport } from '../request/http-transport.ts';

/** A /models answer slower than this counts as none. */
const PROBE_TIMEOUT_MS = 5_000;

/** The watches of a pool's drained replicas. */
export interface ReturnWatches {
  /** Watches `url` until it answers, then calls `onBack` once; `drainsInARow` (1 or more) sets the first period. */
  watch(url: string, apiKey: string, drainsInARow: number, onBack: () => void): void;
  /** Stops every watch (the gateway closes). */
  close(): void;
}

/** Watches over `transport`, paced by the retries' `backoff`. */
export function createReturnWatches(transport: HttpTransport, backoff: BackoffOptions): ReturnWatches {
  const stops = new Map<string, () => void>();
  return {
    watch(url, apiKey, drainsInARow, onBack) {
      stops.get(url)?.();
      const firstMs = Math.min(backoff.capMs, 2 * backoff.baseMs * 2 ** Math.max(0, drainsInARow - 1));
      stops.set(
        url,
        watchForReturn(url, apiKey, transport, { ...backoff, firstMs }, () => {
          stops.delete(url);
          onBack();
        }),
      );
    },
    close() {
      for (const stop of stops.values()) stop();
      stops.clear();
    },
  };
}

/** Watches `url` until it answers GET /models with a success, then calls `onBack` once. Returns a function that stops the watch. */
function watchForReturn(url: string, apiKey: string, transport: HttpTransport, backoff: BackoffOptions & { firstMs: number }, onBack: () => void): () => void {
  let period = backoff.firstMs;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const probe = async () => {
    timer = null;
    if (await answers(`${url.replace(/\/+$/, '')}/models`, apiKey, transport)) {
      if (!stopped) onBack();
      return;
    }
    period = Math.min(backoff.capMs, period * 2);
    schedule();
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => void probe(), period);
    // A run that has finished does not wait for a replica that may never come back.
    timer.unref();
  };
  schedule();
  return () => {
    stopped = true;
    if (timer !== null) clearTimeout(timer);
  };
}

/** Whether the server answers a GET at `url` with a success; never rejects. */
async function answers(url: string, apiKey: string, transport: HttpTransport): Promise<boolean> {
  try {
    const response = await transport.request(url, { headers: { authorization: `Bearer ${apiKey}` }, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    response.body.cancel();
    return response.ok;
  } catch {
    return false;
  }
}
