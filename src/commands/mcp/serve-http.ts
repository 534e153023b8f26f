// `agentctl mcp --http PORT`: starts the Streamable HTTP engine (src/mcp/http.ts), says where it is
// and which token to send, and serves until Ctrl-C or SIGTERM.
import { randomBytes } from 'node:crypto';
import type { Context } from '../../cli/context.js';
import { ExitCode } from '../../errors.js';
import { HOST, startHttp } from '../../mcp/http.js';
import { TOKEN_VARIABLE } from '../../mcp/options.js';
import type { ServerDeps, ServerOptions } from '../../mcp/server.js';
import { listenError } from '../common/listen.js';

export async function serveHttp(ctx: Context, deps: ServerDeps, options: ServerOptions, port: number): Promise<number | void> {
  const given = ctx.env[TOKEN_VARIABLE]?.trim();
  const token = given || randomBytes(24).toString('base64url');
  ctx.redactor.add(token);
  const running = await startHttp(deps, options, { port, token }).catch((error: unknown) => {
    throw listenError(error, HOST, port);
  });
  ctx.out.line(running.url);
  ctx.out.info(`agentctl mcp: Streamable HTTP at ${running.url} (loopback only, also [::1]). Ctrl-C stops it.`);
  // Not silenced by --quiet: without it no client can connect.
  ctx.io.stderr.write(given ? `Bearer token: the one in ${TOKEN_VARIABLE}\n` : `Bearer token (set ${TOKEN_VARIABLE} to choose one): ${token}\n`);

  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) resolve();
    else ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await running.close();
  return ctx.signal.reason === 'SIGTERM' ? undefined : ExitCode.interrupted;
}
