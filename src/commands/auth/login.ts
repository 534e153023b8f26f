import { UsageError } from '../../errors.js';
import type { Context } from '../../cli/context.js';
import type { CommandRun } from '../../cli/lazy.js';
import { DEFAULT_BASE_URL, normaliseBaseUrl, profileName, readKeyFile } from '../../config/settings.js';
import { ping } from './ping.js';

export const run: CommandRun = async (ctx) => {
  const { name } = profileName(ctx.flags, ctx.env);
  // The key comes from --api-key(-file), else stdin when piped, else a hidden prompt.
  let key = ctx.flags.apiKey ?? (ctx.flags.apiKeyFile === undefined ? undefined : await readKeyFile(ctx.flags.apiKeyFile, () => ctx.readStdin()));
  if (key === undefined) key = ctx.terminal.stdinIsTTY ? await promptHidden(ctx, 'API key: ') : (await ctx.readStdin()).trim();
  if (!key) throw new UsageError('no API key given', 'pipe it in (printf %s "$KEY" | agentctl auth login) or type it at the prompt');
  if (/\s/.test(key)) throw new UsageError('the API key must be a single line with no spaces');

  // A new profile may be named here, so the base URL is resolved without requiring it to exist.
  const store = await ctx.openConfig();
  const explicitBase = ctx.flags.baseUrl ?? ctx.env.AGENTCTL_BASE_URL;
  const base = normaliseBaseUrl(explicitBase ?? store.profile(name)?.['base-url'] ?? DEFAULT_BASE_URL);
  const user = await ping(await ctx.client({ apiKey: key, baseUrl: base }));

  store.set(name, 'api-key', key);
  if (explicitBase !== undefined) store.set(name, 'base-url', base);
  if (ctx.out.machine) ctx.out.json({ profile: name, base_url: base, user: user ?? null });
  else ctx.out.success(`Logged in to ${base} as ${user ?? 'an unnamed user'} (profile "${name}", saved in ${store.path}).`);
};

/** Reads a line from the terminal without echoing it. */
async function promptHidden(ctx: Context, question: string): Promise<string> {
  const { createInterface } = await import('node:readline');
  return new Promise((resolve) => {
    const rl = createInterface({ input: ctx.io.stdin, output: ctx.io.stderr as NodeJS.WritableStream, terminal: true });
    ctx.io.stderr.write(question);
    // Swallow the echo of what is typed; readline has no public switch for this.
    (rl as unknown as { _writeToOutput: (text: string) => void })._writeToOutput = () => undefined;
    rl.question('', (answer) => {
      rl.close();
      ctx.io.stderr.write('\n');
      resolve(answer.trim());
    });
  });
}
