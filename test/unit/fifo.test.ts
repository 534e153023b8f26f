import { describe, expect, it } from 'vitest';
import { Fifo } from '../../src/emulator/fifo.js';

describe('Fifo (the emulator\'s queues of webhook deliveries and task steps)', () => {
  it('gives items back in order across its compactions, and says how many wait', () => {
    const fifo = new Fifo<number>();
    const out: number[] = [];
    for (let i = 0; i < 5000; i++) {
      fifo.push(i);
      if (i % 3 === 2) out.push(fifo.shift() as number);
    }
    expect(fifo.size).toBe(5000 - out.length);
    expect(fifo.peek()).toBe(out.length);
    while (fifo.size > 0) out.push(fifo.shift() as number);
    expect(out).toEqual(Array.from({ length: 5000 }, (_, i) => i));
    expect(fifo.shift()).toBeUndefined();
    fifo.push(7);
    fifo.clear();
    expect([fifo.size, fifo.peek()]).toEqual([0, undefined]);
  });
});
