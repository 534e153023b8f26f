import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { BIN, agentctl } from '../helpers/cli.js';

function commandPaths(command: Command, path: string[] = []): string[] {
  return [path.join(' '), ...command.commands.flatMap((sub) => commandPaths(sub, [...path, sub.name()]))];
}

describe('pre-rendered help for pipes', () => {
  it('has a page for every command of the tree', async () => {
    const pages = readdirSync(join(BIN, '..', '..', 'dist', 'help')).map((file) => file.replace(/\.txt$/, '').split('_').slice(1).join(' '));
    expect(pages.sort()).toEqual(commandPaths(await buildProgram([])).sort());
  });

  // FORCE_COLOR bypasses the pages (commander renders), so both ways must print the same text.
  it.each([[[]], [['tasks']], [['tasks', 'create']], [['persistent', 'timeline']], [['schedule-preview']], [['webhook-listen']]])(
    'prints the same text as commander for %j --help',
    async (path) => {
      const cached = await agentctl([...path, '--help']);
      const rendered = await agentctl([...path, '--help'], { env: { FORCE_COLOR: '0' } });
      expect(cached.exitCode).toBe(0);
      expect(cached.stdout).toContain('Usage: agentctl');
      expect(cached.stdout).toBe(rendered.stdout);
    },
  );

  it('leaves anything else to commander (help after other options, unknown commands)', async () => {
    expect((await agentctl(['--json', 'tasks', '--help'])).stdout).toContain('Usage: agentctl tasks');
    const unknown = await agentctl(['nosuch', '--help']);
    expect(unknown.stdout + unknown.stderr).toContain('agentctl');
  });
});
