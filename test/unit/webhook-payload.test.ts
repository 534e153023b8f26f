import { describe, expect, it } from 'vitest';
import { checkPayload, isJsonContentType, isServiceUserAgent, outcomeText, parsePayload } from '../../src/webhooks/payload.js';

const ID = '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f';
const AGENT = '82965f8a-9700-4806-ad3e-af00e28ad71d';

const completed = { id: ID, status: 'completed', agent_id: AGENT, result: 'done' };
const failed = { id: ID, status: 'failed', agent_id: AGENT, result: null, error_message: 'boom' };
const cancelled = { id: ID, status: 'cancelled', agent_id: null, result: null, message: 'Task has been cancelled.' };

function reason(value: unknown): string {
  const check = checkPayload(value);
  if (check.ok) throw new Error('expected a rejection');
  return check.reason;
}

describe('checkPayload: the three shapes of the spec', () => {
  it('accepts completed, failed and cancelled events (agent_id may be null, extra fields kept)', () => {
    for (const body of [completed, failed, cancelled, { ...completed, agent_id: null, result: { price: 3 } }, { ...completed, extra: 1 }]) {
      const check = checkPayload(body);
      expect(check.ok, JSON.stringify(body)).toBe(true);
      if (check.ok) expect(check.payload).toEqual(body);
    }
  });

  it('accepts a completed event whose result is null (no result stored)', () => {
    expect(checkPayload({ ...completed, result: null }).ok).toBe(true);
  });

  it('rejects what is not an object', () => {
    expect(reason([completed])).toMatch(/JSON object, got an array/);
    expect(reason('x')).toMatch(/JSON object/);
    expect(reason(null)).toMatch(/got null/);
  });

  it('names the missing or mistyped field', () => {
    const { id: _id, ...noId } = completed;
    expect(reason(noId)).toBe('missing "id"');
    expect(reason({ ...completed, id: 'task-1' })).toMatch(/"id" must be a UUID/);
    expect(reason({ ...completed, id: 42 })).toMatch(/"id" must be a UUID string, got a number/);
    const { status: _s, ...noStatus } = completed;
    expect(reason(noStatus)).toBe('missing "status"');
    expect(reason({ ...completed, status: 'in_progress' })).toMatch(/"status" must be one of completed, failed, cancelled/);
    const { agent_id: _a, ...noAgent } = completed;
    expect(reason(noAgent)).toMatch(/missing "agent_id"/);
    expect(reason({ ...completed, agent_id: 7 })).toMatch(/"agent_id" must be a string or null/);
    const { result: _r, ...noResult } = completed;
    expect(reason(noResult)).toBe('missing "result" for a completed event');
  });

  it('checks the failed shape: result null, error_message a string', () => {
    expect(reason({ ...failed, result: 'x' })).toMatch(/"result" must be null for a failed event/);
    const { error_message: _e, ...noError } = failed;
    expect(reason(noError)).toBe('missing "error_message" for a failed event');
    expect(reason({ ...failed, error_message: { a: 1 } })).toMatch(/"error_message" must be a string/);
  });

  it('checks the cancelled shape: result null, message a string', () => {
    expect(reason({ ...cancelled, result: {} })).toMatch(/"result" must be null for a cancelled event/);
    const { message: _m, ...noMessage } = cancelled;
    expect(reason(noMessage)).toBe('missing "message" for a cancelled event');
    expect(reason({ ...cancelled, message: null })).toMatch(/"message" must be a string, got null/);
  });
});

describe('parsePayload', () => {
  it('parses UTF-8 JSON and checks it', () => {
    expect(parsePayload(Buffer.from(JSON.stringify({ ...completed, result: 'ok ✓' }))).ok).toBe(true);
  });
  it('rejects empty bodies and invalid JSON with a reason', () => {
    expect(parsePayload('')).toEqual({ ok: false, reason: 'the body is empty' });
    const check = parsePayload('{"id": ');
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.reason).toMatch(/not valid JSON/);
  });
});

describe('headers', () => {
  it('knows JSON content types', () => {
    expect(isJsonContentType('application/json')).toBe(true);
    expect(isJsonContentType('Application/JSON; charset=utf-8')).toBe(true);
    expect(isJsonContentType('application/vnd.api+json')).toBe(true);
    expect(isJsonContentType('text/plain')).toBe(false);
    expect(isJsonContentType('application/x-www-form-urlencoded')).toBe(false);
    expect(isJsonContentType(undefined)).toBe(false);
  });
  it('recognises the service user agent pattern *-AgentWebhook/*', () => {
    expect(isServiceUserAgent('Gobii-AgentWebhook/1.0')).toBe(true);
    expect(isServiceUserAgent('Agentctl-Emulator-AgentWebhook/1.0')).toBe(true);
    expect(isServiceUserAgent('curl/8.5.0')).toBe(false);
    expect(isServiceUserAgent(null)).toBe(false);
  });
});

describe('outcomeText', () => {
  it('shows the result, the error or the message', () => {
    expect(outcomeText(completed as never)).toBe('done');
    expect(outcomeText({ ...completed, result: { a: 1 } } as never)).toBe('{"a":1}');
    expect(outcomeText(failed as never)).toBe('boom');
    expect(outcomeText(cancelled as never)).toBe('Task has been cancelled.');
  });
});
