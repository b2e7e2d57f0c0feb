/**
 * The global in-flight limit: an RxJS `mergeMap(…, limit)` over a stream of
 * jobs. Jobs start in the order they were scheduled, at most `limit` at once.
 */
import { Subject, defer, mergeMap, type Subscription } from 'rxjs';

interface Job {
  run: () => Promise<unknown>;
  settle: (outcome: { ok: true; value: unknown } | { ok: false; error: unknown }) => void;
  signal?: AbortSignal;
}

/** A concurrency limiter with counters for the progress display. */
export interface Limiter {
  /** Runs `task` when a slot is free. A job whose signal aborts while queued never starts. */
  schedule<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  readonly inFlight: number;
  readonly queued: number;
  readonly limit: number;
  close(): void;
}

/** Creates a limiter allowing `limit` jobs in flight. */
export function createLimiter(limit: number): Limiter {
  if (!Number.isInteger(limit) || limit < 1) throw new TypeError(`limit must be a positive integer, got ${limit}`);
  const jobs = new Subject<Job>();
  let inFlight = 0;
  let queued = 0;

  const subscription: Subscription = jobs
    .pipe(
      mergeMap(
        (job) =>
          defer(async () => {
            queued--;
            if (job.signal?.aborted) {
              job.settle({ ok: false, error: job.signal.reason });
              return;
            }
            inFlight++;
            try {
              job.settle({ ok: true, value: await job.run() });
            } catch (error) {
              job.settle({ ok: false, error });
            } finally {
              inFlight--;
            }
          }),
        limit,
      ),
    )
    .subscribe();

  return {
    schedule<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queued++;
        jobs.next({
          run: task,
          signal,
          settle: (outcome) => (outcome.ok ? resolve(outcome.value as T) : reject(outcome.error)),
        });
      });
    },
    get inFlight() {
      return inFlight;
    },
    get queued() {
      return queued;
    },
    limit,
    close: () => subscription.unsubscribe(),
  };
}
