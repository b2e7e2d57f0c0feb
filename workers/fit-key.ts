/**
 * The identity of a `fit` task: two tasks with the same key have the same
 * output, so the pool client can answer the second from the first. Exact, not
 * a hash: the key holds every input that the output depends on.
 */
import type { FitTask } from './tasks.ts';

/** A string that equals another task's exactly when their outputs must be equal. */
export function fitKey(task: FitTask): string {
  // JSON quoting keeps texts from running into each other; `drop` and `id` shape the output too.
  return JSON.stringify([task.encoding, task.budget, task.system, task.parts.map((part) => [part.id, part.drop ?? null, part.text])]);
}
