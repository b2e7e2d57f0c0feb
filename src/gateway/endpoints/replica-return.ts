/**
 * A drained replica of a pool, watched until it answers again: on a cluster a
 * server that went away (a node restarted, a pod rescheduled) usually comes
 * back at the same address, and the run should use it again rather than go on
 * without it. It is asked `GET /models` (what the run's check asked at start;
 * a 404 there, a server without a model list, leaves the completion to tell),
 * then for a one-token completion of its model: a server that lists its model
 * but fails or holds its completions (still loading, a wedged engine) is not
 * back, where each return cost a call its whole timeout; nor is one whose list
 * names other models and not the run's (a node restarted with another model:
 * its completions of the run's model answer 404, which counted as back, and
 * each return cost a call sent there and a drain). First after twice
 * the retries' first backoff step, then at doubling periods up to the
 * backoff's cap (a minute by default). A replica drained again before any
 * call succeeded on it is first asked after a period doubled for each such
 * drain. The one-token completion is not a call of the run: not journaled.
 */
import { namesModel } from './listed-model.ts';
import type { BackoffOptions } from '../request/retry.ts';
import type { HttpTransport } from '../request/http-transport.ts';

/** A /models answer slower than this counts as none. */
const PROBE_TIMEOUT_MS = 5_000;

/** The watches of a pool's drained replicas. */
export interface ReturnWatches {
  /**
   * Watches `url` until it answers for `model`, then calls `onBack` once;
   * `drainsInARow` (1 or more) sets the first period. `onOtherModels` hears,
   * once a watch, of a server that answers but lists other models only.
   */
  watch(url: string, access: ProbeAccess, drainsInARow: number, onBack: () => void, onOtherModels?: (served: string[]) => void): void;
  /** Stops every watch (the gateway closes). */
  close(): void;
}

/**
 * How a drained replica is asked: its key and the run's model; `refuses`,
 * for a replica drained for answering with another model than its siblings
 * (pool-reply-models.ts), says whether the model its one-token completion
 * names is still another: such a replica is not back (before, it was let
 * back at each period, paid a call and drained again).
 */
export interface ProbeAccess {
  apiKey: string;
  model: string;
  refuses?: (named: string | null) => boolean;
}

/** Watches over `transport`, paced by the retries' `backoff`. */
export function createReturnWatches(transport: HttpTransport, backoff: BackoffOptions): ReturnWatches {
  const stops = new Map<string, () => void>();
  return {
    watch(url, access, drainsInARow, onBack, onOtherModels) {
      stops.get(url)?.();
      const firstMs = Math.min(backoff.capMs, 2 * backoff.baseMs * 2 ** Math.max(0, drainsInARow - 1));
      let toldOther = false;
      const otherModels = (served: string[]) => {
        if (!toldOther) onOtherModels?.(served);
        toldOther = true;
      };
      const back = () => {
        stops.delete(url);
        onBack();
      };
      stops.set(url, watchForReturn(url, access, transport, { ...backoff, firstMs }, { back, otherModels }));
    },
    close() {
      for (const stop of stops.values()) stop();
      stops.clear();
    },
  };
}

/** What a watch tells: the server back, or a server that answers but lists other models only. */
interface WatchListeners {
  back: () => void;
  otherModels: (served: string[]) => void;
}

/** Watches `url` until it answers its model list and a completion, then calls `back` once. Returns a function that stops the watch. */
function watchForReturn(url: string, access: ProbeAccess, transport: HttpTransport, backoff: BackoffOptions & { firstMs: number }, on: WatchListeners): () => void {
  let period = backoff.firstMs;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const base = url.replace(/\/+$/, '');
  const probe = async () => {
    timer = null;
    const listed = await modelList(`${base}/models`, access, transport);
    if (Array.isArray(listed)) {
      if (!stopped) on.otherModels(listed);
    } else if (listed !== 'down') {
      const completed = await completes(base, access, transport, listed === 'none');
      if (completed === true) {
        if (!stopped) on.back();
        return;
      }
      if (typeof completed === 'string' && !stopped) on.otherModels([completed]);
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

/**
 * Whether the server answers a one-token chat completion for `model` in time:
 * a success, or a 4xx (it is up and read the request; a field the dialect
 * does not take is the call's business, not a sign of a dead server). A 5xx,
 * no answer or a broken connection: not back; nor a 404 from a server
 * without a model list (`unlisted`), for which this is the only sign it
 * serves the model; nor one that answers with a model `access.refuses`
 * (returned: the name it answered with). Never rejects.
 */
async function completes(base: string, access: ProbeAccess, transport: HttpTransport, unlisted: boolean): Promise<boolean | string> {
  try {
    const body = JSON.stringify({ model: access.model, messages: [{ role: 'user', content: 'ping' }], max_tokens: 1, stream: false });
    const response = await transport.request(`${base}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${access.apiKey}`, 'content-type': 'application/json' },
      body,
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    // Read to its end, within the same time: a server that sends headers and then holds the body is not back.
    const text = await response.text();
    const answers = response.status < 500 && !(unlisted && response.status === 404);
    if (!answers || access.refuses === undefined || !response.ok) return answers;
    const named = answeredModel(text);
    // Told as "serves X, not M": a reply naming no model is told as such, not as an empty name.
    return access.refuses(named) ? (named ?? 'a model its reply does not name') : true;
  } catch {
    return false;
  }
}

/** The `model` a completion's body names first (a JSON body, or the events of a server that streams whatever it is asked), or null. */
function answeredModel(text: string): string | null {
  const found = /"model"\s*:\s*("(?:[^"\\]|\\.)*")/.exec(text)?.[1];
  if (found === undefined) return null;
  try {
    return JSON.parse(found) as string;
  } catch {
    return null;
  }
}

/**
 * What the server's model list at `url` says of it: `listed` (a success that
 * lists `model`, or no model at all, as the run accepts at start), the ids it
 * lists when `model` is not among them, `none` (a 404: a server without a
 * model list, which the run accepts at start with --model-name; before, such
 * a replica never came back), or `down` (an answer that is no model list
 * among them). Never rejects.
 */
async function modelList(url: string, access: ProbeAccess, transport: HttpTransport): Promise<'listed' | 'none' | 'down' | string[]> {
  try {
    const response = await transport.request(url, { headers: { authorization: `Bearer ${access.apiKey}` }, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    if (!response.ok) {
      response.body.cancel();
      return response.status === 404 ? 'none' : 'down';
    }
    const data = ((await response.json()) as { data?: unknown } | null)?.data;
    if (!Array.isArray(data)) return 'down';
    const ids = data.map((entry) => (entry as { id?: unknown } | null)?.id).filter((id): id is string => typeof id === 'string' && id !== '');
    return ids.length === 0 || ids.some((id) => namesModel(id, access.model)) ? 'listed' : ids;
  } catch {
    return 'down';
  }
}
