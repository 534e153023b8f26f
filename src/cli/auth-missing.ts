import { ExitCode, type ExitCodeValue } from '../errors.js';

/** No API key from any source: a setup problem, reported like a failed login. */
export class AuthMissingError extends Error {
  readonly exitCode: ExitCodeValue = ExitCode.auth;
  readonly hint =
    'run `agentctl auth login`, set AGENTCTL_API_KEY, or pass --api-key-file PATH (or start `agentctl emulator` and use its default address)';
  constructor(profile: string) {
    super(`no API key is configured (profile "${profile}")`);
    this.name = 'AuthMissingError';
  }
}
