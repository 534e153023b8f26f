// agentctl tasks create: prompt files and stdin are checked before any request.
import { describe, expect, it } from 'vitest';
import { agentctl } from '../helpers/cli.js';

describe('prompt files', () => {
  it('refuses invalid UTF-8, NUL bytes and oversized prompts before any request (exit 2)', async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tempDir } = await import('../helpers/cli.js');
    const dir = tempDir();
    const offline = (args: string[], input?: string) => agentctl([...args, '--base-url', 'http://127.0.0.1:9/api/v1', '--api-key', 'k123'], { input });
    writeFileSync(join(dir, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    writeFileSync(join(dir, 'nul.txt'), Buffer.from('abc\u0000def'));
    writeFileSync(join(dir, 'big.txt'), 'x'.repeat(2 * 1024 * 1024));
    const latin1 = await offline(['tasks', 'create', '--prompt-file', join(dir, 'latin1.txt')]);
    expect(latin1.exitCode).toBe(2);
    expect(latin1.stderr).toContain('not valid UTF-8');
    const nul = await offline(['tasks', 'create', '--prompt-file', join(dir, 'nul.txt')]);
    expect(nul.exitCode).toBe(2);
    expect(nul.stderr).toContain('NUL byte');
    const big = await offline(['tasks', 'create', '--prompt-file', join(dir, 'big.txt')]);
    expect(big.exitCode).toBe(2);
    expect(big.stderr).toContain('the limit is 1 MiB');
    const stdin = await offline(['tasks', 'create', '-'], 'x'.repeat(2 * 1024 * 1024));
    expect(stdin.exitCode).toBe(2);
  });
});
