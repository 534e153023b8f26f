import { describe, expect, it } from 'vitest';
import { AgentFileError, fileStem, parseAgentFile, serializeAgentFile, uniqueFileName, type AgentSpec } from '../../src/agents-as-code/files.js';

const full: AgentSpec = {
  name: 'Price watcher',
  charter: 'Track the price.\n\nWrite when it drops: yes.',
  schedule: '@daily',
  active: false,
  whitelist_policy: 'manual',
  contact_approval_mode: 'auto_approve_email',
  preferred_llm_tier: 'premium',
  daily_credit_limit: 40,
  preferred_contact: 'email',
  proactive: true,
};

function refusal(text: string): AgentFileError {
  try {
    parseAgentFile(text, 'agents/x.md');
  } catch (error) {
    if (error instanceof AgentFileError) return error;
    throw error;
  }
  throw new Error('accepted');
}

describe('agent files', () => {
  it('reads back what it writes, every field and a charter with YAML-looking lines', () => {
    const text = serializeAgentFile(full);
    expect(text).toContain('schedule: "@daily"');
    expect(parseAgentFile(text, 'x.md')).toEqual(full);
    const odd = { name: 'yes', charter: '---\nname: not a field\n---', schedule: null, daily_credit_limit: null, preferred_contact: null };
    expect(parseAgentFile(serializeAgentFile(odd), 'x.md')).toEqual(odd);
  });

  it('a field left out stays out (not managed), and the charter is stripped as the service strips it', () => {
    expect(parseAgentFile('---\nname: scout\n---\n\n  Watch.\n\n', 'x.md')).toEqual({ name: 'scout', charter: 'Watch.' });
  });

  it('names the file, the line and the field of each mistake', () => {
    expect(refusal('---\nname: a\nschedule: "every day"\n---\n').message).toMatch(/^agents\/x\.md:3: schedule: /);
    expect(refusal('---\nname: a\n\nactive: maybe\n---\n')).toMatchObject({ line: 4, field: 'active' });
    expect(refusal('---\nname: a\nwhitelist: manual\n---\n')).toMatchObject({ line: 3, field: 'whitelist' });
    expect(refusal('---\nname: a\nschedule: @daily\n---\n').message).toMatch(/:3: front matter: .*quote/);
    expect(refusal('---\nname: a\nname: b\n---\n')).toMatchObject({ field: 'front matter' });
    expect(refusal('---\nschedule: null\n---\n')).toMatchObject({ field: 'name' });
    expect(refusal('---\nname: a\ndaily_credit_limit: -1\n---\n')).toMatchObject({ line: 3, field: 'daily_credit_limit' });
    expect(refusal('---\nname: a\npreferred_contact: fax\n---\n')).toMatchObject({ field: 'preferred_contact' });
    expect(refusal('no front matter')).toMatchObject({ line: 1, field: 'front matter' });
    expect(refusal('---\nname: a\n')).toMatchObject({ field: 'front matter' });
  });

  it('refuses a front matter that expands aliases without bound', () => {
    const bomb = ['---', 'a: &a x', 'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]', 'name: *b', '---'].join('\n');
    expect(() => parseAgentFile(bomb, 'x.md')).toThrow(AgentFileError);
  });

  it('turns a hostile name into a plain file name', () => {
    expect(fileStem('../../etc/passwd')).toBe('etc-passwd');
    expect(fileStem('\u202eevil\u0007 name')).toBe('evil-name');
    expect(fileStem('...')).toBe('agent');
    expect(fileStem('CON')).toBe('agent-con');
    expect(fileStem('Crème brûlée')).toBe('creme-brulee');
    const taken = new Set<string>();
    expect([uniqueFileName('A', taken), uniqueFileName('a', taken)]).toEqual(['a.md', 'a-2.md']);
  });
});
