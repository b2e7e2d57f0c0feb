/**
 * Which problem a viewer URL names. Links name a problem by its id
 * (`#/run/0/problem/demo-003/3`, URL-encoded), which stays right when the
 * input file is reordered; a number is also taken as the problem's position in
 * the input (from 0), as links did before ids, but only when no problem has
 * that id: an id of digits ("12") is an id first.
 *
 * Problems are stored by position, so a run's ids are indexed once per open
 * store (as large as the problem file's ids) and kept with it.
 */
import type { Store } from '../store/store.ts';
import { ordinalKey } from './queries.ts';

const indexed = new WeakMap<Store, Promise<Map<string, number>>>();

async function indexIds(store: Store): Promise<Map<string, number>> {
  const ordinals = new Map<string, number>();
  for await (const [key, value] of store.problems().iterator()) ordinals.set((value as { id: string }).id, Number(key));
  return ordinals;
}

/** The input position of the problem `key` names (an id, else a position), or undefined when none. */
export async function problemOrdinal(store: Store, key: string): Promise<number | undefined> {
  let ids = indexed.get(store);
  if (ids === undefined) {
    ids = indexIds(store);
    indexed.set(store, ids);
  }
  const known = await ids;
  // A run whose problems are not stored yet (a live run at its very start) is indexed again next time.
  if (known.size === 0) indexed.delete(store);
  const byId = known.get(key);
  if (byId !== undefined) return byId;
  if (!/^\d+$/.test(key)) return undefined;
  const ordinal = Number(key);
  return (await store.problems().get(ordinalKey(ordinal))) === undefined ? undefined : ordinal;
}
