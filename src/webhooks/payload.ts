// The task-completion webhook as the service sends it (service-spec.md "Events",
// docs/service-behaviour.md "Completion webhook"), checked without zod so the listener stays light.
import { isUuid } from '../contract/ids.js';

export const WEBHOOK_STATUSES = ['completed', 'failed', 'cancelled'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

/**
 * One completion event. completed: `{id, status, agent_id, result}`; failed: `{..., result: null,
 * error_message}`; cancelled: `{..., result: null, message}`. Extra fields are kept as sent.
 */
export interface WebhookPayload {
  id: string;
  status: WebhookStatus;
  agent_id: string | null;
  result: unknown;
  error_message?: string | null;
  message?: string;
  [key: string]: unknown;
}

export type PayloadCheck = { ok: true; payload: WebhookPayload } | { ok: false; reason: string };


/** The service's user agent is `<Service>-AgentWebhook/<version>`; others are accepted but flagged. */
export const SERVICE_USER_AGENT = /^[^\s/]+-AgentWebhook\/\S+/;

export function isServiceUserAgent(userAgent: string | undefined | null): boolean {
  return typeof userAgent === 'string' && SERVICE_USER_AGENT.test(userAgent);
}

/** `application/json`, `application/json; charset=utf-8`, or any `+json` media type. */
export function isJsonContentType(contentType: string | undefined | null): boolean {
  if (!contentType) return false;
  const media = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return media === 'application/json' || /^application\/[\w.+-]+\+json$/.test(media);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `a ${typeof value}`;
}

/** Checks a parsed body against the three shapes of the spec: required fields and their types. */
export function checkPayload(value: unknown): PayloadCheck {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, reason: `the body must be a JSON object, got ${describe(value)}` };
  }
  const body = value as Record<string, unknown>;
  if (!('id' in body)) return { ok: false, reason: 'missing "id"' };
  if (typeof body.id !== 'string' || !isUuid(body.id)) return { ok: false, reason: `"id" must be a UUID string, got ${describe(body.id)}` };
  if (!('status' in body)) return { ok: false, reason: 'missing "status"' };
  if (typeof body.status !== 'string' || !(WEBHOOK_STATUSES as readonly string[]).includes(body.status)) {
    return { ok: false, reason: `"status" must be one of ${WEBHOOK_STATUSES.join(', ')}, got ${describe(body.status)}` };
  }
  const status = body.status as WebhookStatus;
  if (!('agent_id' in body)) return { ok: false, reason: 'missing "agent_id" (it may be null, but it is always sent)' };
  if (body.agent_id !== null && typeof body.agent_id !== 'string') {
    return { ok: false, reason: `"agent_id" must be a string or null, got ${describe(body.agent_id)}` };
  }
  if (!('result' in body)) return { ok: false, reason: `missing "result" for a ${status} event` };

  if (status === 'failed' || status === 'cancelled') {
    if (body.result !== null) return { ok: false, reason: `"result" must be null for a ${status} event, got ${describe(body.result)}` };
  }
  if (status === 'failed') {
    if (!('error_message' in body)) return { ok: false, reason: 'missing "error_message" for a failed event' };
    if (body.error_message !== null && typeof body.error_message !== 'string') {
      return { ok: false, reason: `"error_message" must be a string, got ${describe(body.error_message)}` };
    }
  }
  if (status === 'cancelled') {
    if (!('message' in body)) return { ok: false, reason: 'missing "message" for a cancelled event' };
    if (typeof body.message !== 'string') return { ok: false, reason: `"message" must be a string, got ${describe(body.message)}` };
  }
  return { ok: true, payload: body as WebhookPayload };
}

/** Parses raw bytes as JSON (UTF-8) and checks the shape. */
export function parsePayload(raw: Buffer | string): PayloadCheck {
  const text = typeof raw === 'string' ? raw : raw.toString('utf8');
  if (text.trim() === '') return { ok: false, reason: 'the body is empty' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `the body is not valid JSON (${(error as Error).message})` };
  }
  return checkPayload(value);
}

/** A short human line about an event's outcome: the result, the error or the message. */
export function outcomeText(payload: WebhookPayload): string {
  if (payload.status === 'failed') return String(payload.error_message ?? '');
  if (payload.status === 'cancelled') return String(payload.message ?? '');
  const result = payload.result;
  if (result === null || result === undefined) return '';
  return typeof result === 'string' ? result : JSON.stringify(result);
}
