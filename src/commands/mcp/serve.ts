import type { Context } from '../../cli/context.js';
import { NEUTRAL_WORDS } from '../../api/words.js';
import { defineCommand } from '../../cli/define.js';
import { ExitCode } from '../../errors.js';
import { shorten } from '../../output/format.js';
import { CallsUnderWay, createServer, type ServerDeps, type ServerOptions } from '../../mcp/server.js';
import { LineTransport } from '../../mcp/stdio.js';
import { DEFAULT_TOOLSETS, DEFAULT_WAIT_SECONDS, TOKEN_VARIABLE, TOOLSETS } from '../../mcp/options.js';
import { DEFAULT_MAX_WAIT_SECONDS, parseMcpOptions } from './flags.js';

/** Connections the server keeps to the service at most; more calls at once wait their turn. */
const MCP_CONNECTIONS = 16;

export const command = defineCommand({
  name: 'mcp',
  summary: 'serve the service to AI assistants over the Model Context Protocol (stdio, or --http PORT)',
  options: [
    { flags: '--http <port>', description: `serve Streamable HTTP on loopback (127.0.0.1 and [::1]) at PORT (0 = any free port) instead of stdio; clients send the bearer token of ${TOKEN_VARIABLE}, or the one printed on stderr` },
    {
      flags: '--allow-secret-env <name>',
      description:
        'let tasks_create read this environment variable as a task secret (NAME, or PREFIX* for every variable starting so; add @SITE,SITE to send it to these secrets domains only, e.g. SHOP_PASSWORD@https://shop.example); repeatable. Without it no variable is read',
      repeatable: true,
    },
    { flags: '--agents-dir <dir>', description: 'the folder of agent files the as-code tools plan and apply (default ./agents; the as-code toolset is off unless --toolsets names it)' },
    { flags: '--secrets-dir <dir>', description: 'let tasks_create read secrets files lying directly in this folder (regular files with one name: no links, hard links or subfolders); none without' },
    { flags: '--read-only', description: 'offer only the tools that change nothing (get, list, result, wait, timeline, status, preview)' },
    { flags: '--toolsets <names>', description: `offer only these groups of tools, comma-separated: ${TOOLSETS.join(', ')}; default (${DEFAULT_TOOLSETS.join(', ')}, what is offered without the flag) or all` },
    { flags: '--tools <names>', description: 'offer only these tools, comma-separated (e.g. tasks_create,tasks_wait)' },
    { flags: '--exclude-tools <names>', description: 'never offer these tools, comma-separated (e.g. agents_delete)' },
    { flags: '--tool-prefix <prefix>', description: 'put this before every tool name (e.g. gobii_), for clients that mix servers' },
    { flags: '--wait <sec>', description: `how long tasks_wait waits when the call does not say, seconds (default ${DEFAULT_WAIT_SECONDS}: clients end a request after 60 s)` },
    { flags: '--max-wait <sec>', description: `the longest a tasks_wait call may ask to wait, seconds (default ${DEFAULT_MAX_WAIT_SECONDS}, under a client's 60 s; a model calls again to wait on)` },
  ],
  notes:
    'An assistant (Claude Desktop, Claude Code, Cursor, VS Code) starts `agentctl mcp` and talks to it on stdin and\n' +
    'stdout; the key, base URL and profile are found as for every command (--profile, AGENTCTL_API_KEY, ...), so\n' +
    'against the emulator it needs no configuration. Nothing but the protocol is written to stdout.\n' +
    'Secrets: a model names task secrets by reference only, and gets only the environment variables allowed with\n' +
    '--allow-secret-env (for the sites named after its @, if any) and the files in --secrets-dir; anything else is\n' +
    "refused before any request. Task results and timeline messages reach the model fenced as the service's\n" +
    'untrusted data.\n' +
    'Toolsets: tasks (tasks_create, tasks_get, tasks_result, tasks_cancel, tasks_list, tasks_wait), agents\n' +
    '(agents_list, agents_get, agents_create, agents_delete), persistent (persistent_list, persistent_get,\n' +
    'persistent_create, persistent_update, persistent_activate, persistent_deactivate, persistent_message,\n' +
    'persistent_timeline, persistent_status, persistent_web_tasks), schedule (schedule_preview); offered only when\n' +
    '--toolsets names them (or all), through the service\'s MCP endpoint: links (persistent_links, persistent_link,\n' +
    'persistent_unlink), files (persistent_files, persistent_upload, persistent_read_file), inspect\n' +
    '(persistent_settings, persistent_trace). Resources:\n' +
    'agentctl://schedule/grammar, agentctl://exit-codes, agentctl://tasks/ID/result, agentctl://persistent/ID/timeline.\n' +
    'Prompts: run_task, brief_persistent_agent. Failures are tool errors that name the argument at fault and the\n' +
    'tool to call next. Try it: npx @modelcontextprotocol/inspector --cli agentctl mcp --method tools/list',
  examples: [
    'agentctl mcp',
    'agentctl mcp --allow-secret-env SHOP_PASSWORD --secrets-dir ~/.agentctl-secrets',
    'agentctl mcp --allow-secret-env SHOP_PASSWORD@https://shop.example,https://login.shop.example',
    'agentctl mcp --read-only --profile work',
    'agentctl mcp --toolsets tasks,schedule --exclude-tools tasks_cancel --tool-prefix gobii_',
    'agentctl mcp --toolsets default,links,files',
    'agentctl mcp --tools tasks_create,tasks_wait,tasks_result --wait 50 --max-wait 600',
    `${TOKEN_VARIABLE}=$(openssl rand -hex 32) agentctl mcp --http 8931`,
  ],
  parse: parseMcpOptions,
  async run(options, ctx) {
    // The key and base URL are settled before the first message: a missing key ends the run (exit 3)
    // with the usual explanation on stderr, where an assistant's log shows it.
    // Each call's requests stop with the client's cancellation of that call; joining every request's
    // signal with Ctrl-C's too would cost each one an AbortSignal.any (Ctrl-C ends the process anyway).
    // A pool of kept-alive connections (undici): a tool call costs ~45 us less CPU than through
    // node:http; the ~30 ms of loading it is paid once, by the first call of a long-lived server.
    // Each server tells its own client of the retries of its calls, as log messages (info), where an assistant shows them.
    // A model reads the API layer's hints in words naming no flag or command of the command line (api/words.ts).
    const client = (await ctx.client()).withOptions({ signal: undefined, connections: MCP_CONNECTIONS, words: NEUTRAL_WORDS, usingDefaultBaseUrl: false });
    ctx.onClose(() => client.close());
    const deps: ServerDeps = { client: async () => client, redactor: ctx.redactor, clock: ctx.clock, env: ctx.env, website: new URL(client.baseUrl).origin };
    ctx.handlesInterrupt = true;
    if (options.httpPort !== undefined) return (await import('./serve-http.js')).serveHttp(ctx, deps, options, options.httpPort);
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
