import { describe, expect, it } from 'vitest';
import { describeEvent, timelineLine, timelinePlainLine } from '../../src/core/timeline-format.js';

const at = '2026-03-01T09:30:15.000Z';

describe('timeline lines', () => {
  it('shows who wrote a message, on which channel, with the body shortened on a terminal', () => {
    const event = { kind: 'message', cursor: 'c1', timestamp: at, message: { direction: 'inbound', channel: 'email', sender: 'ann@example.com', subject: 'Prices', body: 'Please check the price of the Oslo to Rome flight again tomorrow morning' } };
    expect(describeEvent(event, 30)).toBe('ann@example.com -> agent via email [Prices] "Please check the price of the…"');
    expect(timelineLine(event, 80)).toMatch(/^2026-03-01 09:30Z\s+message\s+ann@example.com -> agent/);
  });

  it('shows replies as agent -> recipient', () => {
    expect(describeEvent({ kind: 'message', message: { direction: 'outbound', channel: 'web', recipient: 'ann', body: 'Done.' } })).toBe('agent -> ann via web "Done."');
  });

  it('names you and the agent on a terminal: the text, not the addresses, fills the line', () => {
    const id = 'e20f6bd1-d54b-4115-9bce-d2c35b7a3f10';
    const mine = { kind: 'message', timestamp: at, message: { isOutbound: false, channel: 'web', senderAddress: `web://user/42/agent/${id}`, selfAgentName: 'Fares', bodyText: 'Any news?' } };
    const reply = { kind: 'message', timestamp: at, message: { isOutbound: true, channel: 'web', recipientAddress: null, selfAgentName: 'Fares', bodyText: 'Not yet.' } };
    const email = { kind: 'message', timestamp: at, message: { isOutbound: false, channel: 'email', senderAddress: 'ann@example.com', selfAgentName: 'Fares', bodyText: 'Hi' } };
    expect(timelineLine(mine, 80)).toBe('2026-03-01 09:30Z  message      you: "Any news?"');
    expect(timelineLine(reply, 80)).toBe('2026-03-01 09:30Z  message      Fares: "Not yet."');
    expect(timelineLine(email, 80)).toBe('2026-03-01 09:30Z  message      ann@example.com -> Fares via email "Hi"');
    // Piped and for the MCP server, the addresses as the service sent them.
    expect(describeEvent(mine)).toBe(`web://user/42/agent/${id} -> agent via web "Any news?"`);
    expect(timelinePlainLine(mine)).toContain(`web://user/42/agent/${id}`);
  });

  it("names you for a message sent through the service's MCP send (channel mcp, no sender address)", () => {
    const sent = { kind: 'message', timestamp: at, message: { isOutbound: false, channel: 'mcp', senderAddress: null, sourceKind: 'mcp', senderName: 'Gobii MCP', selfAgentName: 'Fares', bodyText: 'Any news?' } };
    expect(timelineLine(sent, 80)).toBe('2026-03-01 09:30Z  message      you: "Any news?"');
  });

  it('keeps most of a narrow terminal for the text: the time of day, a narrower kind', () => {
    const event = { kind: 'thinking', timestamp: at, text: 'Compare three airlines' };
    expect(timelineLine(event, 40)).toBe('09:30 thinking "Compare three airlines"');
    expect(timelineLine(event, 80).startsWith('2026-03-01 09:30Z  thinking     "Compare')).toBe(true);
  });

  it('summarises tool steps by name and status', () => {
    const event = { kind: 'steps', steps: [{ toolName: 'search_web', status: 'complete' }, { toolName: 'open_page', status: 'error' }] };
    expect(describeEvent(event)).toBe('2 steps: search_web (complete), open_page (error)');
  });

  it('quotes thinking and plans, and copes with unknown kinds', () => {
    expect(describeEvent({ kind: 'thinking', text: 'Compare three airlines' })).toBe('"Compare three airlines"');
    expect(describeEvent({ kind: 'plan', plan: { summary: 'Check daily' } })).toBe('"Check daily"');
    expect(describeEvent({ kind: 'plan', plan: { title: 'Charter', items: [{ text: 'Track fares.', status: 'pending' }, { text: 'Report.', status: 'done' }] } })).toBe(
      'Charter, 2 items: Track fares. (pending); Report. (done)',
    );
    expect(describeEvent({ kind: 'future_kind', cursor: 'x', widget: 1 })).toBe('(widget)');
  });

  it('keeps the whole text when piped, one tab-separated line per event', () => {
    const body = 'line one\nline two\twith a tab '.repeat(10);
    const line = timelinePlainLine({ kind: 'thinking', timestamp: at, text: body });
    expect(line.split('\t')).toHaveLength(3);
    expect(line.startsWith(`${at}\tthinking\t"line one line two with a tab`)).toBe(true);
    expect(line).not.toContain('…');
  });
});
