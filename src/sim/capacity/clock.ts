/**
 * The capacity model's sense of time, in simulated seconds. The server runs it
 * on the wall clock sped up by a time scale; tests drive a manual clock, so
 * the engine is checked without waiting on real time.
 */

/** Simulated time and one kind of timer, in simulated seconds. */
export interface SimClock {
  /** Simulated seconds since the clock started. */
  now(): number;
  /** Calls `fire` once the simulated time reaches `at`; returns a handle for `cancel`. */
  schedule(at: number, fire: () => void): unknown;
  cancel(handle: unknown): void;
}

/** The wall clock sped up `timeScale` times: one real second is `timeScale` simulated seconds. */
export function createScaledClock(timeScale: number): SimClock {
  if (!(timeScale > 0) || !Number.isFinite(timeScale)) throw new TypeError(`timeScale must be a finite number > 0, got ${timeScale}`);
  const start = performance.now();
  const now = (): number => ((performance.now() - start) / 1000) * timeScale;
  return {
    now,
    schedule(at, fire) {
      const timer = setTimeout(fire, Math.max(0, ((at - now()) / timeScale) * 1000));
      timer.unref();
      return timer;
    },
    cancel(handle) {
      clearTimeout(handle as NodeJS.Timeout);
    },
  };
}

/** A clock that moves only when told to, for tests. */
export interface ManualClock extends SimClock {
  /** Moves time to `at`, firing every timer due on the way, in time order. */
  advanceTo(at: number): void;
  /** Moves time forward until no timer is left (or `limit` is reached). */
  runAll(limit?: number): void;
}

/** A manual clock starting at 0. */
export function createManualClock(): ManualClock {
  let time = 0;
  let nextId = 0;
  const timers = new Map<number, { at: number; fire: () => void }>();
  const earliest = (): [number, { at: number; fire: () => void }] | undefined => {
    let best: [number, { at: number; fire: () => void }] | undefined;
    for (const entry of timers) if (best === undefined || entry[1].at < best[1].at) best = entry;
    return best;
  };
  const clock: ManualClock = {
    now: () => time,
    schedule(at, fire) {
      const id = nextId++;
      timers.set(id, { at, fire });
      return id;
    },
    cancel(handle) {
      timers.delete(handle as number);
    },
    advanceTo(at) {
      for (let due = earliest(); due !== undefined && due[1].at <= at; due = earliest()) {
        timers.delete(due[0]);
        time = Math.max(time, due[1].at);
        due[1].fire();
      }
      time = Math.max(time, at);
    },
    runAll(limit = Number.POSITIVE_INFINITY) {
      for (let due = earliest(); due !== undefined && due[1].at <= limit; due = earliest()) clock.advanceTo(due[1].at);
    },
  };
  return clock;
}
