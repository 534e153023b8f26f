// agentctl version and --version.
import { describe, expect, it } from 'vitest';
import { agentctl } from '../helpers/cli.js';

describe('the version', () => {
  it('agentctl version names agentctl and its runtime; --json for scripts', async () => {
    const text = await agentctl(['version']);
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toMatch(/^agentctl version \S+ \(node\/\d+\.\d+\.\d+\)\n$/);
    const json = JSON.parse((await agentctl(['version', '--json'])).stdout);
    expect(json).toEqual({ version: (await agentctl(['--version'])).stdout.trim(), runtime: expect.stringMatching(/^node\//) });
  });

  it('-v is refused with where the version is (and that it is not --verbose)', async () => {
    const result = await agentctl(['-v']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("unknown option '-v'");
    expect(result.stderr).toContain('agentctl --version');
    expect(result.stderr).toContain('--verbose');
  });
});
