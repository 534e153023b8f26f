// `--web`: open a record in the service's web app, as `gh issue view --web` does.
import type { Context } from '../../cli/context.js';
import { DEFAULT_BASE_URL } from '../../config/settings.js';
import { UsageError } from '../../errors.js';

/**
 * The web app's address for a path: the base URL without its /api/v1. The page paths are the
 * service's own (gobii-platform console/legacy_redirects.py, _CONSOLE_PAGE_REDIRECTS and the agent
 * redirects: /app/agents/<id> is an agent's chat).
 */
export function webAppUrl(baseUrl: string, page: string): string {
  const url = new URL(baseUrl);
  url.pathname = `${url.pathname.replace(/\/api\/v\d+\/?$/, '').replace(/\/$/, '')}${page}`;
  return url.href;
}

/**
 * Opens the URL in a browser at a terminal (the platform's opener, given the URL as one argument:
 * no shell ever reads it); piped or without a browser, prints it on stdout.
 */
export async function openInBrowser(ctx: Context, page: string): Promise<void> {
  const settings = await ctx.settings();
  if (settings.baseUrl === DEFAULT_BASE_URL) throw new UsageError('the emulator has no web app', 'point --base-url (or a profile) at a deployment of the service');
  const url = webAppUrl(settings.baseUrl, page);
  if (!ctx.out.settings.interactive) return ctx.out.line(url);
  const [{ spawn }, { platform }] = await Promise.all([import('node:child_process'), import('node:os')]);
  const system = platform();
  const command = ctx.env.BROWSER || (system === 'win32' ? 'explorer.exe' : system === 'darwin' ? 'open' : 'xdg-open');
  const args = [url];
  const opened = await new Promise<boolean>((resolve) => {
    const child = spawn(command, args, { stdio: 'ignore', detached: true, shell: false });
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
  ctx.out.info(opened ? `Opening ${url} in your browser.` : `Could not start a browser; open ${url}`);
  if (!opened) ctx.out.line(url);
}
