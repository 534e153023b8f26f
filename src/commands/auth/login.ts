import type { Context } from '../../cli/context.js';
import { defineCommand } from '../../cli/define.js';
import { clearTextHost, closedServiceHost } from '../../contract/url.js';
import { checkApiKey } from '../../contract/validate.js';
import { ClosedServiceError } from '../../api/errors.js';
import { DEFAULT_BASE_URL, normaliseBaseUrl, profileName, readKeyFile } from '../../config/settings.js';
import { ExitCode, ExitError, UsageError } from '../../errors.js';
import { ping } from './ping.js';

export const command = defineCommand({
  name: 'login',
  summary: 'check an API key with the service (GET /ping/) and store it in the profile',
  notes:
    'The key is read from stdin when piped, else from a hidden prompt (or --api-key-file PATH).\n' +
    '--api-key KEY works but puts the key in argv, where other users (ps) and the shell history see it.\n' +
    'At the prompt, Ctrl-D is "no API key given" (exit 2) and Ctrl-C exits 130; nothing is stored.',
  examples: [
    'agentctl auth login --base-url https://service.example/api/v1',
    'printf %s "$KEY" | agentctl auth login --profile prod --base-url https://service.example/api/v1',
    'agentctl auth login --api-key-file ~/.secrets/agentctl-key',
  ],
  parse: () => ({}),
  async run(_options, ctx) {
    const { name } = profileName(ctx.flags, ctx.env);
    // A new profile may be named here, so the base URL is resolved without requiring it to exist.
    const store = await ctx.openConfig();
    const explicitBase = ctx.flags.baseUrl ?? ctx.env.AGENTCTL_BASE_URL;
    const base = normaliseBaseUrl(explicitBase ?? store.profile(name)?.['base-url'] ?? DEFAULT_BASE_URL);
    // Said before the key is asked for: nothing answers there (the client would refuse it anyway).
    const closed = closedServiceHost(new URL(base).hostname);
    if (closed !== undefined) throw new ClosedServiceError(base, closed);
    // Refused before the key is asked for: it would be sent in clear text.
    await ctx.refuseClearText(base);
    if (ctx.flags.apiKey !== undefined) {
      ctx.out.warn('--api-key puts the key in argv, where other users and the shell history can see it; pipe it instead (printf %s "$KEY" | agentctl auth login) or use --api-key-file PATH');
    }

    // The key comes from --api-key(-file), else stdin when piped, else a hidden prompt.
    let key = ctx.flags.apiKey ?? (ctx.flags.apiKeyFile === undefined ? undefined : await readKeyFile(ctx.flags.apiKeyFile, () => ctx.readStdin()));
    if (key === undefined) key = ctx.terminal.stdinIsTTY ? await promptHidden(ctx, 'API key: ') : (await ctx.readStdin()).trim();
    if (!key) throw new UsageError('no API key given', 'pipe it in (printf %s "$KEY" | agentctl auth login) or type it at the prompt');
    key = checkApiKey(key, 'the input');

    const user = await ping(await ctx.client({ apiKey: key, baseUrl: base }));

    store.set(name, 'api-key', key);
    if (explicitBase !== undefined) store.set(name, 'base-url', base);
    if (clearTextHost(new URL(base)) && !ctx.insecureHttpAllowedWithoutFlag) {
      ctx.out.warn(`${base} takes the key in clear text: the next commands need --insecure-http too, or \`agentctl config set insecure-http true${name === 'default' ? '' : ` --profile ${name}`}\``);
    }
    ctx.out.answer({ profile: name, base_url: base, user: user ?? null }, () => ctx.out.success(`Logged in to ${base} as ${user ?? 'an unnamed user'} (profile "${name}", saved in ${store.path}).`));
  },
});

/**
 * Reads the key from the terminal without echoing it. Ctrl-D is "no key" (the caller's exit 2);
 * Ctrl-C stops here with 130, nothing stored: `auth login && deploy` must not go on.
 */
async function promptHidden(ctx: Context, question: string): Promise<string> {
  const { askLine } = await import('../../cli/prompt.js');
  const answer = await askLine(ctx.io, question, { hidden: true });
  if (answer.kind === 'interrupt') {
    ctx.io.stderr.write('Cancelled: no API key was stored.\n');
    throw new ExitError(ExitCode.interrupted);
  }
  return answer.kind === 'line' ? answer.text.trim() : '';
}
