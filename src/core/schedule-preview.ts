// Previewing a schedule offline, as a core operation: the grammar the service accepts, a description
// and the next fire times (UTC), and the body of the service's own preview. Errors name the field
// (`expression`, `count`, `from`, `timezone`, `agent_id`).
import { InputError } from '../errors.js';
import { integer, string, uuid } from './checks.js';
import { pyStrip } from '../schedule/py.js';
import { checkTimeZone, describeSchedule, formatInZone, nextFireTimes, parseSchedule, ScheduleCrash, ScheduleError } from '../schedule/index.js';

/**
 * The local answer, in the contract's JSON shape. `valid` is false only where the service neither
 * accepts nor refuses the expression (its parser crashes: a 500); `warning` then says why.
 */
export interface LocalPreview {
  expression: string;
  valid: boolean;
  description: string;
  next: string[];
  warning?: string;
}

/** An ISO 8601 instant (a date at least), or an input error about `field`. */
export function parseInstant(text: string, field = 'from'): Date {
  const date = new Date(text);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text) || Number.isNaN(date.getTime())) throw new InputError(field, `"${text}" is not an ISO 8601 instant (e.g. 2026-03-01T09:00:00Z)`);
  return date;
}

/** An IANA time zone name in its canonical spelling, or an input error about `field`. */
export function parseTimeZone(text: string, field = 'timezone'): string {
  try {
    return checkTimeZone(text);
  } catch (error) {
    if (!(error instanceof ScheduleError)) throw error;
    throw new InputError(field, `"${text}" is not a time zone: use an IANA name such as Europe/Oslo, America/New_York or UTC`);
  }
}

/**
 * Fire times (ISO, UTC) as wall-clock times in `timeZone`, and whether the zone's UTC offset differs
 * among them: a schedule runs in UTC, so across a daylight-saving change it fires at another local hour.
 */
export function inZone(next: string[], timeZone: string): { local: string[]; offsetChanges: boolean } {
  const local = next.map((iso) => formatInZone(new Date(iso), timeZone));
  const offsets = new Set(local.map((text) => text.slice(text.lastIndexOf(' ') + 1)));
  return { local, offsetChanges: offsets.size > 1 };
}

/**
 * Checks the expression with the service's grammar and lists its next `count` fire times after
 * `from`, with the description the service's preview gives. An empty or refused expression is an
 * input error about `expression` (a refusal has the grammar's error, in the service's words, as its
 * `cause`); one the service crashes on is no error here but a `warning`.
 */
export function previewSchedule(expression: string, from: Date, count: number): LocalPreview {
  if (pyStrip(expression) === '') throw new InputError('expression', 'is empty (an empty schedule turns an agent\'s schedule off)');
  try {
    const schedule = parseSchedule(expression);
    return {
      expression,
      valid: true,
      description: describeSchedule(schedule),
      next: nextFireTimes(schedule, from, count).map((date) => date.toISOString()),
    };
  } catch (error) {
    if (error instanceof ScheduleCrash) return { expression, valid: false, description: expression, next: [], warning: error.message };
    if (!(error instanceof ScheduleError)) throw error;
    throw Object.assign(new InputError('expression', `"${expression}" is not a schedule: ${error.message}`), { cause: error });
  }
}

/** How many fire times a preview lists unless told, and at most. */
export const PREVIEW_COUNT = { default: 5, max: 1000 } as const;

/** What a face asks a preview for, as the core names it. */
export interface PreviewInput {
  expression: unknown;
  count?: unknown;
  /** An ISO 8601 instant (text) or a Date; default now. */
  from?: unknown;
  timezone?: unknown;
  /** Also ask the service (its preview of this agent's schedule). */
  agent_id?: unknown;
}

/** A preview's request, checked. */
export interface PreviewRequest {
  expression: string;
  count: number;
  from: Date;
  timeZone?: string;
  agentId?: string;
}

/** Checks what a preview was asked for, each field by its name; `now` is the clock's. */
export function previewRequest(input: PreviewInput, now: Date): PreviewRequest {
  const expression = string('expression', input.expression);
  const count = input.count === undefined ? PREVIEW_COUNT.default : integer('count', input.count, 1, PREVIEW_COUNT.max);
  let from = now;
  if (input.from instanceof Date) {
    if (Number.isNaN(input.from.getTime())) throw new InputError('from', 'must be a valid Date');
    from = input.from;
  } else if (input.from !== undefined) from = parseInstant(string('from', input.from));
  const timeZone = input.timezone === undefined ? undefined : parseTimeZone(string('timezone', input.timezone));
  const agentId = input.agent_id === undefined ? undefined : uuid('agent_id', input.agent_id);
  return { expression, count, from, timeZone, agentId };
}

/** The body of the service's preview of an agent's schedule: the agent's fields, its name with the schedule. */
export function serviceScheduleBody(name: string, expression: string): { name: string; schedule: string } {
  return { name, schedule: expression };
}
