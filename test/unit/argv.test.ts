import { describe, expect, it } from 'vitest';
import { joinTwoWordOptions, splitTwoWords } from '../../src/cli/argv.js';

describe('two-word options', () => {
  it('joins --secret DOMAIN KEY=VALUE so commander sees one value', () => {
    const argv = joinTwoWordOptions(['tasks', 'create', 'x', '--secret', 'https://a', 'K=V', '--json']);
    expect(argv).toEqual(['tasks', 'create', 'x', '--secret', 'https://a\nK=V', '--json']);
    expect(splitTwoWords(argv[4] as string)).toEqual(['https://a', 'K=V']);
  });

  it('leaves arguments after -- alone', () => {
    expect(joinTwoWordOptions(['api', '--', '--secret', 'a'])).toEqual(['api', '--', '--secret', 'a']);
  });

  it('explains a missing second word', () => {
    expect(() => joinTwoWordOptions(['--secret', 'https://a'])).toThrow('--secret needs two values: DOMAIN KEY=VALUE');
    expect(() => joinTwoWordOptions(['--secret-env', 'd', '--json'])).toThrow('DOMAIN KEY=ENVVAR');
  });
});

describe('commandWords', () => {
  it('finds the noun and verb after global options and their values', async () => {
    const { commandWords } = await import('../../src/cli/program.js');
    expect(commandWords(['--base-url', 'http://x', '--json', 'tasks', 'list', 'extra'])).toEqual(['tasks', 'list']);
    expect(commandWords(['--profile', 'tasks', 'agents', '--timeout', '5', 'list'])).toEqual(['agents', 'list']);
    expect(commandWords(['--help'])).toEqual([]);
  });
});

describe('ParseInput', () => {
  it('opens stdin only when a parse step reads it (creating process.stdin costs every run)', async () => {
    const { ParseInput } = await import('../../src/cli/define.js');
    let opened = 0;
    const stdin = { fake: true } as unknown as NodeJS.ReadableStream;
    const input = new ParseInput([], {}, {}, () => 'cli', () => (opened++, stdin));
    expect(input.string('page')).toBeUndefined();
    expect(opened).toBe(0);
    expect(input.stdin).toBe(stdin);
    expect(opened).toBe(1);
  });
});
