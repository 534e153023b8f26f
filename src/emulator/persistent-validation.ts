import { LIFE_STATES, WHITELIST_POLICIES } from '../contract/enums.js';
import { SERVICE_LIMITS as LIMITS } from '../contract/limits.js';
import { parseSchedule, ScheduleError, type Schedule } from '../schedule/index.js';
import { HttpError, UUID_PATTERN } from './http.js';
import { CHANNELS, type Channel, type LifeState, type WhitelistPolicy } from './persistent-state.js';

// The service's checks of a persistent agent body and of a message, in its error shapes: every
// field's problems at once, `{"field": ["message"]}` (list fields: `{"field": {"<index>": [...]}}`).

export interface AgentChanges {
  name?: string;
  charter?: string;
  schedule?: string | null;
  schedule_snapshot?: string | null;
  is_active?: boolean;
  life_state?: LifeState;
  whitelist_policy?: WhitelistPolicy;
  /** 'email', 'sms' (lower-cased) or an endpoint id (lower-cased), or null to clear. */
  preferred_contact_endpoint?: string | null;
  proactive_opt_in?: boolean;
  template_code?: string | null;
  enabled_personal_server_ids?: string[];
}

export interface MessageInput {
  channel: Channel;
  sender: string;
  body: string;
  recipient: string | null;
  subject: string | null;
  metadata?: Record<string, unknown>;
}

const UUID = new RegExp(`^${UUID_PATTERN}$`);
const TRUE = new Set(['t', 'y', 'yes', 'true', 'on', '1']);
const FALSE = new Set(['f', 'n', 'no', 'false', 'off', '0']);

/** A rejected field: the value of the field's entry in the 400 body. */
class FieldProblem extends Error {
  constructor(readonly detail: string[] | Record<string, string[]>) {
    super('invalid field');
  }
}

const problem = (message: string) => new FieldProblem([message]);

/** Runs each present field's check; throws one 400 with every problem found. */
function checkFields<T extends object>(body: Record<string, unknown>, checks: { [K in keyof T]-?: (value: unknown) => T[K] }): T {
  const result: Record<string, unknown> = {};
  const errors: Record<string, unknown> = {};
  for (const [field, check] of Object.entries(checks) as [string, (value: unknown) => unknown][]) {
    if (body[field] === undefined) continue;
    try {
      result[field] = check(body[field]);
    } catch (error) {
      if (!(error instanceof FieldProblem)) throw error;
      errors[field] = error.detail;
    }
  }
  if (Object.keys(errors).length > 0) throw new HttpError(400, errors);
  return result as T;
}

function text(max: number, options: { nullable?: boolean; blank?: boolean } = {}) {
  return (value: unknown): string | null => {
    if (value === null) {
      if (options.nullable) return null;
      throw problem('This field may not be null.');
    }
    if (typeof value !== 'string') throw problem('Not a valid string.');
    const trimmed = value.trim();
    if (trimmed === '' && !options.blank) throw problem('This field may not be blank.');
    if ([...trimmed].length > max) throw problem(`Ensure this field has no more than ${max} characters.`);
    return trimmed;
  };
}

function boolean(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  const key = typeof value === 'number' || typeof value === 'string' ? String(value).trim().toLowerCase() : undefined;
  if (key !== undefined && TRUE.has(key)) return true;
  if (key !== undefined && FALSE.has(key)) return false;
  throw problem('Must be a valid boolean.');
}

function choice<T extends string>(choices: readonly T[]) {
  return (value: unknown): T => {
    if (typeof value === 'string' && (choices as readonly string[]).includes(value)) return value as T;
    throw problem(`"${typeof value === 'string' ? value : JSON.stringify(value)}" is not a valid choice.`);
  };
}

/**
 * The schedule of a preview request: required and not null (400 as the service's serializer says);
 * blank disables; otherwise at most 128 characters that the shared grammar accepts. Throws a
 * `{"schedule": [message]}` 400.
 */
export function checkPreviewSchedule(value: unknown): { expression: string | null; schedule?: Schedule } {
  if (value === undefined) throw new HttpError(400, { schedule: ['This field is required.'] });
  try {
    return scheduleField(value);
  } catch (error) {
    if (error instanceof FieldProblem) throw new HttpError(400, { schedule: error.detail });
    throw error;
  }
}

function scheduleField(value: unknown, nullable = false): { expression: string | null; schedule?: Schedule } {
  const expression = text(LIMITS.schedule, { nullable, blank: true })(value);
  if (expression === null || expression === '') return { expression: null };
  try {
    return { expression, schedule: parseSchedule(expression) };
  } catch (error) {
    if (error instanceof ScheduleError) throw problem(error.message);
    throw error;
  }
}

export function checkAgentBody(body: Record<string, unknown>): AgentChanges {
  return checkFields<AgentChanges>(body, {
    name: (value) => text(LIMITS.persistentAgentName)(value) as string,
    charter: (value) => text(Number.POSITIVE_INFINITY, { blank: true })(value) as string,
    schedule: (value) => scheduleField(value, true).expression,
    schedule_snapshot: (value) => text(LIMITS.schedule, { nullable: true, blank: true })(value) || null,
    is_active: boolean,
    life_state: choice<LifeState>(LIFE_STATES),
    whitelist_policy: choice<WhitelistPolicy>(WHITELIST_POLICIES),
    preferred_contact_endpoint: (value) => {
      if (value === null) return null;
      if (typeof value === 'string') {
        const key = value.trim().toLowerCase();
        if (key === 'email' || key === 'sms' || UUID.test(key)) return key;
      }
      throw problem("Must be 'email', 'sms' or a valid endpoint id.");
    },
    proactive_opt_in: boolean,
    template_code: (value) => text(Number.POSITIVE_INFINITY, { nullable: true, blank: true })(value),
    enabled_personal_server_ids: (value) => {
      if (!Array.isArray(value)) throw problem(`Expected a list of items but got type "${value === null ? 'null' : typeof value}".`);
      const errors: Record<string, string[]> = {};
      value.forEach((item, index) => {
        if (typeof item !== 'string' || !UUID.test(item.trim())) errors[String(index)] = ['Must be a valid UUID.'];
      });
      if (Object.keys(errors).length > 0) throw new FieldProblem(errors);
      return [...new Set((value as string[]).map((item) => item.trim().toLowerCase()))];
    },
  });
}

export function checkMessageBody(body: Record<string, unknown>): MessageInput {
  const errors: Record<string, string[]> = {};
  for (const field of ['channel', 'sender', 'body']) {
    if (body[field] === undefined) errors[field] = ['This field is required.'];
  }
  let input: Partial<MessageInput> = {};
  try {
    input = checkFields<Partial<MessageInput>>(body, {
      channel: choice(CHANNELS),
      sender: (value) => text(LIMITS.messageSender)(value) as string,
      body: (value) => {
        if (typeof value !== 'string') throw problem(value === null ? 'This field may not be null.' : 'Not a valid string.');
        if (value.trim() === '') throw problem('This field may not be blank.');
        return value;
      },
      recipient: (value) => text(LIMITS.messageRecipient, { nullable: true, blank: true })(value) || null,
      subject: (value) => text(LIMITS.messageSubject, { nullable: true, blank: true })(value) || null,
      metadata: (value) => {
        if (typeof value !== 'object' || value === null || Array.isArray(value)) {
          throw problem(`Expected a dictionary of items but got type "${Array.isArray(value) ? 'list' : value === null ? 'null' : typeof value}".`);
        }
        return value as Record<string, unknown>;
      },
    });
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    Object.assign(errors, error.body);
  }
  if (Object.keys(errors).length > 0) throw new HttpError(400, errors);
  return { recipient: null, subject: null, ...input } as MessageInput;
}
