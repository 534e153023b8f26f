// agentctl tasks list: columns at a terminal's width, --page, --status read across pages, --fields.
import { describe, expect, it } from 'vitest';
import { apiRequest } from '../helpers/api.js';
import { emulatorForFile, type FileEmulator } from '../helpers/emulator-file.js';

const service = emulatorForFile();
const cli: FileEmulator['cli'] = (...args) => service.cli(...args);
const { createTask } = service;

describe('tasks list at 80 columns', () => {
  it('keeps a shortened prompt and leaves CREDITS and CREATED out instead', async () => {
    await apiRequest(service.emulator.baseUrl, 'POST', '/tasks/browser-use/', { prompt: 'Find the cheapest flight from Oslo to Rome in May and list three options' });
    const result = await cli(['tasks', 'list', '--page-size', '3'], { terminal: { stdoutIsTTY: true, columns: 80 }, env: { NO_COLOR: '1' } });
    expect(result.exitCode, result.stderr).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+STATUS\s+PROMPT$/);
    expect(result.stdout).toMatch(/Find the cheapest flight.*…/);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    // A wide terminal still shows everything.
    const wide = await cli(['tasks', 'list', '--page-size', '3'], { terminal: { stdoutIsTTY: true, columns: 140 }, env: { NO_COLOR: '1' } });
    expect(wide.stdout.split('\n')[0]).toMatch(/^ID\s+STATUS\s+CREATED\s+CREDITS\s+PROMPT$/);
  });
});

describe('tasks list --page', () => {
  it('--page 0 is refused like any bad number, without a 16-digit limit', async () => {
    const result = await cli(['tasks', 'list', '--page', '0']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('error: --page must be 1 or more, got 0');
    expect(result.stderr).not.toContain('9007199254740991');
  });
});

describe('tasks list --status (filtered by agentctl)', () => {
  it('reads on past a page without matches, and says there is more on stderr when piped', async () => {
    const early = await createTask('cancelled early');
    await apiRequest(service.emulator.baseUrl, 'POST', `/tasks/browser-use/${early.id}/cancel/`);
    for (let i = 0; i < 12; i++) await createTask(`filler ${i}`);
    const result = await cli(['tasks', 'list', '--status', 'cancelled', '--page-size', '5', '--json']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).map((task: { id: string }) => task.id)).toContain(early.id);

    const piped = await cli(['tasks', 'list', '--page-size', '2', '--json']);
    expect(JSON.parse(piped.stdout)).toHaveLength(2);
    expect(piped.stderr).toMatch(/More: --page 2, or --all/);
    const quiet = await cli(['tasks', 'list', '--page-size', '2', '--json', '-q']);
    expect(quiet.stderr).toBe('');
  });
});

describe('--fields', () => {
  it('an unknown field is a usage error listing the fields there are', async () => {
    await createTask('fields');
    for (const format of [[], ['--json'], ['--all', '--json'], ['--all', '--jsonl']]) {
      const result = await cli(['tasks', 'list', '--fields', 'id,bogus', ...format]);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain('bogus');
      expect(result.stderr).toMatch(/status/);
      // Nothing on stdout, not even the opening of a JSON array.
      expect(result.stdout, format.join(' ')).toBe('');
    }
  });
});
