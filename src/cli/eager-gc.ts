/**
 * Makes V8 collect garbage sooner, for the commands that stream a long log
 * and for runs.
 *
 * Reading a store allocates far more than it keeps: every record is parsed,
 * used and dropped. V8 grows the heap with the allocation rate, so a replay of
 * 200,000 messages with about 110 MB live reached a 530 MB heap. Capping each
 * growth step at 25% keeps the heap near what is live, for a few percent more
 * collection time. The flag is read at every collection, so setting it after
 * start-up takes effect (unlike --max-old-space-size), and it applies to the
 * worker threads too.
 *
 * A run is the same on a smaller scale: hundreds of calls in flight outlive
 * the young generation, so their request bodies, streamed chunks and actor
 * states die in the old one. With V8's own factor (up to 4) the overhead
 * benchmark's heap reached 410 MB over 110-170 MB live; a factor of 2
 * (V8's own cap when memory is short) kept it near 290 MB
 * for CPU time within the noise of two-core runs. 50% and 25% saved another
 * 60-80 MB for 20-30% more CPU then. Measured again with thinking-length
 * outputs (issue 39), where the live heap is large, 50% cost little CPU and
 * saved much: 100 × 2 × 8 × 8 at 8,000-token
 * outputs peaked at 546 MB instead of 612 for 78.7 CPU-s against 79.2;
 * 20 × 5 × 8 × 8, 380 MB instead of 462 for 39.4 CPU-s against 37.5; the
 * overhead benchmark's CPU per call stayed within the noise of a loaded
 * machine (1.7-1.9 × the plain client's either way).
 */
import v8 from 'node:v8';

/** The heap growth step of `tmas run` and `tmas table1`, in percent (see above). */
export const RUN_HEAP_GROWTH = 50;

/**
 * The heap growth step of `tmas export`, in percent. Its live heap is small
 * (a row group of records), so collecting eagerly saved little memory for a
 * sixth of its time: on the 164,000-generation run, 25% took 23.9 s of CPU
 * at 218 MB peak RSS, 100% 20.1 s at 227 MB.
 */
export const EXPORT_HEAP_GROWTH = 100;

/**
 * The heap growth step of `tmas replay`, in percent. On the 164,000-call run
 * (332,202 messages): 25% took 85 s of CPU at 353 MB peak RSS, 50% 71 s at
 * 373 MB, 100% 71 s at 393 MB.
 */
export const REPLAY_HEAP_GROWTH = 50;

/** Caps V8's heap growth at `percent` per collection, for the rest of the process. */
export function collectGarbageEagerly(percent = 25): void {
  v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}
