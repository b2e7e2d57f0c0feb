/**
 * What routes a call among the replicas of a pool: what the router knows of
 * the call, and the router itself (routing.ts), which the dispatcher asks
 * each time a call may be sent (dispatcher.ts).
 */
import type { PrefixKeys } from './prefix-keys.ts';

/** What the router knows of a call. */
export interface RoutedCall<S> {
  /** Breaks ties between equally good replicas, so that equal replicas share the work. */
  readonly tieBreak: number;
  /** Its prompt's prefix keys; none when the router does not use them. */
  readonly prefix?: PrefixKeys | null;
  /** The replica its last attempt failed on: another goes first. */
  readonly avoid?: S | null;
  /** Told when the router sends the call where its prompt's prefix is: the call counts the hit once that attempt answers (call.ts). */
  readonly onPrefixHit?: ((replica: S) => void) | null;
}

/** Which replica of a pool a call goes to (routing.ts). */
export interface Router<S> {
  /** The replica the call goes to now; null while none of them may take it. */
  choose(replicas: readonly S[], call: RoutedCall<S>): S | null;
  /** The call was sent to `replica`. */
  sent(replica: S, call: RoutedCall<S>): void;
  /**
   * Another of `replicas`, as fast and as healthy, that most likely holds
   * the call's prompt in its cache where `replica` does not; null when none
   * does, or `replica` holds it. Absent for a router that does not care.
   * The dispatcher keeps a call for its holder while the holder is full
   * (dispatcher.ts prefixFirst).
   */
  cachedElsewhere?(replica: S, call: RoutedCall<S>, replicas: readonly S[]): S | null;
  /**
   * Whether `replica`'s sequences decode slower than the fastest of
   * `replicas`: the dispatcher then gives it the held call ranked last, not
   * the next (dispatcher.ts lastFor). Absent for a router that does not care.
   */
  isSlower?(replica: S, replicas: readonly S[]): boolean;
}
