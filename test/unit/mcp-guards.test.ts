// The build's shortcut in the MCP SDK's message guards (scripts/esbuild-plugins.mjs) must answer
// exactly as the SDK does: the guards, bundled with and without it, agree on every kind of message,
// and on messages made of the pieces a request's hand-made check looks at.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import fc from 'fast-check';
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
  { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: { progressToken: 7 }, name: 'tasks_wait' } },
  { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: { progressToken: 1.5 } } },
  { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: 'x' } },
  { jsonrpc: '2.0', id: 1.5, method: 'ping' },
  { jsonrpc: '2.0', id: 2 ** 60, method: 'ping' },
  { jsonrpc: '2.0', id: -3, method: 'ping' },
  { jsonrpc: '2.0', id: '', method: 'ping', params: {} },
  { jsonrpc: '2.0', id: 1, method: 'ping', params: [] },
  { jsonrpc: '2.0', id: 1, method: 'ping', params: null },
  { jsonrpc: '2.0', id: 1, method: 'ping', params: 'x' },
  { jsonrpc: '2.0', id: 1, method: 'ping', extra: true },
  JSON.parse('{"jsonrpc":"2.0","id":1,"method":"ping","__proto__":{"x":1}}'),
  { jsonrpc: '2.0', id: 1, method: 'ping', params: { task: { ttl: 5 } } },
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
    // The plain request is told without zod; the pieces it looks at, in any mix, still answer as the SDK does.
    expect(patched.isJSONRPCRequest.toString()).toContain('Number.isSafeInteger(value.id)');
    const piece = (...values: unknown[]) => fc.option(fc.constantFrom(...values), { nil: undefined });
    const message = fc
      .record({
        jsonrpc: piece('2.0', '1.0', 2),
        id: piece(0, 1, -1, 1.5, 2 ** 53, 'a', '', null, true),
        method: piece('tools/call', 'ping', '', 3),
        params: piece({}, { name: 'x' }, { _meta: {} }, { _meta: { progressToken: 'p' } }, { _meta: { progressToken: 0.5 } }, { _meta: null }, [], null, 'x', 0),
        stray: piece(1, 'x'),
      })
      .map((fields) => Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)));
    fc.assert(
      fc.property(message, (value) => {
        expect(patched.isJSONRPCRequest(value), JSON.stringify(value)).toBe(original.isJSONRPCRequest(value));
      }),
      { numRuns: 2000 },
    );
  });
});
