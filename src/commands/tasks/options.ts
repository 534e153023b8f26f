// The flags several `tasks` verbs share, as definitions and the parse steps that check them.
import type { ArgumentSpec, OptionSpec, ParseInput } from '../../cli/define.js';
import type { TaskScope } from '../../api/tasks.js';
import { DEFAULT_MAX_INTERVAL_MS, DEFAULT_MAX_OUTAGE_MS, pollsInWait } from '../../api/wait.js';
import { splitTwoWords } from '../../cli/argv.js';
import { checkUuid, parseIntegerFlag, parseSecondsFlag, splitPair } from '../../contract/validate.js';
import type { TaskFieldOptions } from './body.js';

export const ID = '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f';
export const TASK_ID_ARG: ArgumentSpec = { name: '<id>', description: 'task id (UUID)' };

export const AGENT_OPTION: OptionSpec = { flags: '--agent <id>', description: 'use the agent-scoped routes of this browser-use agent (UUID)' };

/** The task fields shared by create, update and replace. */
export const TASK_FIELD_OPTIONS: OptionSpec[] = [
  { flags: '--prompt-file <path>', description: 'read the prompt from a file (- for stdin)' },
  { flags: '--output-schema <path|json>', description: 'JSON Schema for a structured result: a file, @file, - for stdin, or inline JSON; checked as the service checks it (draft 2020-12, at most 40 levels) before any request' },
  { flags: '--secret <domain> <key=value>', description: 'a secret for a domain (repeatable; argv is visible to others, prefer the next two)', repeatable: true },
  { flags: '--secrets-file <path>', description: 'secrets as JSON: {"https://site": {"KEY": "value"}} (- for stdin)' },
  { flags: '--secret-env <domain> <key=envvar>', description: 'a secret read from an environment variable (repeatable)', repeatable: true },
  { flags: '--webhook <url>', description: 'http(s) URL called once when the task ends' },
];

/** The limits shared by every waiting command, explained once. */
export const WAIT_LIMITS_HELP =
  'Waiting: polls start 0.1 s apart and grow with the time waited (10% of it) up to --interval, so a\n' +
  `short task is noticed within ~0.2 s and a 10-minute wait costs about ${pollsInWait(600_000)} requests (at --interval 2).\n` +
  '--timeout SEC limits the whole command here (with --follow, the create too), not one request; it then exits 7\n' +
  'with the command that resumes the wait. While the service is unreachable (network errors, 5xx, 429)\n' +
  'the wait keeps trying with backoff (Retry-After honoured) and says so on stderr; after --max-outage\n' +
  `SEC (default ${DEFAULT_MAX_OUTAGE_MS / 1000}) it gives up: exit 8 (unreachable) or 1 (service errors), with the resume command.`;

/** --agent ID: the agent-scoped routes; without it, the standalone task routes. */
export function parseScope(input: ParseInput): TaskScope {
  const agent = input.string('agent');
  return agent === undefined ? {} : { agentId: checkUuid(agent, '--agent') };
}

export function parseTaskId(input: ParseInput, index = 0): string {
  return checkUuid(input.arg(index) ?? '', 'task id');
}

/** The task fields, checked; files and stdin are read when the body is built (see body.ts). */
export function parseTaskFields(input: ParseInput): TaskFieldOptions {
  const webhook = input.value('webhook'); // false: --no-webhook (update)
  const wait = input.string('wait');
  const creditsCost = input.string('creditsCost');
  return {
    promptFile: input.string('promptFile'),
    outputSchema: input.string('outputSchema'),
    secretsFile: input.string('secretsFile'),
    secrets: input.list('secret').map((raw) => {
      const [domain, pair] = splitTwoWords(raw);
      const [key, value] = splitPair(pair, '--secret');
      return { domain, key, value };
    }),
    secretsFromEnv: input.list('secretEnv').map((raw) => {
      const [domain, pair] = splitTwoWords(raw);
      const [key, variable] = splitPair(pair, '--secret-env', 'ENVVAR');
      return { domain, key, variable };
    }),
    // Checked where the body is built (src/core/task-body.ts): here only turned into values.
    webhook: webhook === false ? null : typeof webhook === 'string' ? webhook : undefined,
    wait: wait === undefined ? undefined : parseIntegerFlag(wait, '--wait', Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
    creditsCost,
  };
}

/** --interval and --max-outage, and the global --timeout, which in a waiting command is the whole wait (startWait makes them a wait's limits). */
export interface WaitFlags {
  maxIntervalMs: number;
  maxOutageMs: number;
  timeoutMs?: number;
}

export function parseWaitLimits(input: ParseInput): WaitFlags {
  const interval = input.string('interval');
  const maxOutage = input.string('maxOutage');
  const timeout = input.globals.timeout;
  return {
    maxIntervalMs: interval === undefined ? DEFAULT_MAX_INTERVAL_MS : parseSecondsFlag(interval, '--interval', 0.05) * 1000,
    maxOutageMs: maxOutage === undefined ? DEFAULT_MAX_OUTAGE_MS : parseSecondsFlag(maxOutage, '--max-outage') * 1000,
    timeoutMs: timeout === undefined ? undefined : parseSecondsFlag(timeout, '--timeout') * 1000,
  };
}
