import { createRequire } from 'node:module';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PooledTransport } from '../../src/api/pooled-transport.js';

const net = createRequire(import.meta.url)('node:net') as typeof import('node:net');

describe('PooledTransport: an unreachable host', () => {
  let server: Server | undefined;
  afterEach(async () => {
    vi.restoreAllMocks();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('after the request went out reads as a broken connection; before the connection, as never sent', async () => {
    const sockets: Socket[] = [];
    const real = net.connect.bind(net);
    vi.spyOn(net, 'connect').mockImplementation(((...args: Parameters<typeof net.connect>) => {
      const socket = real(...args);
      sockets.push(socket);
      return socket;
    }) as typeof net.connect);
    server = createServer((req) => {
      req.resume();
      req.on('end', () => sockets.at(-1)?.destroy(Object.assign(new Error('EHOSTUNREACH'), { code: 'EHOSTUNREACH' })));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/tasks`);
    const transport = new PooledTransport(1);
    const after = await transport.send(url, { method: 'POST', headers: {}, body: '{}', timeoutMs: 5000 }).catch((e: unknown) => e);
    expect(sockets.length).toBe(1);
    expect(after).toMatchObject({ code: 'ECONNRESET', message: 'the connection broke after it was made (EHOSTUNREACH)' });
    transport.close();

    vi.restoreAllMocks();
    vi.spyOn(net, 'connect').mockImplementation(((...args: Parameters<typeof net.connect>) => {
      const socket = real(...args);
      socket.destroy(Object.assign(new Error('EHOSTUNREACH'), { code: 'EHOSTUNREACH' }));
      return socket;
    }) as typeof net.connect);
    const pool2 = new PooledTransport(1);
    const before = await pool2.send(url, { method: 'POST', headers: {}, body: '{}', timeoutMs: 5000 }).catch((e: unknown) => e);
    expect(before).toMatchObject({ code: 'EHOSTUNREACH' });
    pool2.close();
  });
});
