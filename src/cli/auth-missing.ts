import { ExitCode, type ExitCodeValue } from '../errors.js';
import { EMULATOR_DEFAULT_KEY } from '../config/settings.js';
import { isLoopbackHost } from '../contract/url.js';

/** A base URL on this machine: most likely an emulator started on another port. */
export function isLoopback(baseUrl: string): boolean {
  try {
    return isLoopbackHost(new URL(baseUrl).hostname);
  } catch {
    return false;
  }
}

/** No API key from any source: a setup problem, reported like a failed login. */
export class AuthMissingError extends Error {
  readonly exitCode: ExitCodeValue = ExitCode.auth;
  readonly hint: string;
  constructor(profile: string, baseUrl?: string) {
    super(`no API key is configured (profile "${profile}")`);
    this.name = 'AuthMissingError';
    this.hint =
      baseUrl !== undefined && isLoopback(baseUrl)
        ? `${baseUrl} is on this machine; an \`agentctl emulator\` there takes the key ${EMULATOR_DEFAULT_KEY}: export AGENTCTL_API_KEY=${EMULATOR_DEFAULT_KEY}`
        : 'run `agentctl auth login`, set AGENTCTL_API_KEY, or pass --api-key-file PATH (or start `agentctl emulator` and use its default address)';
  }
}
