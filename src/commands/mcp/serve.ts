import type { Context } from '../../cli/context.js';
import { defineCommand } from '../../cli/define.js';
import { parseIntegerFlag, parseSecondsFlag } from '../../contract/validate.js';
import { ExitCode, UsageError } from '../../errors.js';
import { shorten } from '../../output/format.js';
import { CallsUnderWay, createServer, selectTools, type ServerDeps, type ServerOptions } from '../../mcp/server.js';
import { LineTransport } from '../../mcp/stdio.js';
import { TOKEN_VARIABLE } from '../../mcp/options.js';

/** The longest wait a tasks_wait call may ask for unless --max-wait says otherwise, seconds. */
export const DEFAULT_MAX_WAIT_SECONDS = 300;
/** Connections the server keeps to the service at most; more calls at once wait their turn. */
const MCP_CONNECTIONS = 16;

interface McpOptions extends ServerOptions {
  httpPort?: number;
}

export const command = defineCommand({
  name: 'mcp',
  summary: 'serve the service to AI assistants over the Model Context Protocol (stdio, or --http PORT)',
  options: [
    { flags: '--http <port>', description: `serve Streamable HTTP on 127.0.0.1:PORT (0 = any free port) instead of stdio; clients send the bearer token of ${TOKEN_VARIABLE}, or the one printed on stderr` },
    { flags: '--read-only', description: 'offer only the tools that change nothing (get, list, result, wait, timeline, status, preview)' },
    { flags: '--tools <names>', description: 'offer only these tools, comma-separated (e.g. tasks_create,tasks_wait)' },
    { flags: '--max-wait <sec>', description: `the longest a tasks_wait call may wait, seconds (default ${DEFAULT_MAX_WAIT_SECONDS})` },
  ],
  notes:
    'An assistant (Claude Desktop, Claude Code, Cursor, VS Code) starts `agentctl mcp` and talks to it on stdin and\n' +
    'stdout; the key, base URL and profile are found as for every command (--profile, AGENTCTL_API_KEY, ...), so\n' +
    'against the emulator it needs no configuration. Nothing but the protocol is written to stdout.\n' +
    'Tools: tasks_create, tasks_get, tasks_result, tasks_cancel, tasks_list, tasks_wait; agents_list, agents_get,\n' +
    'agents_create, agents_delete; persistent_list, persistent_get, persistent_create, persistent_update,\n' +
    'persistent_activate, persistent_deactivate, persistent_message, persistent_timeline, persistent_status,\n' +
    'persistent_web_tasks; schedule_preview. Resources: agentctl://schedule/grammar, agentctl://exit-codes,\n' +
    'agentctl://tasks/ID/result. Failures are tool errors that name the exit code the command line would give.\n' +
    'Try it: npx @modelcontextprotocol/inspector --cli agentctl mcp --method tools/list',
  examples: [
    'agentctl mcp',
    'agentctl mcp --read-only --profile work',
    'agentctl mcp --tools tasks_create,tasks_wait,tasks_result --max-wait 600',
    `${TOKEN_VARIABLE}=$(openssl rand -hex 32) agentctl mcp --http 8931`,
  ],
  parse(input): McpOptions {
    const http = input.string('http');
    const tools = input.string('tools');
    const maxWait = input.string('maxWait');
    const allow = tools === undefined ? undefined : tools.split(',').map((name) => name.trim()).filter(Boolean);
    if (allow !== undefined && allow.length === 0) throw new UsageError('--tools needs at least one tool name');
    const options: McpOptions = {
      readOnly: input.flag('readOnly'),
      allow,
      maxWaitSeconds: maxWait === undefined ? DEFAULT_MAX_WAIT_SECONDS : parseSecondsFlag(maxWait, '--max-wait', 1, 3600),
      httpPort: http === undefined ? undefined : parseIntegerFlag(http, '--http', 0, 65535),
    };
    if (selectTools(options).length === 0) throw new UsageError('--read-only and --tools leave no tool to offer', 'drop --read-only, or name read tools');
    return options;
  },
  async run(options, ctx) {
    // The key and base URL are settled before the first message: a missing key ends the run (exit 3)
    // with the usual explanation on stderr, where an assistant's log shows it.
    // Each call's requests stop with the client's cancellation of that call; joining every request's
    // signal with Ctrl-C's too would cost each one an AbortSignal.any (Ctrl-C ends the process anyway).
    // A pool of kept-alive connections (undici): a tool call costs ~45 us less CPU than through
    // node:http; the ~30 ms of loading it is paid once, by the first call of a long-lived server.
    const client = (await ctx.client()).withOptions({ signal: undefined, connections: MCP_CONNECTIONS });
    ctx.onClose(() => client.close());
    const deps: ServerDeps = { client: async () => client, redactor: ctx.redactor, clock: ctx.clock, env: ctx.env };
    ctx.handlesInterrupt = true;
    if (options.httpPort !== undefined) return (await import('../../mcp/http.js')).serveHttp(ctx, deps, options, options.httpPort);
    return serveStdio(ctx, deps, options);
  },
});

/**
 * Serves one client on stdin and stdout until stdin ends (the client went away: exit 0), SIGTERM
 * stops it (0), or Ctrl-C (130, as any interrupted command).
 */
async function serveStdio(ctx: Context, deps: ServerDeps, options: ServerOptions): Promise<number | void> {
  const calls = new CallsUnderWay();
  const server = createServer({ ...deps, calls }, options);
  // A line that is no message, a reply that cannot be sent: said on stderr, where an assistant's log
  // shows it (shortened: the SDK's message may quote a whole request).
  server.onerror = (error) => ctx.out.warn(`agentctl mcp: ${ctx.redactor.redact(shorten(error.message, 300))}`);
  if (ctx.terminal.stdinIsTTY) {
    ctx.out.info('agentctl mcp speaks the Model Context Protocol on stdin and stdout, for an assistant to start (see docs/mcp.md). Ctrl-C stops it.');
  }
  const stdin = ctx.io.stdin as NodeJS.ReadableStream & import('node:stream').Readable;
  const transport = new LineTransport(stdin, ctx.io.stdout);
  await server.connect(transport);
  const stopped = new Promise<void>((resolve) => {
    if (ctx.signal.aborted) resolve();
    else ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  const ended = new Promise<void>((resolve) => {
    stdin.once('end', resolve);
    stdin.once('close', resolve);
  });
  await Promise.race([ended, stopped]);
  // A client that sent its last calls and closed stdin (a pipe) still gets their answers, once the
  // calls reach their handlers (a few promise turns after the end); a signal stops at once.
  await new Promise((resolve) => setImmediate(resolve));
  await Promise.race([calls.settled(), stopped]);
  await server.close();
  if (ctx.signal.aborted && ctx.signal.reason !== 'SIGTERM') return ExitCode.interrupted;
}
