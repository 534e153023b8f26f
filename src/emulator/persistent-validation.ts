import { LIFE_STATES, WHITELIST_POLICIES } from '../contract/enums.js';
import { SERVICE_LIMITS as LIMITS } from '../contract/limits.js';
import { randomUUID } from 'node:crypto';
import { parseSchedule, ScheduleCrash, ScheduleError, type Schedule } from '../schedule/index.js';
import type { FormSpec } from './form.js';
import { HttpError, serverError } from './http.js';
import { boolean, checkFields, FieldProblem, integer, problem, pythonStr, pythonTypeName, readUuid, text } from './validation.js';

const dailyLimit = integer(0, 2147483647);
import { CHANNELS, CONTACT_APPROVAL_MODES, LLM_TIERS, type Channel, type ContactApprovalMode, type LifeState, type WhitelistPolicy } from './persistent-state.js';

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
  contact_approval_mode?: ContactApprovalMode;
  /** A tier key; null (or blank) means the default tier. */
  preferred_llm_tier?: string;
  daily_credit_limit?: number | null;
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


/** How the persistent agent serializer reads a form (a full form without is_active makes the agent inactive, as in DRF). */
export const PERSISTENT_FORM: FormSpec = {
  name: { kind: 'text' },
  charter: { kind: 'text', blank: true },
  schedule: { kind: 'text', nullable: true, blank: true },
  schedule_snapshot: { kind: 'text', nullable: true, blank: true },
  is_active: { kind: 'bool' },
  life_state: { kind: 'text' },
  whitelist_policy: { kind: 'text' },
  contact_approval_mode: { kind: 'text' },
  preferred_llm_tier: { kind: 'text', nullable: true },
  daily_credit_limit: { kind: 'text', nullable: true },
  preferred_contact_endpoint: { kind: 'text', nullable: true },
  proactive_opt_in: { kind: 'bool' },
  template_code: { kind: 'text', nullable: true, blank: true },
  enabled_personal_server_ids: { kind: 'list' },
};

export const MESSAGE_FORM: FormSpec = {
  channel: { kind: 'text', required: true },
  sender: { kind: 'text', required: true },
  recipient: { kind: 'text', nullable: true, blank: true },
  subject: { kind: 'text', nullable: true, blank: true },
  body: { kind: 'text', required: true },
  metadata: { kind: 'dict' },
};

export const PREVIEW_FORM: FormSpec = { schedule: { kind: 'text', blank: true, required: true } };

/** DRF's ChoiceField: null is refused as null; another value is looked up by its Python text and named so. */
function choice<T extends string>(choices: readonly T[]) {
  return (value: unknown): T => {
    if (value === null) throw problem('This field may not be null.');
    const key = pythonStr(value);
    if ((choices as readonly string[]).includes(key)) return key as T;
    throw problem(`"${key}" is not a valid choice.`);
  };
}

/**
 * The schedule of a preview request: required and not null (400 as the service's serializer says);
 * blank disables; otherwise the shared grammar decides (api/views.py, schedule_preview): a refusal is
 * a `{"schedule": [message]}` 400, and what crashes the service's parser a 500.
 */
export function checkPreviewSchedule(value: unknown): { expression: string | null; schedule?: Schedule } {
  if (value === undefined) throw new HttpError(400, { schedule: ['This field is required.'] });
  try {
    return scheduleField(value, false, Number.POSITIVE_INFINITY);
  } catch (error) {
    if (error instanceof FieldProblem) throw new HttpError(400, { schedule: error.detail });
    if (error instanceof ScheduleCrash) throw serverError(randomUUID());
    throw error;
  }
}

/**
 * A saved schedule the service's parser crashes on: PersistentAgent.clean (full_clean, after the
 * fields are checked) catches only ValueError, so the request ends in a 500 and nothing is saved.
 */
export function checkScheduleCrash(expression: string | null | undefined): void {
  if (expression == null || expression.trim() === '') return;
  try {
    parseSchedule(expression);
  } catch (error) {
    if (error instanceof ScheduleCrash) throw serverError(randomUUID());
    if (!(error instanceof ScheduleError)) throw error;
  }
}

function scheduleField(value: unknown, nullable = false, max: number = LIMITS.schedule): { expression: string | null; schedule?: Schedule } {
  const expression = text(max, { nullable, blank: true })(value);
  if (expression === null || expression === '') return { expression: null };
  try {
    return { expression, schedule: parseSchedule(expression) };
  } catch (error) {
    if (error instanceof ScheduleError) throw problem(error.message);
    // A crash is no field error: the preview answers 500 at once, a save after the other checks.
    if (error instanceof ScheduleCrash && max !== Number.POSITIVE_INFINITY) return { expression };
    throw error;
  }
}

/** Whose contact endpoint an id names: this agent's (or no agent's), another agent's, or none that exists. */
export type EndpointOwner = 'this agent' | 'another agent' | undefined;

/**
 * The serializer's field checks. `endpointOwner` looks up a preferred_contact_endpoint id
 * (PreferredEndpointInputField.to_internal_value, then validate_preferred_contact_endpoint).
 */
export function checkAgentBody(body: Record<string, unknown>, endpointOwner: (id: string) => EndpointOwner): AgentChanges {
  return checkFields<AgentChanges>(body, {
    name: (value) => text(LIMITS.persistentAgentName)(value) as string,
    charter: (value) => text(Number.POSITIVE_INFINITY, { blank: true })(value) as string,
    // Blank disables the schedule and is kept as sent: DRF's CharField(allow_blank) gives '' back.
    schedule: (value) => (scheduleField(value, true).expression ?? (value === null ? null : '')),
    schedule_snapshot: (value) => text(LIMITS.schedule, { nullable: true, blank: true })(value),
    is_active: boolean,
    life_state: choice<LifeState>(LIFE_STATES),
    whitelist_policy: choice<WhitelistPolicy>(WHITELIST_POLICIES),
    contact_approval_mode: choice<ContactApprovalMode>(CONTACT_APPROVAL_MODES),
    preferred_llm_tier: (value) => {
      // A SlugRelatedField on the tier's key; null or blank picks the default tier.
      if (value === null || value === '') return 'standard';
      const key = pythonStr(value);
      if (!(LLM_TIERS as readonly string[]).includes(key)) throw problem(`Object with key=${key} does not exist.`);
      return key;
    },
    // A PositiveIntegerField(null=True): DRF's IntegerField(min_value=0, max_value=2147483647, allow_null=True).
    daily_credit_limit: (value) => (value === null ? null : dailyLimit(value)),
    preferred_contact_endpoint: (value) => {
      if (value === null) return null;
      if (typeof value === 'string') {
        const key = value.trim().toLowerCase();
        if (key === 'email' || key === 'sms') return key;
        if (readUuid(key) !== undefined) {
          const id = readUuid(key)!;
          const owner = endpointOwner(id);
          if (owner === undefined) throw problem(`Contact endpoint does not exist: ${key}.`);
          if (owner === 'another agent') throw problem('Contact endpoint belongs to a different agent.');
          return id;
        }
      }
      throw problem('preferred_contact_endpoint must be "email", "sms", or a valid endpoint id.');
    },
    proactive_opt_in: boolean,
    template_code: (value) => text(Number.POSITIVE_INFINITY, { nullable: true, blank: true })(value),
    enabled_personal_server_ids: (value) => {
      if (value === null) throw problem('This field may not be null.');
      if (!Array.isArray(value)) throw problem(`Expected a list of items but got type "${pythonTypeName(value)}".`);
      const errors: Record<string, string[]> = {};
      // Each item read as DRF's UUIDField reads one (any spelling Python's uuid.UUID takes, or an integer).
      const ids = value.map((item, index) => readUuid(item) ?? void (errors[String(index)] = ['Must be a valid UUID.']));
      if (Object.keys(errors).length > 0) throw new FieldProblem(errors);
      return [...new Set(ids as string[])];
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
      body: (value) => text(Number.POSITIVE_INFINITY)(value) as string,
      recipient: (value) => text(LIMITS.messageRecipient, { nullable: true, blank: true })(value) || null,
      subject: (value) => text(LIMITS.messageSubject, { nullable: true, blank: true })(value) || null,
      metadata: (value) => {
        if (value === null) throw problem('This field may not be null.');
        if (typeof value !== 'object' || Array.isArray(value)) throw problem(`Expected a dictionary of items but got type "${pythonTypeName(value)}".`);
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
