// The build's shortcuts in the MCP SDK (scripts/esbuild-plugins.mjs), on the SDK bundled as the build
// bundles it (once for the file: bundling takes most of its time). The message guards must answer
// exactly as the SDK does: bundled with and without them, they agree on every kind of message and on
// messages made of the pieces a request's hand-made check looks at. Each request's AbortSignal is
// made only when read (LazyAbortController); cancelling must work as the SDK's own: a handler
// listening is stopped with the client's reason, one that reads its signal only after the
// cancellation finds it aborted with that reason, and a cancelled request gets no answer and sends
// no notification.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import fc from 'fast-check';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import * as original from '@modelcontextprotocol/sdk/types.js';
import { EmptyResultSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
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

interface Sdk extends Guards {
  Server: typeof Server;
}

/** The guards and the SDK's server, bundled once as the build bundles them (the client talking to it is the SDK's own). */
let bundling: Promise<{ sdk: Sdk; text: string }> | undefined;
function bundledSdk(): Promise<{ sdk: Sdk; text: string }> {
  return (bundling ??= (async () => {
    const exports = [
      `export { ${GUARDS.join(', ')} } from '@modelcontextprotocol/sdk/types.js';`,
      "export { Server } from '@modelcontextprotocol/sdk/server/index.js';",
    ].join('\n');
    const bundled = await build({ stdin: { contents: exports, resolveDir: process.cwd() }, bundle: true, format: 'esm', platform: 'node', write: false, plugins: [mcpMessageGuards] });
    const text = bundled.outputFiles[0]!.text;
    const file = join(tempDir(), 'sdk.mjs');
    writeFileSync(file, text);
    return { sdk: (await import(pathToFileURL(file).href)) as Sdk, text };
  })());
}

describe('the MCP SDK message guards of the build', () => {
  it('answer as the SDK does for every kind of message', async () => {
    const { sdk: patched } = await bundledSdk();
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

describe("the build's MCP SDK, cancelling a request", () => {
  it('aborts the signal of a handler that listens, and of one that reads it later, with the reason; nothing is answered', async () => {
    const { sdk, text } = await bundledSdk();
    expect(text).toContain('new LazyAbortController()'); // the build's controller is in

    const server = new sdk.Server({ name: 'test', version: '1' }, { capabilities: {} });
    const seen: Record<string, unknown> = {};
    let release!: () => void;
    const later = new Promise<void>((resolve) => (release = resolve));
    server.fallbackRequestHandler = async (request, extra) => {
      if (request.method === 'test/listen') {
        seen.spread = { ...extra }.signal === extra.signal; // a copy of the context keeps the signal
        seen.listen = await new Promise((resolve) => extra.signal.addEventListener('abort', () => resolve(extra.signal.reason), { once: true }));
      } else {
        await later; // the cancellation has arrived: the signal is read for the first time now
        seen.late = { aborted: extra.signal.aborted, reason: extra.signal.reason };
        await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data: 'after the cancellation' } });
      }
      return {};
    };
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const sent: JSONRPCMessage[] = [];
    const send = serverSide.send.bind(serverSide);
    serverSide.send = (message, options) => (sent.push(message), send(message, options));
    const client = new Client({ name: 'test', version: '1' });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    const initialized = sent.length;

    const cancel = (method: string) => {
      const controller = new AbortController();
      const answer = client.request({ method } as never, EmptyResultSchema, { signal: controller.signal }).catch((error: Error) => error.message);
      return { answer, stop: () => controller.abort('stopped by the test') };
    };
    const listening = cancel('test/listen');
    const late = cancel('test/late');
    await client.ping(); // both requests are under way at the server
    listening.stop();
    late.stop();
    await client.ping(); // the cancellations have arrived
    release();
    await expect(listening.answer).resolves.toContain('stopped by the test');
    await expect(late.answer).resolves.toContain('stopped by the test');
    await client.ping(); // the handlers have ended
    expect(seen.listen).toBe('stopped by the test');
    expect(seen.spread).toBe(true);
    expect(seen.late).toEqual({ aborted: true, reason: 'stopped by the test' });
    // Only the pings were answered: no answer to either cancelled request, no notification after it.
    expect(sent.slice(initialized).map((message) => ('method' in message ? message.method : 'answer'))).toEqual(['answer', 'answer', 'answer']);
    await client.close();
  });
});
