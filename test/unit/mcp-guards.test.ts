// The build's shortcut in the MCP SDK's message guards (scripts/esbuild-plugins.mjs) must answer
// exactly as the SDK does: the guards, bundled with and without it, agree on every kind of message.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import * as original from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a build script, plain JavaScript
import { mcpMessageGuards } from '../../scripts/esbuild-plugins.mjs';
import { tempDir } from '../helpers/cli.js';

const GUARDS = ['isJSONRPCRequest', 'isJSONRPCNotification', 'isJSONRPCResultResponse', 'isJSONRPCErrorResponse'] as const;
type Guards = Record<(typeof GUARDS)[number], (value: unknown) => boolean>;

const MESSAGES: unknown[] = [
  { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'tasks_get', arguments: { id: 'x' } } },
  { jsonrpc: '2.0', id: 'a', method: 'ping' },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
  { jsonrpc: '2.0', id: 1, result: {} },
  { jsonrpc: '2.0', id: 1, result: { content: [] }, method: 'ping' },
  { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } },
  { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } },
  { jsonrpc: '2.0', id: 1, error: { code: 'x', message: 1 } },
  { jsonrpc: '2.0', id: 1, method: 7 },
  { jsonrpc: '1.0', id: 1, method: 'ping' },
  { jsonrpc: '2.0', id: null, method: 'ping' },
  { jsonrpc: '2.0', id: 1, result: undefined },
  { id: 1, method: 'ping' },
  [],
  null,
  'ping',
  42,
];

describe('the MCP SDK message guards of the build', () => {
  it('answer as the SDK does for every kind of message', async () => {
    const file = join(tempDir(), 'guards.mjs');
    const bundled = await build({
      stdin: { contents: `export { ${GUARDS.join(', ')} } from '@modelcontextprotocol/sdk/types.js';`, resolveDir: process.cwd() },
      bundle: true,
      format: 'esm',
      platform: 'node',
      write: false,
      plugins: [mcpMessageGuards],
    });
    writeFileSync(file, bundled.outputFiles[0]!.text);
    const patched = (await import(pathToFileURL(file).href)) as Guards;
    for (const guard of GUARDS) {
      expect(patched[guard].toString(), guard).toContain('typeof value'); // the shortcut is in
      for (const message of MESSAGES) expect(patched[guard](message), `${guard}(${JSON.stringify(message)})`).toBe(original[guard](message));
    }
  });
});
