// pwsh is not on this machine (nor installable without a package feed), so the PowerShell script is
// checked at the level of its syntax and its data: the embedded tree is the program's, it parses,
// and the script's brackets and quotes balance.
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { completionScript } from '../../src/completion/index.js';
import { completionModel } from '../../src/completion/model.js';
import { powershellData } from '../../src/completion/powershell.js';

const script = completionScript('powershell', await buildProgram([]));

/** The script with its here-string and quoted strings taken out: what PowerShell parses as code. */
function code(text: string): string {
  return text
    .replace(/@'\n[\s\S]*?\n'@/g, "''")
    .replace(/'(?:[^']|'')*'/g, "''")
    .replace(/"(?:[^"`]|`.)*"/g, '""')
    .replace(/#.*$/gm, '');
}

describe('completion powershell', () => {
  it('registers a native completer for agentctl', () => {
    expect(script).toMatch(/^Register-ArgumentCompleter -Native -CommandName 'agentctl' -ScriptBlock \{$/m);
  });

  it('embeds the whole command tree as JSON that parses back to the model', async () => {
    const json = /@'\n(.*)\n'@/.exec(script)?.[1] ?? '';
    const data = JSON.parse(json) as ReturnType<typeof powershellData>;
    expect(data).toEqual(powershellData(completionModel(await buildProgram([]))));
    expect(data['']?.subcommands.map(([name]) => name)).toEqual(expect.arrayContaining(['tasks', 'persistent', 'completion']));
    expect(data['tasks list']?.options.find((option) => option.flags.includes('--status'))?.choices).toContain('completed');
    expect(data['completion']?.args[0]).toEqual(['bash', 'zsh', 'fish', 'powershell']);
    expect(data['tasks create']?.options.some((option) => option.flags.includes('--json'))).toBe(true); // globals too
  });

  it('has balanced brackets and closed strings outside the data', () => {
    const body = code(script);
    expect(body.replace(/''|""/g, ''), 'a quote left open').not.toMatch(/['"]/);
    for (const [open, close] of [['{', '}'], ['(', ')'], ['[', ']']] as const) {
      expect(body.split(open).length, `${open}${close} balance`).toBe(body.split(close).length);
    }
  });
});
