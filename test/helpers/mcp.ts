// A connected SDK Client for an `agentctl mcp` server built in the test process (in-memory transport).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ApiClient } from '../../src/api/client.js';
import { Redactor } from '../../src/api/redact.js';
import { systemClock, type Clock } from '../../src/contract/clock.js';
import { RetryNotices, createServer, type ServerDeps, type ServerOptions } from '../../src/mcp/server.js';

export interface ConnectOptions {
  baseUrl: string;
  apiKey: string;
  options?: Partial<ServerOptions>;
  env?: Record<string, string>;
  clock?: Clock;
  /** Read the tool list first, so the SDK's client checks every answer against its outputSchema. */
  listTools?: boolean;
  /** How often the client retries a request (0 without). */
  retries?: number;
}

/** What a server needs, against `baseUrl` with `apiKey`. */
export function mcpDeps(baseUrl: string, apiKey: string, env: Record<string, string> = {}, clock: Clock = systemClock, retries = 0): ServerDeps {
  const redactor = new Redactor();
  redactor.add(apiKey);
  const notices = new RetryNotices();
  const retry = { retries, baseDelayMs: 1, maxDelayMs: 1, maxRetryAfterMs: 1000 };
  const api = new ApiClient({ baseUrl, apiKey, timeoutMs: 5000, userAgent: 'test', redactor, retry, onRetry: notices.notify });
  return { client: async () => api, redactor, clock, env, retries: notices };
}

export async function connectMcp({ baseUrl, apiKey, options = {}, env = {}, clock = systemClock, listTools = true, retries = 0 }: ConnectOptions) {
  const server = createServer(mcpDeps(baseUrl, apiKey, env, clock, retries), { readOnly: false, maxWaitSeconds: 30, ...options });
  const client = new Client({ name: 'test', version: '1' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  if (listTools) await client.listTools();
  const call = async (name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { client, server, call, close: () => client.close() };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read as the test asserts them
export const data = (result: CallToolResult) => result.structuredContent as Record<string, any>;
export const text = (result: CallToolResult) => result.content.map((part) => ('text' in part ? part.text : '')).join('\n');
