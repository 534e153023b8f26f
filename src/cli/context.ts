import type { Command } from 'commander';
import type { ApiClient } from '../api/client.js';
import { Redactor } from '../api/redact.js';
import type { Clock } from '../contract/clock.js';
import { LIMITS, parseIntegerFlag, parseSecondsFlag } from '../contract/validate.js';
import { DEFAULT_BASE_URL, DEFAULT_TIMEOUT_SECONDS, EMULATOR_DEFAULT_KEY, resolveSettings, type Preferences, type Settings } from '../config/settings.js';
import type { ConfigStore } from '../config/store.js';
import { ExitCode, ExitError, UsageError } from '../errors.js';
import { Output } from '../output/output.js';
import { decideOutput, type Terminal } from '../output/settings.js';
import { terminalOf, type TerminalDecisions } from '../output/terminal.js';
import { sanitizeText } from '../output/sanitize.js';
import { startSpinner, type Spinner } from '../output/spinner.js';
import { CLI_API_WORDS } from './api-words.js';
import { readStdin } from './input.js';
import type { IO } from './io.js';
import { VERSION } from '../contract/version.js';

/** The global options of the contract, as commander hands them to every command. */
export interface GlobalFlags {
  baseUrl?: string;
  apiKey?: string;
  apiKeyFile?: string;
  profile?: string;
  json?: boolean;
  jsonl?: boolean;
  fields?: string;
  color?: boolean;
  quiet?: boolean;
  verbose?: boolean;
  timeout?: string;
  jq?: string;
  maxResponse?: string;
  insecureHttp?: boolean;
  record?: string;
}

/** How the command line allows a plain http:// base URL to another machine: the hint of its refusal. */
export const HOW_TO_ALLOW_INSECURE_HTTP =
  'use https:// if the service has it; to send the key in clear text anyway, pass --insecure-http, set AGENTCTL_INSECURE_HTTP=1, or `agentctl config set insecure-http true`';

// Kept here too for the commands that import it from the context (it lives with the default base URL).
export { EMULATOR_DEFAULT_KEY };

/** What a command gets: the outside world (io), output, settings, an API client on demand, and interruption. */
export class Context {
  readonly out: Output;
  readonly redactor = new Redactor();
  private settingsPromise?: Promise<Settings>;
  /** What Ctrl-C prints while this is set (e.g. how to resume a wait). */
  interruptMessage?: string;
  /** Set by commands that end themselves on Ctrl-C (listeners): the runner then waits for them. */
  handlesInterrupt = false;
  private readonly closers: Array<() => unknown> = [];

  constructor(
    readonly flags: GlobalFlags,
    readonly io: IO,
    /**
     * Every command as commander's tree (`help` and `completion` need all of it; the program running
     * a command may hold only that command's subtree). Handed in by the runner, which builds programs:
     * commands that import the program builder themselves would close an import cycle through the registry.
     */
    readonly commandTree: () => Promise<Command> = () => Promise.reject(new Error('no command tree was given to this context')),
    readonly preferences: Preferences = {},
    /** The config file, opened once per run: the preferences and the settings read the same store. */
    private readonly openStore?: () => Promise<ConfigStore>,
  ) {
    // A stored `output json` is --json unless the command line chose a machine format itself.
    const preferJson = preferences.output === 'json' && !flags.json && !flags.jsonl;
    const chosen = preferJson ? { ...flags, json: true } : preferences.output === 'table' ? { ...flags, table: true } : flags;
    this.out = new Output(decideOutput(chosen, io.env, io.terminal), { stdout: io.stdout, stderr: io.stderr }, io.process.holdingThread);
    this.redactor.add(flags.apiKey);
    this.redactor.add(io.env.AGENTCTL_API_KEY);
  }

  get env(): IO['env'] {
    return this.io.env;
  }

  get terminal(): Terminal {
    return this.io.terminal;
  }

  /** The run's terminal decisions (colour, width, spinner, prompts, progress): terminal.ts owns them. */
  get tty(): TerminalDecisions {
    return terminalOf(this.io);
  }

  get clock(): Clock {
    return this.io.clock;
  }

  get verbose(): boolean {
    return Boolean(this.flags.verbose) || this.env.AGENTCTL_DEBUG === '1';
  }

  /** Aborted on Ctrl-C or SIGTERM, for requests, sleeps and listeners that should stop at once. */
  get signal(): AbortSignal {
    return this.io.signal;
  }

  /** The global per-request timeout in milliseconds (--timeout SEC, else the profile's `timeout`, else 30). */
  get requestTimeoutMs(): number {
    if (this.flags.timeout !== undefined && !this.ownsTimeoutFlag) return parseSecondsFlag(this.flags.timeout, '--timeout', 0.001) * 1000;
    const stored = this.preferences.timeout;
    return stored === undefined ? DEFAULT_TIMEOUT_SECONDS * 1000 : parseSecondsFlag(stored, 'the stored timeout (agentctl config get timeout)', 0.001) * 1000;
  }

  /** The largest response body read, in bytes: --max-response MB, else AGENTCTL_MAX_RESPONSE_MB, else the default. */
  get maxBodyBytes(): number | undefined {
    // An empty variable counts as unset, as for every AGENTCTL_ variable (`VAR= cmd` is how one clears it).
    const [text, name] = this.flags.maxResponse !== undefined ? [this.flags.maxResponse, '--max-response'] : [this.env.AGENTCTL_MAX_RESPONSE_MB || undefined, 'AGENTCTL_MAX_RESPONSE_MB'];
    return text === undefined ? undefined : parseIntegerFlag(text, name, 1, LIMITS.bodyMbCeiling) * 1024 * 1024;
  }

  /** The cassette requests are recorded to: --record FILE, else AGENTCTL_RECORD (empty counts as unset). */
  get recordFile(): string | undefined {
    return this.flags.record ?? (this.env.AGENTCTL_RECORD || undefined);
  }

  /** Whether a plain http:// base URL to another machine may carry the key: --insecure-http, AGENTCTL_INSECURE_HTTP=1, the profile. */
  get insecureHttpAllowed(): boolean {
    return Boolean(this.flags.insecureHttp) || this.insecureHttpAllowedWithoutFlag;
  }

  /** Allowed by the environment or the profile: the next commands are allowed too (`auth login` says when they are not). */
  get insecureHttpAllowedWithoutFlag(): boolean {
    const env = this.env.AGENTCTL_INSECURE_HTTP?.trim().toLowerCase();
    return env === '1' || env === 'true' || this.preferences.insecureHttp === true;
  }

  /** Refuses (exit 2) a base URL that would carry the key in clear text, unless allowed: before asking for a key. */
  async refuseClearText(baseUrl: string): Promise<void> {
    if (this.insecureHttpAllowed) return;
    const { refuseClearText } = await import('../api/url.js'); // the client's modules load only for a command that sends
    refuseClearText(baseUrl, HOW_TO_ALLOW_INSECURE_HTTP);
  }

  /** Set by commands (`tasks wait`, `webhook-listen`) whose --timeout means the overall wait. */
  ownsTimeoutFlag = false;

  /** All of stdin as text (`-` arguments, piped keys). */
  readStdin(): Promise<string> {
    return readStdin(this.io.stdin);
  }

  async openConfig(): Promise<ConfigStore> {
    if (this.openStore) return this.openStore();
    const { ConfigStore } = await import('../config/store.js');
    return new ConfigStore(this.io.configDir);
  }

  settings(): Promise<Settings> {
    this.settingsPromise ??= resolveSettings(this.flags, this.env, () => this.openConfig(), () => this.readStdin()).then((settings) => {
      this.redactor.add(settings.apiKey);
      return settings;
    });
    return this.settingsPromise;
  }

  /**
   * An authenticated client. Without a key, only the built-in emulator address gets its default
   * key. `override` is for `auth login`, which checks a key before anything is stored.
   */
  async client(override: { apiKey: string; baseUrl?: string } | undefined = undefined): Promise<ApiClient> {
    const settings = override?.baseUrl ? undefined : await this.settings();
    const baseUrl = override?.baseUrl ?? settings?.baseUrl ?? DEFAULT_BASE_URL;
    let apiKey = override?.apiKey ?? settings?.apiKey;
    if (!apiKey && baseUrl === DEFAULT_BASE_URL) apiKey = EMULATOR_DEFAULT_KEY;
    if (!apiKey) {
      const { AuthMissingError } = await import('./auth-missing.js');
      throw new AuthMissingError(settings?.profile ?? 'default', baseUrl);
    }
    this.redactor.add(apiKey);
    const { ApiClient } = await import('../api/client.js');
    const client = new ApiClient({
      baseUrl,
      apiKey,
      timeoutMs: this.requestTimeoutMs,
      maxBodyBytes: this.maxBodyBytes,
      userAgent: `agentctl/${VERSION} ${this.io.runtime}`,
      redactor: this.redactor,
      allowInsecureHttp: this.insecureHttpAllowed,
      howToAllowInsecureHttp: HOW_TO_ALLOW_INSECURE_HTTP,
      words: CLI_API_WORDS,
      clock: this.io.clock,
      signal: this.io.signal,
      record: this.recordFile,
      trace: this.verbose ? (line) => this.io.stderr.write(`${sanitizeText(line)}\n`) : undefined,
      usingDefaultBaseUrl: baseUrl === DEFAULT_BASE_URL && settings?.baseUrlSource !== 'flag' && settings?.baseUrlSource !== 'env',
    });
    this.onClose(() => client.close());
    return client;
  }

  async spinner(message: string): Promise<Spinner> {
    const spinner = await startSpinner(message, this.out.settings.interactive && !this.out.settings.quiet, this.io.stderr, this.io.clock);
    this.onClose(() => spinner.stop());
    return spinner;
  }

  /** What Ctrl-C should tell the user right now (e.g. how to resume a wait). */
  onInterrupt(message: string | undefined): void {
    this.interruptMessage = message;
  }

  /** Runs when the command ends, however it ends (spinners, listeners, sockets). */
  onClose(close: () => unknown): void {
    this.closers.push(close);
  }

  async close(): Promise<void> {
    for (const close of this.closers.splice(0).reverse()) {
      try {
        await close();
      } catch {
        // closing is best effort: the command's own outcome is what the user needs to see
      }
    }
  }

  /**
   * Destructive commands ask on a terminal unless --yes; without a terminal (or in CI) they need
   * --yes, because nobody can answer. Only "y" or "yes" goes ahead. Anything else, or Ctrl-D, is a
   * no, said plainly (not as an error) with what was left undone, and exit 2 (the action asked for
   * did not happen: `delete ... && next` must not go on); Ctrl-C says the same and exits 130.
   */
  async confirm(question: string, yes: boolean | undefined, undone = 'nothing was deleted'): Promise<void> {
    if (yes) return;
    if (!terminalOf(this.io).canAsk || this.out.machine) {
      throw new UsageError(`${question.replace(/\?$/, '')}: refusing without --yes when nobody can confirm`, 'add --yes');
    }
    const { askLine } = await import('./prompt.js');
    const answer = await askLine(this.io, `${question} [y/N] `);
    if (answer.kind === 'line' && /^y(es)?$/i.test(answer.text.trim())) return;
    this.io.stderr.write(`Cancelled: ${undone}.\n`);
    throw new ExitError(answer.kind === 'interrupt' ? ExitCode.interrupted : ExitCode.usage);
  }
}
