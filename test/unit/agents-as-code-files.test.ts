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

describe('the front matter read without the YAML library', () => {
  it('reads each value as the YAML library does', async () => {
    const { parse } = await import('yaml');
    const values = [
      '"@daily"', "'0 9 * * mon-fri'", 'Price watcher', 'true', 'false', 'null', '', '42', '0', '007', '1e3', '0x1F', 'True', 'NULL', '~', 'yes', 'no',
      '"a # b"', 'a # b', 'a: b', '-1', '- x', '"esc\\"aped"', "'it''s'", 'café', '.inf', '+1', 'x:y', '2024 plan', '"tab\there"', '@x', '*alias', '&anchor x',
    ];
    for (const value of values) {
      const text = `---\nname: ${value}\n---\n`;
      const viaYaml = (() => {
        try {
          return { value: parse(`name: ${value}`) };
        } catch {
          return 'refused';
        }
      })();
      const ours = (() => {
        try {
          return { value: { name: parseAgentFile(text, 'x.md').name } };
        } catch (error) {
          return error instanceof AgentFileError && error.field === 'front matter' ? 'refused' : 'checked';
        }
      })();
      // Where YAML gives text, so do we; where YAML refuses, so do we; else the field's own check speaks.
      if (viaYaml === 'refused') expect(ours, value).not.toHaveProperty('value');
      else if (typeof viaYaml.value.name === 'string' && viaYaml.value.name.trim() !== '') expect(ours, value).toEqual({ value: { name: viaYaml.value.name.trim() } });
      else expect(ours, value).not.toBe('refused');
    }
  });
});
