import { describe, expect, it } from 'vitest';
import { NewestFirst } from '../../src/emulator/newest-first.js';

const item = (seq: number) => ({ seq });

describe('NewestFirst (the index a list page is sliced from)', () => {
  it('pages newest first by slicing, keeps order when an item arrives late, and removes items', () => {
    const index = new NewestFirst<{ seq: number }>();
    const items = [1, 2, 3, 5, 6].map(item);
    for (const entry of items) index.add(entry);
    const late = item(4);
    index.add(late);
    expect(index.slice(0, 3).map((entry) => entry.seq)).toEqual([6, 5, 4]);
    expect(index.slice(3, 3).map((entry) => entry.seq)).toEqual([3, 2, 1]);
    expect(index.slice(6, 3)).toEqual([]);
    index.remove(late);
    index.remove(item(2)); // not the stored object: nothing happens
    expect([...index.newest()].map((entry) => entry.seq)).toEqual([6, 5, 3, 2, 1]);
    expect(index.size).toBe(5);
  });
});
