// `agentctl emulator --state FILE`: the records outlive the process (saved on SIGTERM, loaded at
// the next start), and --faults with --seed answer the same way in every run.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { BIN, against, tempDir } from '../helpers/cli.js';

async function start(args: string[]) {
  const child = spawn(process.execPath, [BIN, 'emulator', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'ignore'], env: { PATH: process.env.PATH } });
  const baseUrl = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
  return {
    baseUrl,
    cli: against(baseUrl),
    stop: async () => {
      child.kill('SIGTERM');
      return new Promise((resolve) => child.once('exit', resolve));
    },
    kill: async () => {
      child.kill('SIGKILL');
      return new Promise((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    },
  };
}

describe('agentctl emulator --state and --faults', () => {
  it('keeps agents and tasks across a restart', async () => {
    const file = join(tempDir('agentctl-state-'), 'emulator.json');
    const first = await start(['--state', file]);
    const created = await first.cli(['tasks', 'create', 'kept across restarts', '--json']);
    expect(created.exitCode).toBe(0);
    const { id } = JSON.parse(created.stdout) as { id: string };
    expect(await first.stop()).toBe(0);
    expect(existsSync(file)).toBe(true);

    const second = await start(['--state', file]);
    const shown = await second.cli(['tasks', 'get', id, '--json']);
    expect(shown.exitCode).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ id, prompt: 'kept across restarts' });
    await second.stop();
  });

  it('saves while running, so a killed emulator (SIGKILL) keeps what it had saved; a second one on the same file is refused (exit 2)', async () => {
    const folder = tempDir('agentctl-state-');
    const file = join(folder, 'emulator.json');
    const first = await start(['--state', file]);
    const created = await first.cli(['tasks', 'create', 'kept across a kill', '--json']);
    const { id } = JSON.parse(created.stdout) as { id: string };
    // The periodic save (every 2 s while anything changed) writes it without any stop.
    while (!(existsSync(file) && readFileSync(file, 'utf8').includes(id))) await new Promise((resolve) => setTimeout(resolve, 50));

    const second = spawnSync(process.execPath, [BIN, 'emulator', '--port', '0', '--state', file], { encoding: 'utf8', env: { PATH: process.env.PATH }, timeout: 20_000 });
    expect(second.status).toBe(2);
    expect(second.stderr).toMatch(/--state: .* is in use by the emulator with pid \d+/);

    expect(await first.kill()).toBe('SIGKILL');
    const third = await start(['--state', file]);
    const shown = await third.cli(['tasks', 'get', id, '--json']);
    expect(JSON.parse(shown.stdout)).toMatchObject({ id, prompt: 'kept across a kill' });
    await third.stop();
    expect(readdirSync(folder)).toEqual(['emulator.json']);
  });

  it('answers the faults it was given from the start, the same with the same seed', async () => {
    const answers: number[][] = [];
    for (let run = 0; run < 2; run++) {
      const emulator = await start(['--faults', 'GET /ping/ => 503@50%', '--seed', '3']);
      const codes: number[] = [];
      // Plain requests (agentctl itself would retry a GET that answers 503).
      for (let i = 0; i < 8; i++) codes.push((await fetch(`${emulator.baseUrl}/ping/`, { headers: { 'x-api-key': 'emulator-key' } })).status);
      answers.push(codes);
      await emulator.stop();
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[0]).toContain(503);
    expect(answers[0]).toContain(200);
  });
});
