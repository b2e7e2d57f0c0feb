/**
 * Which replica of a pool a call goes to (`--routing`), among those with a
 * free slot under their own limit (a call waits in the gateway only while
 * none has one, so no replica idles while calls wait for another).
 *
 * `prefix` (the default) sends a call where it will finish soonest, and among
 * replicas equally good, to the one most likely to hold its prompt's prefix in
 * its cache:
 *
 * - Speed first. Each replica's sequences decode at their own pace (a slower
 *   GPU, a smaller batch budget): its pace is what one sequence decoded while
 *   the server had room (its knee finder's slow start, throughput-knee.ts; else
 *   the pace of its readings or finished calls). Replicas within FAST_ENOUGH
 *   of the fastest pace are equally fast; a slower one gets calls only when the
 *   faster ones are full, so that at the end of a run, when few calls are
 *   left, they all run on the fast replicas. Of the fast ones, those under
 *   their knee go first: past it, a replica shares its throughput.
 * - Slow replicas take the calls with the most slack. When a slower replica
 *   has the only free slot, it takes the held call ranked last (isSlower,
 *   dispatcher.ts lastFor): the call of the problem nearest its end, or of
 *   the one that thinks least, whose doubled decode is the least likely to
 *   lengthen the run, and a judge's call before any of the loop's. The calls
 *   ranked first wait for a fast replica, where with every slot busy one
 *   frees within a second or two. On 30 x 3 x 8 x 8 with two of four
 *   replicas at half speed (the schedule benchmark, 24 draws), the run went
 *   from 1.450x to 1.410x the bound with lengths independent of the problem,
 *   and from 1.213x to 1.153x where they depend on it; 72 other draws gave
 *   1.440x -> 1.417x and 1.206x -> 1.159x. Where the problems are seen to
 *   cost differently, so that the rank names the long chains, the slower
 *   replica stays idle rather than take a call ranked near the next
 *   (held-calls.ts slowReplicaWaits): 1.153x -> 1.107x there.
 * - Then the prefix. Each replica remembers the prompt prefixes sent to it
 *   lately (prefix-memory.ts); a call goes to the one holding the most of its
 *   prompt, when that is at least LEAST_MATCH of it: a problem's solutions, a
 *   candidate's verifications, which share their whole prompt, then find it
 *   cached, where scattered over four replicas they each computed it again
 *   (prefix-cache hits fell from 62% on one server to 45% on four; with this
 *   and the wait for a full holder below, 61% on two and four, 56% on eight).
 * - Balanced against load: the replica holding the prefix is taken only while
 *   it has no more calls than the least loaded one plus BALANCE_ABSOLUTE or
 *   BALANCE_RELATIVE of them; otherwise the freest replica (the most free
 *   slots, as `least-loaded` does) gets the call, and its cache learns.
 * - When every replica is full, a slot frees on one at a time: a call whose
 *   prompt another replica holds (cachedElsewhere) then waits for that one,
 *   and the replica with room takes a call further down the line that it
 *   holds, or that none holds (dispatcher.ts): a candidate's verifications,
 *   spread over three of four replicas before, stayed on 1.3.
 *
 * SGLang's router (its cache-aware policy, with its own thresholds) and
 * llm-d's prefix-cache scorer weigh the same two things.
 *
 * `least-loaded` sends a call to the replica with the most free slots (tmas
 * before `--routing`). Under both, a replica whose last attempts failed, and
 * the one a call's last attempt failed on, get calls only when no other has room.
 */
import { freest, type Slots } from './dispatcher.ts';
import type { PrefixMemory } from './prefix-memory.ts';
import type { RoutedCall, Router } from './routed-call.ts';

/** How a pool's calls are spread over its replicas. */
export type Routing = 'prefix' | 'least-loaded';

/** A replica as the router sees it. */
export interface Routable extends Slots {
  /** Tokens per ms one of its sequences decodes while the server has room; null until measured. */
  readonly sequenceSpeed: number | null;
  /** The batch past which its throughput stops growing (sequences); null until found. */
  readonly kneeSize: number | null;
  /** Attempts that failed on it in a row. */
  readonly failedAttempts: number;
  /** While its last attempts failed: when (performance.now() ms) it may take its next trial call, the backoff or Retry-After of its last failure. */
  readonly trialAt: number;
  readonly prefixes: PrefixMemory;
}

/** A replica whose sequences would run at this fraction of the fastest pace at least is as good as the fastest: speeds measured apart differ by noise. */
const FAST_ENOUGH = 0.8;
/** The share of a prompt a replica must hold for the prefix to decide. */
const LEAST_MATCH = 0.3;
/** Calls the replica holding a prefix may have over the least loaded one (a candidate's verifications come together, 8 by default)... */
const BALANCE_ABSOLUTE = 16;
/** ...or this fraction of the least loaded one's calls, whichever is more. */
const BALANCE_RELATIVE = 0.5;

/** The router of `--routing`. */
export function createRouter<S extends Routable>(routing: Routing): Router<S> {
  return {
    choose(replicas, call) {
      const open = withRoom(replicas, call.avoid ?? null);
      if (routing === 'least-loaded') return freest(open, replicas, call.tieBreak);
      const paced = withinShare(open, replicas);
      return paced.length === 0 ? null : byPrefix(paced, replicas, call);
    },
    sent(replica, call) {
      if (routing !== 'prefix' || call.prefix === undefined || call.prefix === null) return;
      // Counted by the call once its attempt answers (call.ts), as the replica's calls are: a hit of an attempt that failed was no call.
      if (holdsPrefix(replica, call)) call.onPrefixHit?.(replica);
      replica.prefixes.remember(call.prefix);
    },
    ...(routing === 'prefix' ? { cachedElsewhere, isSlower } : {}),
  };
}

/** Whether the replica was sent at least LEAST_MATCH of the call's prompt lately. */
function holdsPrefix<S extends Routable>(replica: S, call: RoutedCall<S>): boolean {
  const prefix = call.prefix ?? null;
  return prefix !== null && replica.prefixes.matched(prefix) >= LEAST_MATCH * prefix.chars;
}

/**
 * The freest of the other replicas that most likely hold the call's prompt
 * where `replica` does not, on a pool whose replicas are equally fast
 * (within FAST_ENOUGH of the fastest pace measured), the holder healthy and
 * not drained. On a pool with slower replicas, calls are not held back for
 * their holder: a candidate's verifications kept together on a slow replica
 * all decode slowly, and no gain was shown there (30 x 3 x 8 x 8 with two of
 * four replicas at half speed, replayed over six draws: 1.468x -> 1.407x the
 * bound with lengths independent of the problem, 1.141x -> 1.179x where they
 * depend on it; single live runs of that shape vary by more than that).
 */
function cachedElsewhere<S extends Routable>(replica: S, call: RoutedCall<S>, replicas: readonly S[]): S | null {
  if (call.prefix == null || holdsPrefix(replica, call)) return null;
  const asGood = (other: S) => other !== replica && !other.drained && other.failedAttempts === 0 && other !== call.avoid;
  let freest: S | null = null;
  for (const other of replicas) if (asGood(other) && holdsPrefix(other, call) && (freest === null || other.limit - other.inFlight > freest.limit - freest.inFlight)) freest = other;
  // The paces are compared only for a call some replica holds: the dispatcher asks of up to PREFIX_LOOKAHEAD calls in a row.
  return freest !== null && equallyFast(replicas) ? freest : null;
}

/** Whether `replica`'s pace, measured, is under FAST_ENOUGH of the fastest measured of the healthy replicas not drained. */
function isSlower<S extends Routable>(replica: S, replicas: readonly S[]): boolean {
  if (replica.sequenceSpeed === null) return false;
  const paces = replicas.filter((other) => !other.drained && other.failedAttempts === 0 && other.sequenceSpeed !== null).map((other) => other.sequenceSpeed as number);
  return paces.length > 0 && replica.sequenceSpeed < FAST_ENOUGH * Math.max(...paces);
}

/** Whether the pool's replicas (not drained) decode at paces within FAST_ENOUGH of each other, as far as measured. */
function equallyFast<S extends Routable>(replicas: readonly S[]): boolean {
  const paces = replicas.filter((other) => !other.drained && other.sequenceSpeed !== null).map((other) => other.sequenceSpeed as number);
  return paces.length === 0 || Math.min(...paces) >= FAST_ENOUGH * Math.max(...paces);
}

/**
 * The replicas that may take a call now: not drained, with a free slot, and
 * ready: healthy, or, for one whose last attempts failed (fewer than drain
 * it), one trial call at a time once the backoff of its last failure (or the
 * Retry-After it asked for) has passed; not the one the call just failed on.
 * A trial either drains the replica (then it is watched until it answers) or
 * makes it healthy again: left aside, it would neither, a replica idle for
 * the rest of the run. When none is ready and a healthy replica is busy, the
 * call waits for it (its next completion frees a slot) rather than go back
 * where it failed, or to a replica cooling down: sent back to a replica that
 * refuses every call (429 forever), calls spent their retries there. With no
 * healthy replica left, the replicas with room take it as they are.
 */
function withRoom<S extends Routable>(replicas: readonly S[], avoid: S | null): S[] {
  const now = performance.now();
  const room = replicas.filter((replica) => !replica.drained && replica.limit - replica.inFlight > 0 && (replica.failedAttempts === 0 || replica.inFlight === 0));
  const ready = room.filter((replica) => replica !== avoid && (replica.failedAttempts === 0 || now >= replica.trialAt));
  if (ready.length > 0) return ready;
  return replicas.some((replica) => replica !== avoid && !replica.drained && replica.failedAttempts === 0) ? [] : room;
}

/**
 * The replicas of `open` that may take a call before their pace is known: one
 * not measured yet (a replica whose first calls are still decoding, or back
 * from a drain) holds no more calls than the measured replicas of the pool
 * hold on average (at least one), so that calls are spread evenly until its
 * pace says where they go. Counted as fast as the fastest (fastest, below)
 * and with no knee found, it was otherwise the freest: a replica streaming at
 * 15 tokens/s beside two at 100 held 56 calls while they held none, and the
 * run took 47 s against 30 s on three equal replicas. Replicas measured, or
 * none measured yet (the run's first calls): as they are.
 */
function withinShare<S extends Routable>(open: readonly S[], replicas: readonly S[]): readonly S[] {
  const measured = replicas.filter((replica) => !replica.drained && replica.failedAttempts === 0 && replica.sequenceSpeed !== null);
  if (measured.length === 0) return open;
  const share = Math.max(1, Math.ceil(measured.reduce((sum, replica) => sum + replica.inFlight, 0) / measured.length));
  return open.filter((replica) => replica.sequenceSpeed !== null || replica.inFlight < share);
}

/** Of the replicas with room, the fastest for the call, and among those the one holding its prefix, unless that one is too loaded. */
function byPrefix<S extends Routable>(open: readonly S[], replicas: readonly S[], call: RoutedCall<S>): S | null {
  const fast = fastest(open);
  const least = freest(fast, replicas, call.tieBreak);
  const prefix = call.prefix ?? null;
  if (prefix === null || least === null) return least;
  let holder: S | null = null;
  let held = 0;
  for (const replica of fast) {
    const matched = replica.prefixes.matched(prefix);
    if (matched > held) [holder, held] = [replica, matched];
  }
  if (holder === null || held < LEAST_MATCH * prefix.chars) return least;
  const slack = Math.max(BALANCE_ABSOLUTE, BALANCE_RELATIVE * least.inFlight);
  return holder.inFlight <= least.inFlight + slack ? holder : least;
}

/**
 * The replicas on which the call's sequence would decode fastest: those whose
 * own pace is within FAST_ENOUGH of the fastest (a replica whose pace is not
 * measured yet counts as fast as the fastest measured), and of those, the
 * ones still under their knee when any is (past it, a replica shares its
 * throughput: at the cap, 1.1 times the knee, each sequence runs 9% slower).
 */
function fastest<S extends Routable>(open: readonly S[]): S[] {
  const known = open.map((replica) => replica.sequenceSpeed).filter((speed): speed is number => speed !== null && speed > 0);
  const assumed = known.length > 0 ? Math.max(...known) : 1;
  const paceOf = (replica: S) => replica.sequenceSpeed ?? assumed;
  const best = Math.max(...open.map(paceOf));
  const fast = open.filter((replica) => paceOf(replica) >= FAST_ENOUGH * best);
  const underKnee = fast.filter((replica) => replica.kneeSize === null || replica.inFlight + 1 <= replica.kneeSize);
  return underKnee.length > 0 ? underKnee : fast;
}
