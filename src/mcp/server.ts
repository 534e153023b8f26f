// The MCP server: lists and calls the tools of tools.ts and reads the resources of resources.ts, on
// the SDK's low-level Server so that arguments are checked by our own schemas and every failure is a
// tool error in our terms (what the exit code would say), never a protocol error or a stack trace.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  ListResourceTemplatesRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolRequest,
  type CallToolResult,
  type ServerNotification,
  type Tool as ToolDefinition,
} from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import type { ApiClient } from '../api/client.js';
import type { Redactor } from '../api/redact.js';
import type { Clock } from '../contract/clock.js';
import { UsageError } from '../errors.js';
import { VERSION } from '../cli/version.js';
import { sanitizeText } from '../output/sanitize.js';
import { describeFailure } from './failure.js';
import { RESOURCES, RESOURCE_TEMPLATES, readResource } from './resources.js';
import { InputError, type Tool, type ToolCall } from './tool.js';
import { TOOLS } from './tools.js';

/** The largest structuredContent returned, as JSON characters; more says how to read less. */
export const MAX_RESULT_CHARS = 100_000;
/** The JSON shown after the summary in the text rendering (clients that show only text). */
export const MAX_TEXT_JSON_CHARS = 4_000;

export interface ServerOptions {
  /** Only tools that change nothing. */
  readOnly: boolean;
  /** Only these tools (after --read-only). */
  allow?: string[];
  /** The longest wait a call may ask for, seconds. */
  maxWaitSeconds: number;
}

export interface ServerDeps {
  client: () => Promise<ApiClient>;
  redactor: Redactor;
  clock: Clock;
  env: Record<string, string | undefined>;
  /** Where the calls under way are counted (stdio: its end waits for them). */
  calls?: CallsUnderWay;
}

/**
 * The tool calls and resource reads a server is answering, by their cancellation signals: when
 * stdin ends, the calls already read are answered before the server stops, except those the client
 * cancelled (nothing is sent for them; after stdin's end no cancellation can come any more).
 */
export class CallsUnderWay {
  private readonly signals = new Set<AbortSignal>();
  private ended?: () => void;

  run<T>(signal: AbortSignal, call: () => Promise<T>): Promise<T> {
    this.signals.add(signal);
    const end = () => {
      this.signals.delete(signal);
      this.ended?.();
    };
    const running = call();
    running.then(end, end);
    return running;
  }

  /** Resolves once every call under way has ended (and its answer is sent) or been cancelled. */
  async settled(): Promise<void> {
    while ([...this.signals].some((signal) => !signal.aborted)) await new Promise<void>((resolve) => (this.ended = resolve));
    // The SDK sends a call's answer a few promise turns after the call ends.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The tools a server with these options offers, or a usage error naming an unknown one. */
export function selectTools(options: Pick<ServerOptions, 'readOnly' | 'allow'>): Tool[] {
  const known = new Set(TOOLS.map((tool) => tool.name));
  const unknown = (options.allow ?? []).filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new UsageError(`--tools: no tool named ${unknown.join(', ')}`, `the tools are: ${[...known].join(', ')}`);
  }
  return TOOLS.filter((tool) => (!options.readOnly || tool.kind === 'read') && (options.allow === undefined || options.allow.includes(tool.name)));
}

/** How a client sees a tool: its JSON Schema is the zod schema that checks its arguments. */
function definition(tool: Tool, maxWaitSeconds: number): ToolDefinition {
  const readOnly = tool.kind === 'read';
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description.replaceAll('MAX_WAIT', String(maxWaitSeconds)),
    inputSchema: z.toJSONSchema(tool.input, { io: 'input' }) as ToolDefinition['inputSchema'],
    annotations: {
      title: tool.title,
      readOnlyHint: readOnly,
      destructiveHint: tool.kind === 'destructive',
      idempotentHint: readOnly || Boolean(tool.idempotent),
      openWorldHint: tool.openWorld ?? true,
    },
  };
}

/** What a tool call needs of the SDK's request context. */
interface CallExtra {
  signal: AbortSignal;
  sendNotification: (notification: ServerNotification) => Promise<void>;
}

export function createServer(deps: ServerDeps, options: ServerOptions): Server {
  const tools = new Map(selectTools(options).map((tool) => [tool.name, tool]));
  const definitions = [...tools.values()].map((tool) => definition(tool, options.maxWaitSeconds));
  const server = new Server(
    { name: 'agentctl', title: 'agentctl: browser tasks and persistent agents', version: VERSION },
    {
      capabilities: { tools: {}, resources: {} },
      instructions:
        'Run browser tasks (tasks_create, then tasks_wait or tasks_get / tasks_result) and manage persistent agents. ' +
        'Errors say what went wrong in agentctl\'s exit-code terms (resource agentctl://exit-codes); the schedule grammar is agentctl://schedule/grammar.',
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: definitions }));
  // tools/call goes to the fallback handler rather than setRequestHandler: the SDK's wrapper for
  // tools/call parses each request twice more and each result once more with zod (~20 us of a ~60 us
  // call, docs/performance.md), while the tool's own schema checks the arguments and the result is
  // built here. Methods nobody handles get -32601, as the SDK answers them.
  // Not async: the Protocol calls it inside a then(), where a throw is a rejection too.
  server.fallbackRequestHandler = (request, extra) => {
    if (request.method !== 'tools/call') throw rpcError(ErrorCode.MethodNotFound, 'Method not found');
    const params = request.params as CallToolRequest['params'] | undefined;
    if (typeof params?.name !== 'string') throw rpcError(ErrorCode.InvalidParams, 'tools/call needs params.name: the tool to call');
    return deps.calls ? deps.calls.run(extra.signal, () => callTool(params, extra)) : callTool(params, extra);
  };

  async function callTool(params: CallToolRequest['params'], extra: CallExtra): Promise<CallToolResult> {
    const tool = tools.get(params.name);
    if (!tool) return failure(new UsageError(`no tool named ${params.name}`, `the tools are: ${[...tools.keys()].join(', ')}`), deps.redactor);
    const token = params._meta?.progressToken;
    const call: ToolCall = {
      client: deps.client,
      // The server's own stop (Ctrl-C, SIGTERM) ends the process: a call needs only the client's cancellation.
      signal: extra.signal,
      progress: async (progress, total, message) => {
        if (token === undefined) return;
        await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress, total, message } });
      },
      clock: deps.clock,
      env: deps.env,
      redactor: deps.redactor,
      maxWaitSeconds: options.maxWaitSeconds,
    };
    try {
      const parsed = tool.input.safeParse(params.arguments ?? {});
      if (!parsed.success) throw inputError(parsed.error);
      const answer = await tool.run(parsed.data, call);
      return success(tool, answer.data, answer.summary, deps.redactor);
    } catch (error) {
      return failure(error, deps.redactor);
    }
  }

  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: RESOURCES }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: RESOURCE_TEMPLATES }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    try {
      const read = await (deps.calls ? deps.calls.run(extra.signal, () => readResource(request.params.uri, deps.client, extra.signal)) : readResource(request.params.uri, deps.client, extra.signal));
      return { contents: read.contents.map((content) => ('text' in content ? { ...content, text: deps.redactor.redact(content.text) } : content)) };
    } catch (error) {
      if (error instanceof McpError) throw error;
      const { message, error: kind } = describeFailure(error, deps.redactor);
      throw new McpError(kind.name === 'not_found' ? -32002 : ErrorCode.InvalidParams, message, kind);
    }
  });
  return server;
}

/** A JSON-RPC error as the SDK answers it ({code, message}); McpError would prefix "MCP error CODE:" to the message. */
function rpcError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/** The first problem zod found, named by its argument, as our usage error. */
function inputError(error: z.ZodError): InputError {
  const issue = error.issues[0];
  if (!issue) return new InputError('(arguments)', 'invalid arguments');
  const field = issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : issue.path.join('.');
  const what = issue.code === 'unrecognized_keys' ? 'unknown argument' : issue.message;
  return new InputError(field || '(arguments)', `${field ? `${field}: ` : ''}${what}`, 'see the tool\'s input schema');
}

/** A tool's answer: the data as structuredContent, the summary (and the data, shortened) as text. */
function success(tool: Tool, data: Record<string, unknown>, summary: string, redactor: Redactor): CallToolResult {
  let json = JSON.stringify(data);
  const redacted = redactor.redact(json);
  // A secret or the key echoed by the service is never passed on.
  let structured = redacted === json ? data : (JSON.parse(redacted) as Record<string, unknown>);
  json = redacted;
  let text = sanitizeText(redactor.redact(summary));
  if (json.length > MAX_RESULT_CHARS) {
    const hint = tool.pageHint ?? 'ask for less at once';
    structured = { truncated: true, size_chars: json.length, hint };
    text += `\n\nThe answer is ${json.length} characters of JSON, more than the ${MAX_RESULT_CHARS} returned: ${hint}.`;
    return { content: [{ type: 'text', text }], structuredContent: structured };
  }
  const shown = json.length > MAX_TEXT_JSON_CHARS ? `${json.slice(0, MAX_TEXT_JSON_CHARS)}… (${json.length} characters in all, whole in structuredContent)` : json;
  text += `\n\n${sanitizeText(shown)}`;
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

function failure(error: unknown, redactor: Redactor): CallToolResult {
  const { message, error: details } = describeFailure(error, redactor);
  return { isError: true, content: [{ type: 'text', text: sanitizeText(message) }], structuredContent: { error: details } };
}
