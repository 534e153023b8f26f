import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa, type Options } from 'execa';

export const BIN = join(import.meta.dirname, '..', '..', 'bin', 'agentctl.js');

export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** Variables on top of a clean environment (no AGENTCTL_*, no CI, no colour forcing). */
  env?: Record<string, string | undefined>;
  /** Text fed to stdin; without it stdin is empty. */
  input?: string;
  /** A config home of the test's own (a fresh temporary one by default). */
  configHome?: string;
  timeoutMs?: number;
}

export function tempDir(prefix = 'agentctl-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Runs the built `bin/agentctl.js` as a user would, with a clean, isolated environment. */
export async function agentctl(args: string[], options: CliOptions = {}): Promise<CliResult> {
  const configHome = options.configHome ?? tempDir('agentctl-config-');
  const execaOptions: Options = {
    reject: false,
    extendEnv: false,
    env: {
      PATH: process.env.PATH,
      HOME: configHome,
      XDG_CONFIG_HOME: configHome,
      ...options.env,
    },
    timeout: options.timeoutMs ?? 20_000,
    stripFinalNewline: false,
    ...(options.input === undefined ? { stdin: 'ignore' } : { input: options.input }),
  };
  const result = await execa(process.execPath, [BIN, ...args], execaOptions);
  return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
}

/** Runs agentctl against a given service, with the key in the environment (never in argv). */
export function against(baseUrl: string, apiKey = 'emulator-key') {
  return (args: string[], options: CliOptions = {}) =>
    agentctl(args, { ...options, env: { AGENTCTL_BASE_URL: baseUrl, AGENTCTL_API_KEY: apiKey, ...options.env } });
}
