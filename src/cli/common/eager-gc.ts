/**
 * Makes V8 collect garbage sooner, for the commands that stream a long log
 * and for runs.
 *
 * Reading a store allocates far more than it keeps: every record is parsed,
 * used and dropped. V8 grows the heap with the allocation rate, so a replay's
 * heap grew to several times what was live. Capping each growth step keeps
 * the heap near what is live, for a little more collection time. The flag is
 * read at every collection, so setting it after
 * start-up takes effect (unlike --max-old-space-size), and it applies to the
 * worker threads too.
 *
 * A run is the same on a smaller scale: hundreds of calls in flight outlive
 * the young generation, so their request bodies, streamed chunks and actor
 * states die in the old one. With V8's own factor (up to 4) the overhead
 * benchmark's heap grew to well over twice what was live. With thinking-length
 * outputs (issue 39), where the live heap is large, a 50% step lowered the
 * peak RSS of the memory benchmark's runs for CPU time within the noise of a
 * loaded machine, and the overhead benchmark's CPU per call did not move;
 * in earlier measurements 25% saved a little more memory for markedly more
 * CPU.
 */
import v8 from 'node:v8';

/** The heap growth step of `tmas run` and `tmas table1`, in percent (see above). */
export const RUN_HEAP_GROWTH = 50;

/**
 * The heap growth step of `tmas export`, in percent. Its live heap is small
 * (a row group of records), so collecting eagerly saved little memory and
 * cost a noticeable share of its CPU time on the replay-export benchmark's
 * full-size run.
 */
export const EXPORT_HEAP_GROWTH = 100;

/**
 * The heap growth step of `tmas replay`, in percent. On the replay-export
 * benchmark's full-size run, 50% kept the peak RSS lower than V8's own step
 * for the same CPU time, and 25% cost markedly more CPU for little memory.
 */
export const REPLAY_HEAP_GROWTH = 50;

/** Caps V8's heap growth at `percent` per collection, for the rest of the process. */
export function collectGarbageEagerly(percent = 25): void {
  v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}
