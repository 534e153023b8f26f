import { statSync } from 'node:fs';
import type { ApiClient } from '../../api/client.js';
import { ClosedServiceError, InsecureHttpError, MissingApiVersionError } from '../../api/errors.js';
import type { Context } from '../../cli/context.js';
import { defineCommand } from '../../cli/define.js';
import { VERSION } from '../../contract/version.js';
import { isExplainedError, type ExitCodeValue } from '../../errors.js';
import { USER_EMAIL as EMULATOR_USER } from '../../emulator/state.js';

/** Clock skew beyond this is worth a warning (the Date header has one-second resolution). */
const SKEW_WARN_SECONDS = 5;

interface Report {
  version: string;
  runtime: string;
  profile: string | null;
  base_url: string | null;
  base_url_source: string | null;
  /** The base URL to use instead, when the one in use lacks /api/v1. */
  suggested_base_url: string | null;
  api_key_source: string | null;
  config: { path: string; exists: boolean; mode: string | null; folder_mode: string | null; error: string | null };
  ping: { ok: boolean; latency_ms: number | null; user: string | null; error: string | null; exit_code: number | null };
  service: 'emulator' | 'service' | null;
  clock_skew_seconds: number | null;
  problems: string[];
}

export const command = defineCommand({
  name: 'doctor',
  summary: 'check the setup: base URL, key source, config file, reachability, latency and clock skew',
  notes:
    'Never prints the API key, only where it comes from. Reachability is one GET /ping/; the clock skew\n' +
    "is this machine's clock against the service's Date header. The exit code is that of the first\n" +
    'failure (3 key refused or missing, 8 unreachable, 2 a broken config file or a base URL on the closed\n' +
    'hosted service, gobii.ai or getgobii.com), else 0.',
  examples: ['agentctl doctor', 'agentctl doctor --json > doctor.json   # attach to a bug report', 'agentctl doctor --profile prod'],
  parse: () => ({}),
  async run(_options, ctx) {
    const { report, exitCode } = await diagnose(ctx);
    ctx.out.answer(report, () => printReport(ctx, report));
    return exitCode;
  },
});

async function diagnose(ctx: Context): Promise<{ report: Report; exitCode: number }> {
  const store = await ctx.openConfig();
  const report: Report = {
    version: VERSION,
    runtime: ctx.io.runtime,
    profile: null,
    base_url: null,
    base_url_source: null,
    suggested_base_url: null,
    api_key_source: null,
    config: { path: store.path, exists: false, mode: null, folder_mode: null, error: null },
    ping: { ok: false, latency_ms: null, user: null, error: null, exit_code: null },
    service: null,
    clock_skew_seconds: null,
    problems: [],
  };
  let exitCode: number = 0;
  const fail = (error: unknown, where: string): void => {
    const message = ctx.redactor.redact(error instanceof Error ? error.message : String(error));
    report.problems.push(`${where}: ${message}`);
    if (exitCode === 0) exitCode = isExplainedError(error) ? (error.exitCode as ExitCodeValue) : 1;
  };

  const mode = (path: string) => {
    try {
      return (statSync(path).mode & 0o777).toString(8).padStart(4, '0');
    } catch {
      return null;
    }
  };
  report.config.mode = mode(store.path);
  report.config.folder_mode = mode(store.dir);
  report.config.exists = report.config.mode !== null;
  if (report.config.mode !== null && (parseInt(report.config.mode, 8) & 0o077) !== 0) {
    report.problems.push(`config: ${store.path} is readable by others (mode ${report.config.mode}); chmod 600 it`);
  }
  if (report.config.folder_mode !== null && (parseInt(report.config.folder_mode, 8) & 0o077) !== 0) {
    report.problems.push(`config: the folder ${store.dir} is open to others (mode ${report.config.folder_mode}); chmod 700 it`);
  }

  try {
    store.profileNames();
  } catch (error) {
    report.config.error = (error as Error).message;
    fail(error, 'config');
  }

  let settings;
  try {
    settings = await ctx.settings();
    report.profile = settings.profile;
    report.base_url = settings.baseUrl;
    report.base_url_source = settings.baseUrlSource;
    report.api_key_source = settings.apiKey ? settings.apiKeySource : 'none';
  } catch (error) {
    // A broken config file breaks the settings too: said once, under config.
    if (report.config.error === null || (error as Error).message !== report.config.error) fail(error, 'settings');
    return { report, exitCode };
  }

  let client: ApiClient | undefined;
  try {
    client = await ctx.client();
    if (!settings.apiKey) report.api_key_source = 'emulator default';
    const started = ctx.clock.now();
    const response = await client.request<{ user?: string }>('GET', '/ping/');
    const ended = ctx.clock.now();
    report.ping = { ok: true, latency_ms: Math.round(ended - started), user: response.data?.user ?? null, error: null, exit_code: 0 };
    report.service = response.data?.user === EMULATOR_USER ? 'emulator' : 'service';
    const date = Date.parse(String(response.headers.date ?? ''));
    if (!Number.isNaN(date)) {
      report.clock_skew_seconds = Math.round((ctx.clock.now() - (ended - started) / 2 - date) / 1000);
      if (Math.abs(report.clock_skew_seconds) > SKEW_WARN_SECONDS) {
        report.problems.push(`clock: this machine is ${Math.abs(report.clock_skew_seconds)} s ${report.clock_skew_seconds > 0 ? 'ahead of' : 'behind'} the service`);
      }
    }
  } catch (error) {
    report.ping.error = ctx.redactor.redact((error as Error).message);
    report.ping.exit_code = isExplainedError(error) ? error.exitCode : 1;
    if (error instanceof MissingApiVersionError && client) {
      // The most common setup mistake, and every other finding follows from it: said first, with the URL to use.
      report.suggested_base_url = error.suggestedBaseUrl;
      const there = (await answersPing(client, error.suggestedBaseUrl)) ? `${error.suggestedBaseUrl} answers GET /ping/; ` : '';
      report.problems.unshift(`base_url: ${error.baseUrl} lacks /api/v1: ${there}use --base-url ${error.suggestedBaseUrl}`);
      exitCode = error.exitCode;
    } else if (error instanceof InsecureHttpError) {
      // Nothing was sent: the finding is the base URL, with how to allow it.
      report.problems.unshift(`base_url: ${error.message}; ${error.hint}`);
      exitCode = error.exitCode;
    } else if (error instanceof ClosedServiceError) {
      // Not a network failure: the hosted service is gone; said first, with where it runs now.
      report.problems.unshift(`base_url: ${error.message}; ${error.hint}: agentctl auth login --base-url http://localhost:8000/api/v1`);
      exitCode = error.exitCode;
    } else fail(error, 'ping');
  }
  return { report, exitCode };
}

/** Whether the service answers GET /ping/ at another base URL (one try: this only adds to a diagnosis). */
async function answersPing(client: ApiClient, baseUrl: string): Promise<boolean> {
  try {
    await client.withOptions({ baseUrl }).request('GET', '/ping/', { retries: 0 });
    return true;
  } catch {
    return false;
  }
}

function printReport(ctx: Context, report: Report): void {
  const { green, red } = ctx.out.chalk;
  // Both come from the ping's answer; a setup that could not be read never sent one.
  const asked = report.ping.ok || report.ping.error !== null;
  const unknown = report.ping.ok ? 'not known (no Date header)' : asked ? 'not known (the service did not answer)' : 'not checked';
  ctx.out.record(report, [
    { label: 'agentctl', value: `${report.version} (${report.runtime})` },
    { label: 'profile', value: report.profile ?? '' },
    {
      label: 'base_url',
      value: report.base_url ? `${report.base_url} (${report.base_url_source})${report.suggested_base_url ? `: lacks /api/v1, use ${report.suggested_base_url}` : ''}` : '',
      paint: report.suggested_base_url ? red : undefined,
    },
    { label: 'api_key', value: report.api_key_source ? `from ${report.api_key_source} (never shown)` : '' },
    {
      label: 'config',
      value: `${report.config.path} ${report.config.exists ? `(mode ${report.config.mode}, folder ${report.config.folder_mode})` : '(none yet)'}`,
    },
    {
      label: 'reachable',
      value: report.ping.ok ? `yes, ${report.ping.latency_ms} ms for GET /ping/${report.ping.user ? ` as ${report.ping.user}` : ''}` : report.ping.error === null ? `not checked: ${report.config.error === null ? 'the settings could not be read' : 'the config file is broken'}` : `no: ${report.ping.error}`,
      paint: report.ping.ok ? green : red,
    },
    { label: 'service', value: report.service === 'emulator' ? 'agentctl emulator' : (report.service ?? unknown) },
    { label: 'clock_skew', value: report.clock_skew_seconds === null ? unknown : `${report.clock_skew_seconds} s` },
  ]);
  if (report.problems.length === 0) ctx.out.success('No problems found.');
  for (const problem of report.problems) ctx.out.warn(problem);
}
