import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { examplesOf } from '../../src/cli/help.js';
import { buildProgram } from '../../src/cli/program.js';
import { referencePages } from '../../src/cli/reference.js';

const ROOT = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; man?: string[] };
const program = await buildProgram([]);
const files = referencePages(program, pkg.version);
const STALE = 'is stale: the commands changed since it was generated. Run `npm run docs` and commit the result.';

describe('the command reference and the man pages', () => {
  it('have a Markdown page and a man page for every command of the program but help', () => {
    const commands = program.commands.map((command) => command.name()).filter((name) => name !== 'help');
    expect(commands).toContain('tasks');
    for (const name of commands) {
      expect(Object.keys(files)).toContain(`docs/commands/agentctl-${name}.md`);
      expect(Object.keys(files)).toContain(`man/agentctl-${name}.1`);
    }
    expect(Object.keys(files)).toEqual(expect.arrayContaining(['docs/commands/README.md', 'man/agentctl.1']));
  });

  it("show each verb's synopsis, options, examples and exit codes, and link the pages together", () => {
    const create = program.commands.find((command) => command.name() === 'tasks')!.commands.find((command) => command.name() === 'create')!;
    const markdown = files['docs/commands/agentctl-tasks.md']!;
    expect(markdown).toContain('## agentctl tasks create\n');
    expect(markdown).toContain('agentctl tasks create [options] [prompt]');
    expect(markdown).toContain('- `--prompt-file <path>`: read the prompt from a file');
    expect(markdown).toContain(examplesOf(create)[0]);
    expect(markdown).toContain('| 7 | the wait ran out before the task finished |');
    expect(markdown).toContain('[`agentctl tasks wait`](#agentctl-tasks-wait)');
    expect(files['docs/commands/README.md']).toContain('| [`agentctl tasks`](agentctl-tasks.md) |');
    expect(files['docs/commands/README.md']).toContain('## Global options');

    const man = files['man/agentctl-tasks.1']!;
    expect(man).toMatch(/^\.TH AGENTCTL\\-TASKS 1 "" "agentctl [\d.]+" "agentctl manual"$/m);
    expect(man).toContain('.SS agentctl tasks create');
    // Hyphens escaped, so a flag copied from the page is ASCII.
    expect(man).toContain('\\fB\\-\\-prompt\\-file <path>\\fR');
    expect(files['man/agentctl.1']).toContain('.BR agentctl\\-tasks (1)');
  });

  it('are the files checked in, and package.json lists every man page (`npm run docs` regenerates them)', () => {
    for (const [path, text] of Object.entries(files)) {
      let current = '';
      try {
        current = readFileSync(join(ROOT, path), 'utf8');
      } catch {
        // missing: stale as well
      }
      expect(current === text, `${path} ${STALE}`).toBe(true);
    }
    const onDisk = [
      ...readdirSync(join(ROOT, 'docs', 'commands')).map((file) => `docs/commands/${file}`),
      ...readdirSync(join(ROOT, 'man')).map((file) => `man/${file}`),
    ];
    expect(onDisk.sort(), `a page of a command that no longer exists: ${STALE}`).toEqual(Object.keys(files).sort());
    const pages = Object.keys(files).filter((path) => path.startsWith('man/')).map((path) => `./${path}`);
    expect(pkg.man, `package.json "man" ${STALE}`).toEqual(pages);
  });
});
