/**
 * The grader's caches: plain Maps that forget their oldest entry when full,
 * sized to about a run's distinct answers, so grading many candidates
 * parses each string once without growing without bound.
 */

/** Entries each cache keeps. */
export const CACHE_LIMIT = 5000;

/** Stores `value` under `key`, first dropping the oldest entry when `map` is full. */
export function remember<K, V>(map: Map<K, V>, key: K, value: V): V {
  if (map.size >= CACHE_LIMIT) {
    const oldest = map.keys().next();
    if (oldest.done !== true) map.delete(oldest.value);
  }
  map.set(key, value);
  return value;
}
