import { describe, expect, it } from 'vitest';
import { parseListenConfig } from '../../src/commands/webhook-listen/options.js';
import { EventInbox } from '../../src/commands/tasks/webhook-wait.js';
import { publicWebhookUrl } from '../../src/webhooks/listener.js';
import { UsageError } from '../../src/errors.js';
import { columnsForFields, eventRow, plainEventLine, tableHeader, tableRow, EVENT_COLUMNS } from '../../src/webhooks/format.js';
import type { WebhookPayload } from '../../src/webhooks/payload.js';

const ID = '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f';

describe('webhook-listen flags', () => {
  it('has the contract defaults', () => {
    expect(parseListenConfig({ host: '127.0.0.1', port: '0' }, undefined)).toMatchObject({
      host: '127.0.0.1',
      port: 0,
      path: undefined,
      printUrl: false,
      forwardTo: [],
      maxBodyBytes: 1024 * 1024,
      count: undefined,
      timeoutMs: undefined,
    });
  });

  it('reads every flag', () => {
    const config = parseListenConfig(
      { host: '0.0.0.0', port: '9000', path: 'hooks/x', printUrl: true, forwardTo: ['http://127.0.0.1:3000/h', 'https://x.example'], output: 'e.jsonl', task: ID.toUpperCase(), count: '3', maxBody: '2048', drainTimeout: '1.5' },
      '2.5',
    );
    expect(config).toMatchObject({ host: '0.0.0.0', port: 9000, path: '/hooks/x', printUrl: true, outputPath: 'e.jsonl', taskId: ID, count: 3, timeoutMs: 2500, maxBodyBytes: 2048, drainTimeoutMs: 1500 });
    expect(config.forwardTo).toEqual(['http://127.0.0.1:3000/h', 'https://x.example/']);
    expect(parseListenConfig({ once: true }, undefined).count).toBe(1);
  });

  it.each([
    [{ port: '70000' }, undefined, /--port must be between 0 and 65535/],
    [{ port: 'abc' }, undefined, /--port must be a whole number/],
    [{ forwardTo: ['ftp://x'] }, undefined, /--forward-to must be an http/],
    [{ forwardTo: ['not a url'] }, undefined, /--forward-to "not a url" is not a URL/],
    [{ task: 'abc' }, undefined, /--task "abc" is not a UUID/],
    [{ count: '0' }, undefined, /--count must be between 1/],
    [{ count: '2', once: true }, undefined, /--once or --count/],
    [{}, 'soon', /--timeout must be a number of seconds/],
    [{ path: 'a b' }, undefined, /--path/],
    [{ output: '-' }, undefined, /--output needs a file path/],
    [{ maxBody: '1' }, undefined, /--max-body must be between/],
  ])('rejects %o (timeout %s) before starting', (options, timeout, message) => {
    expect(() => parseListenConfig(options as Record<string, unknown>, timeout)).toThrow(UsageError);
    expect(() => parseListenConfig(options as Record<string, unknown>, timeout)).toThrow(message);
  });
});

describe('tasks create --webhook-listen helpers', () => {
  it('appends the secret path to a public URL', () => {
    expect(publicWebhookUrl('https://abc.tunnel.example', '/s3cret')).toBe('https://abc.tunnel.example/s3cret');
    expect(publicWebhookUrl('https://abc.tunnel.example/hooks/', '/s3cret')).toBe('https://abc.tunnel.example/hooks/s3cret');
    expect(publicWebhookUrl('http://h:8080/p?x=1', '/s')).toBe('http://h:8080/p/s?x=1');
  });

  it('EventInbox keeps an event that arrives before anyone waits for it, and the first one per task', async () => {
    const inbox = new EventInbox();
    const payload = (status: 'completed' | 'failed'): WebhookPayload => ({ id: ID, status, agent_id: null, result: null, error_message: 'x' });
    inbox.add(payload('completed'));
    inbox.add(payload('failed'));
    await expect(inbox.waitFor(ID.toUpperCase(), new AbortController().signal)).resolves.toMatchObject({ status: 'completed' });
    const other = '11111111-2222-4333-8444-555555555555';
    const waiting = inbox.waitFor(other, new AbortController().signal);
    inbox.add({ ...payload('failed'), id: other });
    await expect(waiting).resolves.toMatchObject({ status: 'failed' });
    const abort = new AbortController();
    const aborted = inbox.waitFor('22222222-2222-4333-8444-555555555555', abort.signal);
    abort.abort(new Error('stop'));
    await expect(aborted).rejects.toThrow('stop');
  });
});

describe('event rows', () => {
  const record = {
    received_at: '2026-11-22T14:03:12.345Z',
    headers: { 'user-agent': 'Gobii-AgentWebhook/1.0', 'content-type': 'application/json' },
    body: { id: ID, status: 'failed' as const, agent_id: null, result: null, error_message: 'it\tbroke\nbadly' },
  };

  it('pipes as tab-separated columns with nothing shortened', () => {
    expect(plainEventLine(eventRow(record))).toBe(`2026-11-22T14:03:12.345Z\t${ID}\tfailed\t\tit broke badly\tGobii-AgentWebhook/1.0`);
    expect(plainEventLine(eventRow(record), ['status', 'id'])).toBe(`failed\t${ID}`);
  });

  it('lines table rows up under a header and fits the width', () => {
    const header = tableHeader(EVENT_COLUMNS, 80);
    const row = tableRow(EVENT_COLUMNS, { ...eventRow(record), detail: 'x'.repeat(200) }, 80);
    expect(header.indexOf('TASK')).toBe(row.indexOf(ID));
    expect(header.indexOf('STATUS')).toBe(row.indexOf('failed'));
    expect(row.length).toBeLessThanOrEqual(80);
    expect(row.startsWith('14:03:12.345')).toBe(true);
    expect(row.endsWith('…')).toBe(true);
    expect(columnsForFields(['status', 'nope']).map((c) => c.header)).toEqual(['STATUS', 'NOPE']);
  });
});
