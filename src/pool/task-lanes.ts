/**
 * The order in which the pool's queued tasks reach its threads: two lines,
 * and a task marked `ahead` goes before every task that is not. Within a
 * line the order is Piscina's own: first come, except that a task it took
 * but could not place yet goes back to the end of its line (as with
 * Piscina's default queue). A fit is a pure function of its task, so the
 * order changes when a prompt is ready, never what it holds.
 *
 * Why: on a machine with few cores the pool is where calls wait, and a
 * summary's prompt (a candidate's M analyses) queued behind hundreds of
 * verification prompts keeps those analyses alive the whole time: with
 * thinking-length outputs, one line held thousands of analyses near the
 * peak, and the summaries ahead lowered the run's peak RSS with the same
 * results.
 */
import { Piscina, type TaskQueue } from 'piscina';

/** What a queued task says of its place (set under Piscina's queue options symbol). */
export interface LaneOptions {
  ahead?: boolean;
}

/** The queue options of a task that goes ahead of the others. */
export const AHEAD: Record<symbol, LaneOptions> = { [Piscina.queueOptionsSymbol]: { ahead: true } };

/** A task as Piscina's queue sees it: its options under the queue options symbol. */
type QueuedTask = Parameters<TaskQueue['push']>[0];

/** Piscina's `TaskQueue` in two lines, the `ahead` one first. */
export class TaskLanes implements TaskQueue {
  private readonly ahead: QueuedTask[] = [];
  private readonly rest: QueuedTask[] = [];

  get size(): number {
    return this.ahead.length + this.rest.length;
  }

  private laneOf(task: QueuedTask): QueuedTask[] {
    // Piscina types its symbol as any symbol, not the key of Task's options.
    const options = (task as unknown as Record<symbol, LaneOptions | null | undefined>)[Piscina.queueOptionsSymbol];
    return options?.ahead === true ? this.ahead : this.rest;
  }

  shift(): QueuedTask | null {
    return this.ahead.shift() ?? this.rest.shift() ?? null;
  }

  push(task: QueuedTask): void {
    this.laneOf(task).push(task);
  }

  remove(task: QueuedTask): void {
    const lane = this.laneOf(task);
    const at = lane.indexOf(task);
    if (at >= 0) lane.splice(at, 1);
  }
}
