// Text from the service on a terminal and in --verbose traces: control characters escaped (src/output).
import { describe, expect, it } from 'vitest';
import { emulatorForFile, type FileEmulator } from '../helpers/emulator-file.js';

const service = emulatorForFile();
const cli: FileEmulator['cli'] = (...args) => service.cli(...args);
const { createTask } = service;

describe('text from the service', () => {
  it('is shown with control characters escaped on a terminal, exact in JSON', async () => {
    const prompt = 'title\u001b]0;pwned\u0007 clear\u001b[2J';
    const { id } = await createTask(prompt);
    const view = await cli(['tasks', 'get', id], { terminal: { stdoutIsTTY: true, stderrIsTTY: true, columns: 120 } });
    expect(view.stdout).not.toContain('\u001b]');
    expect(view.stdout).not.toContain('\u0007');
    expect(view.stdout).toContain('\\x1b]0;pwned\\x07');
    const json = await cli(['tasks', 'get', id, '--json']);
    expect(JSON.parse(json.stdout).prompt).toBe(prompt);
  });

  it('is escaped in --verbose traces too (a raw C1 CSI in a response body)', async () => {
    const { id } = await createTask('c1 \u009b2J here');
    const traced = await cli(['tasks', 'get', id, '--json', '--verbose']);
    expect(traced.stderr).toContain('c1 \\x9b2J here');
    expect(traced.stderr).not.toContain('\u009b');
    expect(JSON.parse(traced.stdout).prompt).toBe('c1 \u009b2J here');
  });
});
