/**
 * A first-in, first-out queue on an array: taking from the front costs no copy (Array#shift copies
 * the rest each time), and what was taken is let go of now and then, so a long-running emulator
 * that keeps adding does not keep everything it ever queued.
 */
export class Fifo<T> {
  private items: Array<T | undefined> = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  /** The item at the front, left in place. */
  peek(): T | undefined {
    return this.items[this.head];
  }

  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head];
    this.items[this.head++] = undefined;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  clear(): void {
    this.items = [];
    this.head = 0;
  }
}
