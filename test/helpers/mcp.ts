// A connected SDK Client for an `agentctl mcp` server built in the test process (in-memory transport),
// and `agentctl mcp --http` started as a process.
import { spawn, type ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ElicitRequestSchema, isInitializeRequest, type CallToolResult, type ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';
import { ApiClient } from '../../src/api/client.js';
import { Redactor } from '../../src/api/redact.js';
import { systemClock, type Clock } from '../../src/contract/clock.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { createServer, type ServerDeps, type ServerOptions } from '../../src/mcp/server.js';
import { afterAll, beforeAll } from 'vitest';
import { BIN, childEnv, tempDir } from './cli.js';

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
  /** The person's answer to each confirmation the server asks for (elicitation); without, the client offers none. */
  elicit?: (message: string) => 'accept' | 'decline' | 'cancel';
  /** The revision the client asks for in its initialize: the SDK's Client always asks for the latest, an older client for its own. */
  protocolVersion?: string;
}

/** What a server needs, against `baseUrl` with `apiKey`. */
export function mcpDeps(baseUrl: string, apiKey: string, env: Record<string, string> = {}, clock: Clock = systemClock, retries = 0): ServerDeps {
  const redactor = new Redactor();
  redactor.add(apiKey);
  const retry = { retries, baseDelayMs: 1, maxDelayMs: 1, maxRetryAfterMs: 1000 };
  const api = new ApiClient({ baseUrl, apiKey, timeoutMs: 5000, userAgent: 'test', redactor, retry });
  return { client: async () => api, redactor, clock, env };
}

/**
 * The SDK's own validator (Ajv), each outputSchema compiled once per test worker rather than once
 * per connection: a client compiles every tool's schema when it lists the tools, ~100 ms of CPU,
 * and the suite connects dozens of clients to servers whose tools are the same.
 */
class CompiledOnce implements jsonSchemaValidator {
  private readonly ajv = new AjvJsonSchemaValidator();
  private readonly compiled = new Map<string, JsonSchemaValidator<unknown>>();

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const key = JSON.stringify(schema);
    let validator = this.compiled.get(key);
    if (!validator) this.compiled.set(key, (validator = this.ajv.getValidator(schema)));
    return validator as JsonSchemaValidator<T>;
  }
}
const validator = new CompiledOnce();

/** An SDK Client that checks answers against the tools' outputSchema, as assistants' clients do. */
export const testClient = (name = 'test', capabilities: ClientCapabilities = {}) => new Client({ name, version: '1' }, { jsonSchemaValidator: validator, capabilities });

export async function connectMcp({ baseUrl, apiKey, options = {}, env = {}, clock = systemClock, listTools = true, retries = 0, elicit, protocolVersion }: ConnectOptions) {
  const server = createServer(mcpDeps(baseUrl, apiKey, env, clock, retries), { readOnly: false, maxWaitSeconds: 30, ...options });
  const client = testClient('test', elicit ? { elicitation: {} } : {});
  if (elicit) client.setRequestHandler(ElicitRequestSchema, (request) => ({ action: elicit(request.params.message) }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  if (protocolVersion) askFor(clientSide, protocolVersion);
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  if (listTools) await client.listTools();
  const call = async (name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { client, server, call, close: () => client.close() };
}

/** Makes the initialize a client sends through `transport` ask for `protocolVersion` (the server answers with it, the client takes it). */
function askFor(transport: Transport, protocolVersion: string): void {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => send(isInitializeRequest(message) ? { ...message, params: { ...message.params, protocolVersion } } : message, options);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read as the test asserts them
export const data = (result: CallToolResult) => result.structuredContent as Record<string, any>;
export const text = (result: CallToolResult) => result.content.map((part) => ('text' in part ? part.text : '')).join('\n');
/** The service's data inside the one fence of `shown` (src/mcp/fence.ts: markers named afresh for each fence). */
export function fenced(shown: string): string {
  const data = /<(untrusted-data-[0-9a-f]{16}) source="service">\n([\s\S]*?)\n<\/\1>/.exec(shown)?.[2];
  if (data === undefined) throw new Error(`no fence in: ${shown}`);
  return data;
}

/**
 * The text as a lenient reader sees it: compatibility forms folded, invisible characters gone, dashes
 * as '-' (the fence tests' own oracle, written apart from src/mcp/fence.ts on purpose).
 */
export const folded = (shown: string) =>
  shown
    .normalize('NFKD')
    .replace(/[\p{Cf}\p{M}]/gu, '')
    .replace(/[\p{Pd}\u2212]/gu, '-')
    .toLowerCase();

/**
 * An emulator taking `apiKey` for this file (its tasks end after 100 ms), and `connect` to it: an
 * in-process MCP server and the SDK's Client, with the options a test gives.
 */
export function mcpOnEmulator(apiKey: string) {
  let emulator: RunningEmulator | undefined;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, taskDurationMs: 100, apiKey });
  });
  afterAll(() => emulator?.close());
  const running = () => {
    if (!emulator) throw new Error('the emulator starts in beforeAll');
    return emulator;
  };
  const connect = (rest: Omit<ConnectOptions, 'baseUrl' | 'apiKey'> & { baseUrl?: string } = {}) => connectMcp({ baseUrl: running().baseUrl, apiKey, ...rest });
  return { get emulator() { return running(); }, connect };
}

/**
 * `agentctl mcp --http 0` started from the built bin with `env` (and `nodeFlags` for node itself);
 * the process and its URL, the first line on stdout. The test ends it (killAndWait).
 */
export async function spawnMcpHttp(env: Record<string, string>, nodeFlags: string[] = []): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [...nodeFlags, BIN, 'mcp', '--http', '0'], { env: childEnv(tempDir(), env), stdio: ['ignore', 'pipe', 'pipe'] });
  child.stderr!.resume();
  let stdout = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += String(chunk);
      if (stdout.includes('\n')) resolve(stdout.split('\n')[0]!);
    });
    child.once('exit', (code) => reject(new Error(`agentctl mcp --http ended (${code}) before it listened`)));
  });
  return { child, url };
}
