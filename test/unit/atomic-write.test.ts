import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomically } from '../../src/contract/atomic-write.js';
import { tempDir } from '../helpers/cli.js';

describe('writeFileAtomically', () => {
  it('replaces a file whole, bytes or text, and leaves no temporary file beside it', async () => {
    const dir = tempDir();
    const path = join(dir, 'out.bin');
    writeFileSync(path, 'old');
    await writeFileAtomically(path, new Uint8Array([0, 1, 2, 255]));
    expect([...readFileSync(path)]).toEqual([0, 1, 2, 255]);
    await writeFileAtomically(path, 'text', { sync: false });
    expect(readFileSync(path, 'utf8')).toBe('text');
    expect(readdirSync(dir)).toEqual(['out.bin']);
  });

  it('exclusive: never over a file that is there (EEXIST), and nothing left of the attempt', async () => {
    const dir = tempDir();
    const path = join(dir, 'report.pdf');
    await writeFileAtomically(path, 'first', { exclusive: true });
    expect(readFileSync(path, 'utf8')).toBe('first');
    await expect(writeFileAtomically(path, 'second', { exclusive: true })).rejects.toMatchObject({ code: 'EEXIST' });
    expect(readFileSync(path, 'utf8')).toBe('first');
    expect(readdirSync(dir)).toEqual(['report.pdf']);
  });

  it('writes nothing where the folder is missing', async () => {
    const dir = tempDir();
    await expect(writeFileAtomically(join(dir, 'none', 'x.txt'), 'x', { exclusive: true })).rejects.toMatchObject({ code: 'ENOENT' });
    expect(readdirSync(dir)).toEqual([]);
  });
});
