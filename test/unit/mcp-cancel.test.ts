// The build makes the MCP SDK's per-request AbortSignal only when it is read (scripts/esbuild-plugins.mjs,
// LazyAbortController). Cancellation must work as the SDK's own: a handler listening is stopped with the
// client's reason, one that reads its signal only after the cancellation finds it aborted with that
// reason, and a cancelled request gets no answer and sends no notification.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a build script, plain JavaScript
import { mcpMessageGuards } from '../../scripts/esbuild-plugins.mjs';
import { tempDir } from '../helpers/cli.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { EmptyResultSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

interface Sdk {
  Server: typeof Server;
  Client: typeof Client;
  InMemoryTransport: typeof InMemoryTransport;
}

/** The SDK's server, client and in-memory transport, bundled as the build bundles them. */
async function bundledSdk(): Promise<{ sdk: Sdk; text: string }> {
  const exports = ['server/index.js', 'client/index.js', 'inMemory.js'].map((path) => `export * from '@modelcontextprotocol/sdk/${path}';`).join('\n');
  const bundled = await build({ stdin: { contents: exports, resolveDir: process.cwd() }, bundle: true, format: 'esm', platform: 'node', write: false, plugins: [mcpMessageGuards] });
  const text = bundled.outputFiles[0]!.text;
  const file = join(tempDir(), 'sdk.mjs');
  writeFileSync(file, text);
  return { sdk: (await import(pathToFileURL(file).href)) as Sdk, text };
}

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
    const [clientSide, serverSide] = sdk.InMemoryTransport.createLinkedPair();
    const sent: JSONRPCMessage[] = [];
    const send = serverSide.send.bind(serverSide);
    serverSide.send = (message, options) => (sent.push(message), send(message, options));
    const client = new sdk.Client({ name: 'test', version: '1' });
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
