/**
 * A call answered in a smaller window than the run's. A call is keyed by the
 * window its prompt was fitted into (the journal key hashes the inputs of the
 * fit): one the server refused as too long, or one fitted at once into a
 * window a server stated to an earlier call, is journaled under the key of
 * the smaller window. A resume, a replay or a fork asks first under the run's
 * window; it would miss that record, and a replay, which sends nothing and so
 * never meets the refusal, could not find it at all (a run with any
 * context-length error replayed as diverging). So the key the call was asked
 * under is kept beside the record (the store's `refits`), naming the key and
 * window it was answered in: looked up there, the call is answered as it was.
 */
import type { Store } from './store.ts';
import type { Put } from './write-queue.ts';

/** Where the call asked under a key (at the run's window) was answered. */
export interface Refit {
  /** The journal key of the record that answered it. */
  key: string;
  /** The window its prompt was fitted into. */
  window: number;
  /** The context-length errors it met on the way (0 when fitted at once into a window a server stated). */
  contextErrors: number;
}

/** Per open store, its refits: read whole at the first lookup (a run has few, one per call answered in a smaller window), and those written since. */
const known = new WeakMap<Store, { read: Promise<Map<string, Refit>>; written: Map<string, Refit> }>();

function refitsOf(store: Store): { read: Promise<Map<string, Refit>>; written: Map<string, Refit> } {
  let refits = known.get(store);
  if (refits === undefined) {
    refits = { read: readRefits(store), written: new Map() };
    known.set(store, refits);
  }
  return refits;
}

async function readRefits(store: Store): Promise<Map<string, Refit>> {
  const read = new Map<string, Refit>();
  for await (const [asked, value] of store.refits().iterator()) if (isRefit(value)) read.set(asked, value);
  return read;
}

/** Whether a stored value is a Refit (a store written by hand or damaged is read as holding none). */
function isRefit(value: unknown): value is Refit {
  const refit = value as Partial<Refit> | null;
  return typeof refit?.key === 'string' && Number.isSafeInteger(refit.window) && Number.isSafeInteger(refit.contextErrors);
}

/** The write that keeps `refit` for the call asked under `asked`, for the batch that journals its record (Store.putCall). */
export function refitPut(store: Store, asked: string, refit: Refit): Put {
  refitsOf(store).written.set(asked, refit);
  return { sublevel: store.refits(), key: asked, value: refit };
}

/** Keeps `refit` for the call asked under `asked` by itself (a fork copying its source's, before the record it names). */
export async function keepRefit(store: Store, asked: string, refit: Refit): Promise<void> {
  await store.refits().put(asked, refit);
  refitsOf(store).written.set(asked, refit);
}

/** Where the call asked under `asked` was answered in a smaller window, or undefined. */
export async function findRefit(store: Store, asked: string): Promise<Refit | undefined> {
  const refits = refitsOf(store);
  return refits.written.get(asked) ?? (await refits.read).get(asked);
}
