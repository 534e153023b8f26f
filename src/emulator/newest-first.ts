// A list kept in creation order (by `seq`), read newest first: adding is O(1) and a page is a slice,
// so a list request costs the same with 100 or 100,000 records stored.

export class NewestFirst<T extends { seq: number }> {
  /** Oldest first: records are created with increasing seq, so adding is a push. */
  private readonly items: T[] = [];

  get size(): number {
    return this.items.length;
  }

  add(item: T): void {
    const last = this.items[this.items.length - 1];
    if (last === undefined || last.seq < item.seq) this.items.push(item);
    else this.items.splice(this.position(item.seq), 0, item);
  }

  remove(item: T): void {
    const at = this.position(item.seq);
    if (this.items[at] === item) this.items.splice(at, 1);
  }

  /** `count` items starting `offset` places from the newest, newest first. */
  slice(offset: number, count: number): T[] {
    const end = Math.max(0, this.items.length - offset);
    const start = Math.max(0, end - count);
    return this.items.slice(start, end).reverse();
  }

  /** Newest first, lazily (stops as soon as the caller does). */
  *newest(): Generator<T> {
    for (let i = this.items.length - 1; i >= 0; i--) yield this.items[i] as T;
  }

  clear(): void {
    this.items.length = 0;
  }

  /** Oldest first. */
  oldest(): readonly T[] {
    return this.items;
  }

  /** Index of the first item whose seq is >= `seq` (binary search). */
  private position(seq: number): number {
    let low = 0;
    let high = this.items.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.items[middle] as T).seq < seq) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
