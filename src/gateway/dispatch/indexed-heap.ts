/**
 * A binary heap that knows where each of its elements is, so that any one can
 * be taken out in O(log n), not only the first. The held calls keep two, one
 * in each order (held-calls.ts): a slower replica takes the call ranked last,
 * and a replica with room the first one down the line whose prompt it holds,
 * and either leaves the heaps at once instead of lingering until it surfaces.
 */

/** Elements ordered by `before` (negative: `a` goes first). */
export class IndexedHeap<E> {
  private readonly heap: E[] = [];
  /** Where each element stands; null in a heap that never removes from inside (ordered()'s frontier), which then skips the bookkeeping. */
  private readonly at: Map<E, number> | null;

  constructor(
    private readonly before: (a: E, b: E) => number,
    { removable = true }: { removable?: boolean } = {},
  ) {
    this.at = removable ? new Map() : null;
  }

  get size(): number {
    return this.heap.length;
  }

  peek(): E | undefined {
    return this.heap[0];
  }

  push(element: E): void {
    this.heap.push(element);
    this.at?.set(element, this.heap.length - 1);
    this.up(this.heap.length - 1);
  }

  pop(): E | undefined {
    const top = this.heap[0];
    if (top !== undefined) this.takeAt(0);
    return top;
  }

  /** Takes `element` out wherever it is; false when it is not held. */
  remove(element: E): boolean {
    if (this.at === null) throw new TypeError('remove() on a heap made with removable: false');
    const index = this.at.get(element);
    if (index === undefined) return false;
    this.takeAt(index);
    return true;
  }

  private takeAt(index: number): void {
    this.at?.delete(this.heap[index] as E);
    const last = this.heap.pop() as E;
    if (index === this.heap.length) return;
    this.heap[index] = last;
    this.at?.set(last, index);
    this.down(index);
    this.up(index);
  }

  /**
   * The elements in order, without taking them, one at a time so that a
   * search stops where it finds: a frontier of heap positions, itself a heap,
   * each child entering once its parent has left (O(k log k) for the first k).
   */
  *ordered(): Generator<E> {
    const heap = this.heap;
    const frontier = new IndexedHeap<number>((a, b) => this.before(heap[a] as E, heap[b] as E), { removable: false });
    if (heap.length > 0) frontier.push(0);
    for (let index = frontier.pop(); index !== undefined; index = frontier.pop()) {
      for (const child of [2 * index + 1, 2 * index + 2]) if (child < heap.length) frontier.push(child);
      yield heap[index] as E;
    }
  }

  private up(index: number): void {
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (this.before(this.heap[index] as E, this.heap[parent] as E) >= 0) return;
      this.swap(index, parent);
      index = parent;
    }
  }

  private down(index: number): void {
    for (;;) {
      const left = 2 * index + 1;
      let best = index;
      if (left < this.heap.length && this.before(this.heap[left] as E, this.heap[best] as E) < 0) best = left;
      if (left + 1 < this.heap.length && this.before(this.heap[left + 1] as E, this.heap[best] as E) < 0) best = left + 1;
      if (best === index) return;
      this.swap(index, best);
      index = best;
    }
  }

  private swap(a: number, b: number): void {
    const [first, second] = [this.heap[a] as E, this.heap[b] as E];
    [this.heap[a], this.heap[b]] = [second, first];
    this.at?.set(second, a);
    this.at?.set(first, b);
  }
}
