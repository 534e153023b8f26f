// `agentctl mcp --http` under a flood, as a process: what it holds is its resident memory, read from
// /proc, with a heap small enough that a server kept per request would end it (it did: ~1,000 requests
// without a session each left a whole MCP server behind, ~33 KB of heap apiece).
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { killAndWait } from '../helpers/cli.js';
import { send } from '../helpers/http.js';
import { spawnMcpHttp } from '../helpers/mcp.js';

const TOKEN = 'token-of-the-flood-test-0123456789';
/** The heap the server is given (MB): a server leaked per request fills it within ~1,000 requests. */
const HEAP_MB = 32;
/** The bound docs/mcp.md promises for this flood (MiB of RSS); the server settles at ~85 MiB. */
const RSS_BOUND_MIB = 120;
const SESSIONLESS = 2000;
const REFUSED = 200;
const ABANDONED = 300;
const BURST = 25;

const children: ChildProcess[] = [];
afterAll(() => Promise.all(children.map(killAndWait)));

const rssMib = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const message = (method: string, params?: unknown) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
const initialize = message('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'flood', version: '1' } });

/** `count` POSTs of `body` in bursts of BURST at a time; the statuses seen. */
async function flood(url: string, body: string, count: number, accept = headers.accept): Promise<Set<number>> {
  const statuses = new Set<number>();
  for (let sent = 0; sent < count; sent += BURST) {
    const answers = await Promise.all(Array.from({ length: Math.min(BURST, count - sent) }, () => send(url, { method: 'POST', headers: { ...headers, accept }, body })));
    for (const answer of answers) statuses.add(answer.status);
  }
  return statuses;
}

describe.runIf(process.platform === 'linux')('agentctl mcp --http under a flood', () => {
  it('keeps no server for requests without a session, initializes refused, nor sessions evicted or abandoned', async () => {
    const env = { AGENTCTL_MCP_TOKEN: TOKEN, AGENTCTL_BASE_URL: 'http://127.0.0.1:9/api/v1', AGENTCTL_API_KEY: 'flood-key' };
    const { child, url } = await spawnMcpHttp(env, [`--max-old-space-size=${HEAP_MB}`]);
    children.push(child);
    // Requests a client never initialized: each answered 400, without a server made for it.
    expect(await flood(url, message('tools/list'), SESSIONLESS)).toEqual(new Set([400]));
    // Initializes the transport refuses (an Accept without text/event-stream): no session, and their servers closed.
    expect(await flood(url, initialize, REFUSED, 'application/json')).toEqual(new Set([406]));
    // Sessions opened and never used again: past the cap of 64, each new one closes the one idle longest.
    expect(await flood(url, initialize, ABANDONED)).toEqual(new Set([200]));
    expect(child.exitCode).toBeNull();
    expect(rssMib(child.pid!)).toBeLessThan(RSS_BOUND_MIB);
  });
});
