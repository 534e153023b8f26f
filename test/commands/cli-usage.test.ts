// How the command line answers a wrong argv (src/cli): usage errors, unknown commands, choices.
import { describe, expect, it } from 'vitest';
import { agentctl } from '../helpers/cli.js';

describe('usage errors', () => {
  it('help before a verb is the noun\'s help, with every verb (a run defines only the verb it names)', async () => {
    const all = await agentctl(['tasks', '--help']);
    for (const argv of [['tasks', '--help', 'list'], ['tasks', '-h', 'get']]) {
      const result = await agentctl(argv);
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toBe(all.stdout);
    }
    expect(all.stdout).toContain('cancel');
  });

  it('a mistyped verb is told the verb it resembles (a run defines only the verb it names)', async () => {
    const result = await agentctl(['tasks', 'lst']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("unknown command 'lst'");
    expect(result.stderr).toContain('Did you mean list?');
  });

  it('a missing argument prints the usage line and the help command', async () => {
    const result = await agentctl(['tasks', 'get']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("missing required argument 'id'");
    expect(result.stderr).toMatch(/usage: agentctl tasks get \[options\] <id>/);
    expect(result.stderr).toContain('agentctl help tasks get');
  });

  it('persistent message with no arguments asks for the id and body before --channel', async () => {
    const bareMessage = await agentctl(['persistent', 'message']);
    expect(bareMessage.exitCode).toBe(2);
    expect(bareMessage.stderr).toContain("missing required argument 'id'");
    expect(bareMessage.stderr).not.toContain('--channel');
    const noChannel = await agentctl(['persistent', 'message', '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f', 'hello']);
    expect(noChannel.exitCode).toBe(2);
    expect(noChannel.stderr).toContain("required option '--channel <channel>' not specified");
  });

  it('an unknown verb or noun is exit 2 with did-you-mean, --help or not', async () => {
    for (const argv of [['tasks', 'bogus', '--help'], ['tasks', 'bogus'], ['bogus', '-h']]) {
      const result = await agentctl(argv);
      expect(result.exitCode, argv.join(' ')).toBe(2);
      expect(result.stdout, argv.join(' ')).toBe('');
      expect(result.stderr).toContain("unknown command 'bogus'");
    }
    const typo = await agentctl(['tasks', 'lst', '--help']);
    expect(typo.exitCode).toBe(2);
    expect(typo.stderr).toContain('Did you mean list?');
    // Known commands still answer --help, also a noun's own help verb.
    expect((await agentctl(['tasks', 'list', '--help'])).exitCode).toBe(0);
    expect((await agentctl(['webhook-listen', 'replay', '--help'])).exitCode).toBe(0);
  });
});

describe('a value that is not one of the choices', () => {
  it('an option value out of its choices is worded the same way', async () => {
    const result = await agentctl(['persistent', 'timeline', '7c9e6679-7425-40de-944b-e07fc1f90ae7', '--direction', 'sideways']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^error: --direction "sideways" is not one of initial, older, newer\n/);
  });
});
