// The stdio transport of `agentctl mcp`: lines in, messages out, and what it says about a line that
// is not a message.
import { PassThrough } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { LineTransport } from '../../src/mcp/stdio.js';

/** A transport on a fake stdin and stdout, with what it delivered, reported and wrote. */
async function open(options: { full?: boolean } = {}) {
  const input = new PassThrough();
  const written: string[] = [];
  const drains: (() => void)[] = [];
  const output = {
    write: (text: string) => (written.push(text), !options.full),
    once: (_event: 'drain', listener: () => void) => drains.push(listener),
  };
  const transport = new LineTransport(input, output);
  const messages: JSONRPCMessage[] = [];
  const errors: string[] = [];
  transport.onmessage = (message) => messages.push(message);
  transport.onerror = (error) => errors.push(error.message);
  await transport.start();
  /** Writes the chunks to stdin and lets them be read. */
  const feed = async (...chunks: (string | Buffer)[]) => {
    for (const chunk of chunks) input.write(chunk);
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { transport, feed, messages, errors, written, drains, input };
}

const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });

describe('agentctl mcp stdio transport', () => {
  it('reads a message per line, however the lines arrive in chunks (CRLF, blank lines, split characters)', async () => {
    const { feed, messages, errors } = await open();
    const call = JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'tasks_create', arguments: { prompt: 'Prix en € — 比較' } } });
    const bytes = Buffer.from(`${call}\n`);
    const euro = bytes.indexOf(Buffer.from('€'));
    await feed(`${JSON.stringify(ping(1))}\n\n${JSON.stringify(ping(2)).slice(0, 10)}`, `${JSON.stringify(ping(2)).slice(10)}\r\n`);
    await feed(bytes.subarray(0, euro + 1), bytes.subarray(euro + 1)); // a chunk ends inside a character
    expect(messages).toEqual([ping(1), ping(2), JSON.parse(call)]);
    expect(errors).toEqual([]);
  });

  it('answers a line that is not JSON with a parse error, naming where it breaks but not quoting it', async () => {
    const { feed, messages, errors, written } = await open();
    await feed('{"jsonrpc": "2.0", "id": 1, "method": sk-secret}\n', `${JSON.stringify(ping(2))}\n`);
    expect(written).toHaveLength(1);
    const answer = JSON.parse(written[0]!);
    expect(answer).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
    expect(answer).not.toHaveProperty('id'); // none could be read (MCP clients refuse id null)
    expect(answer.error.message).toContain('line 1, column 39');
    expect(answer.error.message).not.toContain('sk-secret');
    expect(errors).toEqual([answer.error.message]);
    expect(messages).toEqual([ping(2)]); // the next line is read as usual
  });

  it('answers JSON that is no JSON-RPC 2.0 message as an invalid request', async () => {
    const { feed, messages, written } = await open();
    await feed('[{"jsonrpc": "2.0", "id": 1, "method": "ping"}]\n{"jsonrpc": "1.0", "id": 1, "method": "ping"}\n{"jsonrpc": "2.0", "id": 1}\n"text"\n');
    expect(written.map((line) => JSON.parse(line).error.code)).toEqual([-32600, -32600, -32600, -32600]);
    expect(JSON.parse(written[0]!).error.message).toContain('batches are not supported');
    expect(messages).toEqual([]);
    await feed('{"jsonrpc": "2.0", "id": 1, "result": {}}\n{"jsonrpc": "2.0", "error": {"code": 1, "message": "m"}}\n');
    expect(messages).toHaveLength(2); // responses pass on to the SDK, which matches them to requests
  });

  it('drops a line longer than 10 MiB, says so once, and reads the next one', async () => {
    const { feed, messages, written } = await open();
    const mib = 'x'.repeat(1024 * 1024);
    for (let i = 0; i < 11; i++) await feed(mib);
    await feed(`tail of the long line\n${JSON.stringify(ping(1))}\n`);
    expect(written).toHaveLength(1);
    expect(JSON.parse(written[0]!).error).toMatchObject({ code: -32600, message: 'Invalid Request: a line of more than 10 MiB was dropped' });
    expect(messages).toEqual([ping(1)]);
  });

  it('reads a last line that has no newline when stdin ends', async () => {
    const { input, messages } = await open();
    input.end(`${JSON.stringify(ping(1))}\n${JSON.stringify(ping(2))}`);
    await new Promise((resolve) => setImmediate(resolve));
    expect(messages).toEqual([ping(1), ping(2)]);
  });

  it('writes one line per message, and waits for a full stdout to drain', async () => {
    const { transport, written, drains } = await open({ full: true });
    let sent = false;
    const sending = transport.send(ping(1) as JSONRPCMessage).then(() => (sent = true));
    expect(written).toEqual([`${JSON.stringify(ping(1))}\n`]);
    await Promise.resolve();
    expect(sent).toBe(false);
    drains.forEach((drain) => drain());
    await sending;
    expect(sent).toBe(true);
  });

  it('stops reading when closed, and says so once', async () => {
    const { transport, feed, messages } = await open();
    let closes = 0;
    transport.onclose = () => closes++;
    await transport.close();
    await transport.close();
    await feed(`${JSON.stringify(ping(1))}\n`);
    expect(messages).toEqual([]);
    expect(closes).toBe(1);
  });
});
