import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { apiRequest, eventually } from '../helpers/api.js';
import { BIN, childEnv, tempDir } from '../helpers/cli.js';

// apply killed outright (SIGKILL: no handler runs) while a create is in flight, then run again:
// every agent exists once. The point is the process: its lock file left behind and its journal.
let emulator: RunningEmulator;
beforeAll(async () => {
  // Slow answers, so that the kill lands while a create is sent and not yet recorded.
  emulator = await startEmulator({ port: 0, latencyMs: 40 });
});
afterAll(() => emulator.close());

function apply(dir: string) {
  const child = spawn(process.execPath, [BIN, 'apply', '--dir', dir, '--yes'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: childEnv(tempDir(), { AGENTCTL_BASE_URL: emulator.baseUrl, AGENTCTL_API_KEY: 'emulator-key' }),
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exit, stderr: () => stderr };
}

describe('apply, killed with SIGKILL mid-create, then run again', () => {
  it('leaves exactly 50 agents, each created once', async () => {
    const dir = tempDir('agentctl-iac-kill-');
    for (let index = 1; index <= 50; index++) writeFileSync(join(dir, `agent-${index}.md`), `---\nname: kill ${index}\n---\nWatch fare ${index}.\n`);
    const lock = join(dir, 'agentctl.lock.json');
    // Seeded: the kill comes once this many agents are recorded and the next one's create is pending.
    const after = 7 + (46 % 29);
    const first = apply(dir);
    await eventually(() => {
      if (!existsSync(lock)) return undefined;
      const text = readFileSync(lock, 'utf8');
      return (text.match(/"id":/g)?.length ?? 0) >= after && text.includes('"pending": true') ? true : undefined;
    }, 20_000, 'a create pending after enough recorded ones');
    first.child.kill('SIGKILL');
    await first.exit;
    expect(existsSync(join(dir, '.agentctl-apply.lock'))).toBe(true);

    const second = apply(dir);
    expect(await second.exit, second.stderr()).toBe(0);
    const agents = (await apiRequest<{ results: Array<{ name: string }> }>(emulator.baseUrl, 'GET', '/agents/?page_size=100')).results;
    expect(agents).toHaveLength(50);
    expect(new Set(agents.map((agent) => agent.name)).size).toBe(50);
    // No create was sent twice: the service would have refused the second (its name is taken). The
    // create the kill cut off is logged with status 0 (its client was gone before the answer).
    expect(emulator.requests.filter((request) => request.method === 'POST' && request.status >= 400)).toEqual([]);
    expect(readFileSync(lock, 'utf8')).not.toContain('pending');
  });
});
