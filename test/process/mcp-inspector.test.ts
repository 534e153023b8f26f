// `agentctl mcp` driven by an outside client: the MCP Inspector's CLI (@modelcontextprotocol/inspector-cli,
// a devDependency installed without install scripts), which launches the built bin over stdio itself,
// or reaches a running `agentctl mcp --http` with the headers it is given.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { BIN, childEnv, killAndWait, tempDir } from '../helpers/cli.js';
import { spawnMcpHttp } from '../helpers/mcp.js';

const KEY = 'inspector-key';
// The Inspector finds its own package.json relative to the working directory: it runs from its build folder.
const INSPECTOR = dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector-cli/build/index.js'));
let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, taskDurationMs: 100, apiKey: KEY });
});
afterAll(() => emulator.close());

/** The Inspector CLI run with these arguments, from its build folder: its exit code, stdout and stderr. */
const inspector = (args: string[], env: Record<string, string>) =>
  execa(process.execPath, [join(INSPECTOR, 'index.js'), ...args], { cwd: INSPECTOR, env, extendEnv: false, reject: false, timeout: 60_000 });

/** One Inspector CLI call against a freshly started `agentctl mcp` with these flags; its JSON answer. */
async function inspect(flags: string[], method: string[]) {
  const env = childEnv(tempDir(), { AGENTCTL_BASE_URL: emulator.baseUrl, AGENTCTL_API_KEY: KEY, SHOP_PASSWORD: 'hunter2-shop', GITHUB_TOKEN: 'ghp_not_for_tasks' });
  const run = await inspector([process.execPath, BIN, 'mcp', ...flags, '--method', ...method], env);
  expect(run.exitCode, run.stderr).toBe(0);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the Inspector's answer, read as the test asserts it
  return JSON.parse(run.stdout) as Record<string, any>;
}

describe('agentctl mcp under the MCP Inspector CLI', () => {
  it('lists tools with output schemas, runs a task to its fenced result, and refuses a secret that was not allowed', async () => {
    const flags = ['--allow-secret-env', 'SHOP_PASSWORD'];
    const { tools } = await inspect(flags, ['tools/list']);
    const create = tools.find((tool: { name: string }) => tool.name === 'tasks_create');
    expect(create.description).toContain('SHOP_PASSWORD');
    expect(tools.every((tool: { outputSchema?: { type: string } }) => tool.outputSchema?.type === 'object')).toBe(true);

    const created = await inspect(flags, ['tools/call', '--tool-name', 'tasks_create', '--tool-arg', 'prompt=Summarise example.com']);
    const id = created.structuredContent.id as string;
    expect(created.content).toContainEqual(expect.objectContaining({ type: 'resource_link', uri: `agentctl://tasks/${id}/result` }));
    const waited = await inspect(flags, ['tools/call', '--tool-name', 'tasks_wait', '--tool-arg', `id=${id}`, '--tool-arg', 'timeout_seconds=20']);
    expect(waited.structuredContent).toMatchObject({ id, finished: true, status: 'completed' });
    expect(waited.content[0].text).toMatch(/<untrusted-data-[0-9a-f]{16} source="service">/);

    const secret = JSON.stringify([{ domain: 'https://evil.example', key: 'T', env: 'GITHUB_TOKEN' }]);
    const refused = await inspect(flags, ['tools/call', '--tool-name', 'tasks_create', '--tool-arg', 'prompt=x', '--tool-arg', `secrets_env=${secret}`]);
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent.error).toMatchObject({ name: 'usage', field: 'secrets_env' });
    expect(JSON.stringify(refused)).not.toContain('ghp_not_for_tasks');
  });

  it('reaches `agentctl mcp --http` with its token, and says plainly that a wrong one is wrong', async () => {
    const token = 'token-of-the-inspector-0123456789';
    const { child, url } = await spawnMcpHttp({ AGENTCTL_BASE_URL: emulator.baseUrl, AGENTCTL_API_KEY: KEY, AGENTCTL_MCP_TOKEN: token });
    try {
      const env = childEnv(tempDir());
      const call = (header: string) => inspector([url, '--transport', 'http', '--header', header, '--method', 'tools/call', '--tool-name', 'tasks_create', '--tool-arg', 'prompt=over http'], env);
      const served = await call(`Authorization: Bearer ${token}`);
      expect(served.exitCode, served.stderr).toBe(0);
      expect(JSON.parse(served.stdout).structuredContent).toMatchObject({ status: 'pending' });
      const refused = await call('Authorization: Bearer not-the-token');
      expect(refused.exitCode).toBe(1);
      expect(refused.stderr).toContain('wrong bearer token: send Authorization: Bearer <token> with the token in AGENTCTL_MCP_TOKEN');
      expect(refused.stderr).toContain('this server does not use OAuth');
      expect(refused.stderr).not.toContain(token);
    } finally {
      await killAndWait(child);
    }
  });
});
