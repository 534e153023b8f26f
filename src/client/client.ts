// `createClient(options)`: the library face of agentctl. It stands on the same api/ layer as the
// command line (one HTTP client with its timeouts, retries of safe requests, Retry-After, bounded
// bodies and response checks; the same waits and page walks), and words nothing for a terminal:
// inputs are checked before any request and refused as InputError naming the field, service
// failures are the api layer's typed errors, and every message has the API key and task secrets
// redacted out.
import { ApiClient } from '../api/client.js';
import { Redactor } from '../api/redact.js';
import { createCassetteFile } from '../api/cassette.js';
import { DEFAULT_RETRY_POLICY } from '../api/retry.js';
import { DEFAULT_TIMEOUT_SECONDS } from '../contract/limits.js';
import { LIMITS, checkApiKey } from '../contract/validate.js';
import { VERSION } from '../contract/version.js';
import { checked, duration, httpUrl, integer, nonEmptyString } from './input.js';
import { legacyAgentsApi } from './agents.js';
import type { ClientCore } from './core.js';
import { persistentApi } from './persistent.js';
import { scheduleApi } from './schedule.js';
import type { AgentctlClient, ClientOptions } from './surface.js';
import { tasksApi } from './tasks.js';


/** A client of the service. Checks its options at once: a bad one throws InputError naming it. */
export function createClient(options: ClientOptions): AgentctlClient {
  if (typeof options !== 'object' || options === null) throw new TypeError('createClient needs an options object: { baseUrl, apiKey }');
  const baseUrl = httpUrl('baseUrl', options.baseUrl);
  const apiKey = checked('apiKey', () => checkApiKey(String(options.apiKey ?? ''), 'the apiKey option'));
  const redactor = new Redactor();
  redactor.add(apiKey);
  const timeoutMs = options.timeoutMs === undefined ? DEFAULT_TIMEOUT_SECONDS * 1000 : duration('timeoutMs', options.timeoutMs);
  const record = options.record === undefined ? undefined : nonEmptyString('record', options.record);
  if (record !== undefined) checked('record', () => createCassetteFile(record));
  // Refused here, as an InputError naming baseUrl, like every other bad option.
  const api = checked('baseUrl', () => new ApiClient({
    baseUrl,
    allowInsecureHttp: options.allowInsecureHttp === true,
    howToAllowInsecureHttp: 'use https:// if the service has it; to send the key in clear text anyway, pass allowInsecureHttp: true',
    apiKey,
    timeoutMs,
    retry: options.retries === undefined ? DEFAULT_RETRY_POLICY : { ...DEFAULT_RETRY_POLICY, retries: integer('retries', options.retries, 0, 10) },
    maxBodyBytes: options.maxResponseBytes === undefined ? undefined : integer('maxResponseBytes', options.maxResponseBytes, 1, LIMITS.bodyMbCeiling * 1024 * 1024),
    userAgent: options.userAgent ?? `agentctl-client/${VERSION} node/${process.versions.node}`,
    redactor,
    trace: options.trace,
    clock: options.clock,
    signal: options.signal,
    record,
  }));
  const core: ClientCore = {
    api,
    redactor,
    timeoutMs,
    clock: options.clock,
    signal: options.signal,
    call: async (work) => {
      try {
        return await work();
      } catch (error) {
        throw redacted(error, redactor);
      }
    },
    iterate: (items) => ({
      async *[Symbol.asyncIterator]() {
        try {
          yield* items();
        } catch (error) {
          throw redacted(error, redactor);
        }
      },
    }),
  };
  return {
    tasks: tasksApi(core),
    agents: legacyAgentsApi(core),
    persistent: persistentApi(core),
    schedule: scheduleApi(core),
    baseUrl: api.baseUrl,
    close: () => api.close(),
  };
}

/** The error with every known secret taken out of its message and hint (a service may echo a request back). */
function redacted(error: unknown, redactor: Redactor): unknown {
  if (!(error instanceof Error)) return error;
  const message = redactor.redact(error.message);
  if (message !== error.message) error.message = message;
  if (error.stack !== undefined) error.stack = redactor.redact(error.stack);
  const { hint } = error as { hint?: unknown };
  if (typeof hint === 'string' && redactor.redact(hint) !== hint) Object.defineProperty(error, 'hint', { value: redactor.redact(hint) });
  return error;
}
