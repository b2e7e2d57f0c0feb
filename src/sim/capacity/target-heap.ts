/**
 * A binary min-heap of decode targets: the progress mark at which a sequence
 * reaches its next streamed step or its end. Every decoding sequence moves at
 * the same rate, so the sequence due next is the one with the lowest mark,
 * whatever the rate does meanwhile.
 */

/** One target: sequence `owner` reaches `step` when the shared progress reaches `mark`. */
export interface Target<T> {
  mark: number;
  owner: T;
  step: number;
  /** The owner's epoch when pushed: a preempted or aborted owner bumps it, which voids the target. */
  epoch: number;
}

/** A min-heap on `mark`. */
export class TargetHeap<T> {
  private readonly items: Array<Target<T>> = [];

  get size(): number {
    return this.items.length;
  }

  peek(): Target<T> | undefined {
    return this.items[0];
  }

  push(target: Target<T>): void {
    const items = this.items;
    items.push(target);
    let at = items.length - 1;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if ((items[parent] as Target<T>).mark <= target.mark) break;
      items[at] = items[parent] as Target<T>;
      at = parent;
    }
    items[at] = target;
  }

  pop(): Target<T> | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (top === undefined || last === undefined || items.length === 0) return top;
    let at = 0;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= items.length) break;
      const right = left + 1;
      const child = right < items.length && (items[right] as Target<T>).mark < (items[left] as Target<T>).mark ? right : left;
      if ((items[child] as Target<T>).mark >= last.mark) break;
      items[at] = items[child] as Target<T>;
      at = child;
    }
    items[at] = last;
    return top;
  }
}
