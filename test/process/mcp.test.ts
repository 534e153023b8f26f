// `agentctl mcp` as an assistant runs it: the built bin over stdio, and the SDK loaded by it alone.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { BIN, childEnv, spawnAgentctl, tempDir } from '../helpers/cli.js';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, taskDurationMs: 100 });
});
afterAll(() => emulator.close());

/** The built files that hold the MCP SDK (the protocol's message names are in its schemas). */
function sdkFiles(): string[] {
  const dist = join(BIN, '..', '..', 'dist');
  const files = ['cli', 'chunks'].flatMap((dir) => readdirSync(join(dist, dir)).map((file) => join(dist, dir, file)));
  return files.filter((file) => file.endsWith('.js') && readFileSync(file, 'utf8').includes('notifications/cancelled'));
}

describe('agentctl mcp over stdio', () => {
  it('serves tool calls to an MCP client that launched it, and ends when the client goes', async () => {
    const stderr: string[] = [];
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp'],
      env: childEnv(tempDir(), { AGENTCTL_BASE_URL: emulator.baseUrl, AGENTCTL_API_KEY: 'emulator-key' }),
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => stderr.push(String(chunk)));
    const client = new Client({ name: 'process-test', version: '1' });
    await client.connect(transport);
    expect(client.getServerVersion()?.name).toBe('agentctl');
    const created = (await client.callTool({ name: 'tasks_create', arguments: { prompt: 'over stdio' } })) as CallToolResult;
    const id = (created.structuredContent as { id: string }).id;
    const waited = (await client.callTool({ name: 'tasks_wait', arguments: { id, timeout_seconds: 10 } })) as CallToolResult;
    expect(waited.structuredContent).toMatchObject({ id, status: 'completed', finished: true });
    const pid = transport.pid!;
    await client.close();
    expect(() => process.kill(pid, 0)).toThrow(); // the server ended with its stdin
    expect(stderr.join('')).not.toContain('emulator-key');
  });

  it('loads the SDK only for `agentctl mcp`', async () => {
    const files = sdkFiles();
    expect(files.length).toBeGreaterThan(0);
    const env = { NODE_DEBUG: 'module', AGENTCTL_BASE_URL: emulator.baseUrl, AGENTCTL_API_KEY: 'emulator-key' };
    const loaded = (stderr: string) => files.filter((file) => stderr.includes(file.split('/').pop()!));
    for (const args of [['tasks', 'list', '--json'], ['schedule-preview', '@daily'], ['--version'], ['mcp', '--help']]) {
      const run = await spawnAgentctl(args, { env });
      expect(run.exitCode, args.join(' ')).toBe(0);
      expect(loaded(run.stderr), args.join(' ')).toEqual([]);
    }
    // The same check sees the SDK load when the server starts (stdin empty: it ends at once).
    const served = await spawnAgentctl(['mcp'], { env, input: '' });
    expect(served.exitCode).toBe(0);
    expect(loaded(served.stderr).length).toBeGreaterThan(0);
  });
});
