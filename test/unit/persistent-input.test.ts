import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseAgentBody } from '../../src/commands/persistent/body.js';
import { parseMessage } from '../../src/commands/persistent/message.js';
import { parseTimelineOptions } from '../../src/commands/persistent/timeline.js';
import { parsePreviewOptions, localPreview } from '../../src/commands/schedule-preview/preview.js';
import { ParseInput } from '../../src/cli/define.js';
import { tempDir } from '../helpers/cli.js';

/** Options as commander would hand them to a parse step, with an empty stdin unless one is given. */
function inputOf(options: Record<string, unknown>, positional: Array<string | string[] | undefined> = [], stdin: NodeJS.ReadableStream = Readable.from([])): ParseInput {
  return new ParseInput(positional, options, {}, () => 'cli', () => stdin);
}

const UUID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

describe('persistent agent fields', () => {
  it('sends only the flags given, with the service field names', async () => {
    const body = await parseAgentBody(inputOf({ name: 'scout', charter: 'Watch prices', schedule: '@daily', paused: true, lifeState: 'active', whitelistPolicy: 'manual', preferredContact: 'EMAIL', proactive: false, templateCode: 'T1', mcpServer: [UUID.toUpperCase()] }), 'create');
    expect(body).toEqual({
      name: 'scout',
      charter: 'Watch prices',
      schedule: '@daily',
      is_active: false,
      life_state: 'active',
      whitelist_policy: 'manual',
      preferred_contact_endpoint: 'email',
      proactive_opt_in: false,
      template_code: 'T1',
      enabled_personal_server_ids: [UUID],
    });
    expect(await parseAgentBody(inputOf({}), 'create')).toEqual({});
  });

  it('clears the schedule with --no-schedule and with a blank expression', async () => {
    expect(await parseAgentBody(inputOf({ schedule: false }), 'update')).toEqual({ schedule: null });
    expect(await parseAgentBody(inputOf({ schedule: '  ' }), 'update')).toEqual({ schedule: null });
  });

  it('reads the charter from a file', async () => {
    const file = join(tempDir(), 'charter.md');
    writeFileSync(file, 'Find new listings every morning.\n');
    expect((await parseAgentBody(inputOf({ charterFile: file }), 'update')).charter).toBe('Find new listings every morning.\n');
    await expect(parseAgentBody(inputOf({ charterFile: join(tempDir(), 'missing.md') }), 'update')).rejects.toThrow('--charter-file: cannot read');
  });

  it('refuses contradictions, empty updates, a replace without a name, and limits', async () => {
    await expect(parseAgentBody(inputOf({ active: true, paused: true }), 'update')).rejects.toThrow('--active and --paused contradict');
    await expect(parseAgentBody(inputOf({ charter: 'a', charterFile: 'b' }), 'update')).rejects.toThrow('give the charter once');
    await expect(parseAgentBody(inputOf({}), 'update')).rejects.toThrow('nothing to update');
    await expect(parseAgentBody(inputOf({ charter: 'x' }), 'replace')).rejects.toThrow('--name is required');
    await expect(parseAgentBody(inputOf({ name: 'n'.repeat(256) }), 'create')).rejects.toThrow('--name is 256 characters long; the limit is 255');
    await expect(parseAgentBody(inputOf({ mcpServer: ['nope'] }), 'update')).rejects.toThrow('--mcp-server "nope" is not a UUID');
  });

  it('checks the schedule with the service grammar before sending it', async () => {
    const schedule = (value: string) => parseAgentBody(inputOf({ schedule: value }), 'update');
    expect((await schedule('@every 1h 30m')).schedule).toBe('@every 1h 30m');
    await expect(schedule('@midnight')).rejects.toThrow('--schedule "@midnight" is not a schedule');
    await expect(schedule('0 0 * * 7')).rejects.toThrow('--schedule "0 0 * * 7"');
    await expect(schedule(`@every ${'1s '.repeat(50)}`)).rejects.toThrow('Ensure this field has no more than 128 characters.');
    await expect(schedule('@midnight')).rejects.toMatchObject({ hint: "check it with: agentctl schedule-preview '@midnight'" });
  });

  it('accepts email, sms or an endpoint UUID as the preferred contact', async () => {
    const contact = async (value: string) => (await parseAgentBody(inputOf({ preferredContact: value }), 'update')).preferred_contact_endpoint;
    expect(await contact('SMS')).toBe('sms');
    expect(await contact(UUID)).toBe(UUID);
    await expect(contact('slack')).rejects.toThrow('--preferred-contact "slack" is not email, sms or an endpoint UUID');
  });
});

describe('persistent message input', () => {
  it('builds the message body with optional fields', async () => {
    expect(await parseMessage('hello', inputOf({ channel: 'email', sender: 'a@example.com', subject: 'Hi', recipient: 'agent@example.com', metadata: '{"ticket":42}' }))).toEqual({
      channel: 'email',
      sender: 'a@example.com',
      body: 'hello',
      subject: 'Hi',
      recipient: 'agent@example.com',
      metadata: { ticket: 42 },
    });
  });

  it('refuses an empty body, non-object metadata and two readers of stdin', async () => {
    await expect(parseMessage('  ', inputOf({ channel: 'web', sender: 'me' }))).rejects.toThrow('the message body is empty');
    await expect(parseMessage('hi', inputOf({ channel: 'web', sender: 'me', metadata: '[1]' }))).rejects.toThrow('--metadata must be a JSON object');
    await expect(parseMessage('-', inputOf({ channel: 'web', sender: 'me', metadata: '-' }))).rejects.toThrow('not both');
  });
});

describe('timeline options', () => {
  it('passes direction, cursor and limit through', () => {
    expect(parseTimelineOptions(inputOf({ direction: 'older', cursor: 'abc', limit: '5' }))).toEqual({ query: { direction: 'older', cursor: 'abc', limit: 5 }, all: false, follow: false });
  });
  it('needs a cursor to page, and bounds the limit', () => {
    expect(() => parseTimelineOptions(inputOf({ direction: 'newer' }))).toThrow('--direction newer needs --cursor');
    expect(() => parseTimelineOptions(inputOf({ limit: '101' }))).toThrow('--limit must be between 1 and 100');
    expect(() => parseTimelineOptions(inputOf({ all: true, direction: 'newer', cursor: 'x' }))).toThrow('--all pages back');
  });
});

describe('schedule-preview options', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  it('defaults to five times from now', () => {
    expect(parsePreviewOptions('@daily', {}, now)).toEqual({ expression: '@daily', count: 5, from: now, timeZone: undefined, agentId: undefined });
  });
  it('refuses a bad --from, --tz, --count or --agent', () => {
    expect(() => parsePreviewOptions('@daily', { from: 'yesterday' }, now)).toThrow('--from "yesterday" is not an ISO 8601 instant');
    expect(() => parsePreviewOptions('@daily', { tz: 'Mars/Olympus' }, now)).toThrow('--tz "Mars/Olympus" is not a time zone');
    expect(() => parsePreviewOptions('@daily', { count: '0' }, now)).toThrow('--count must be between 1 and 1000');
    expect(() => parsePreviewOptions('@daily', { agent: '12' }, now)).toThrow('--agent "12" is not a UUID');
  });
  it('answers in the contract shape, and explains an invalid expression', () => {
    const preview = localPreview({ expression: '0 12 * * *', count: 2, from: now });
    expect(preview).toMatchObject({ expression: '0 12 * * *', valid: true, next: ['2026-01-01T12:00:00.000Z', '2026-01-02T12:00:00.000Z'] });
    expect(preview.description).toMatch(/12:00/);
    expect(() => localPreview({ expression: '@reboot', count: 1, from: now })).toThrow('the expression "@reboot" is not a schedule');
    expect(() => localPreview({ expression: ' ', count: 1, from: now })).toThrow('the expression is empty');
  });
});
