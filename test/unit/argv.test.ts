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
