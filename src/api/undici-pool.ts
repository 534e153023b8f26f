// undici's connection pool, in a module of its own: loaded only by the first request of a
// PooledTransport, so no other command pays for it. Its own file, not undici's index: the index
// loads all of undici (fetch, WebSocket, caches, mocks), 70 ms before the first request against 20 ms
// for the pool alone (measured on this project's machine). The build fails if undici moves the file.
import { setFlagsFromString } from 'node:v8';
import type { Pool as PoolType } from 'undici';
import Pool from 'undici/lib/dispatcher/pool.js';
import { IDLE_SOCKET_MS } from './transport.js';

/**
 * undici parses answers with llhttp compiled to WebAssembly, on the first connection. V8 then
 * optimises that module in the background, ~100 ms of CPU that the process waits for when it exits
 * (a batch of one line took 200 ms instead of 80). Its baseline code keeps a batch's throughput (the
 * same at 100,000 creates), so the optimising tier is turned off first. The flag holds for the whole
 * process: jq's WebAssembly (--jq) runs on baseline code there too, as correctly.
 */
setFlagsFromString('--liftoff-only');

export function openPool(origin: string, connections: number): PoolType {
  // The exchange's own timer bounds the whole of it: undici's per-phase timers are off.
  return new Pool(origin, { connections, keepAliveTimeout: IDLE_SOCKET_MS, headersTimeout: 0, bodyTimeout: 0 });
}
