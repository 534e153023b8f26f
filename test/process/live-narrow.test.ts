import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { apiRequest, eventually } from '../helpers/api.js';
import { ptyAgentctl, render } from '../helpers/pty.js';

// Live views on a real pseudo-terminal that starts at 80 or 40 columns and is then resized to the
// other width (SIGWINCH), and what a narrow terminal keeps: one process per scenario.

let emulator: RunningEmulator;
let agentCount = 0;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, taskDurationMs: 200 });
  // A page of tasks that stay in progress while the watch runs.
  for (const prompt of ['Find the cheapest flight from Oslo to Rome in May', 'Compare three hotels near the station']) {
    await apiRequest(emulator.baseUrl, 'POST', '/tasks/browser-use/', { prompt });
  }
});
afterAll(() => emulator.close());

const env = () => ({ AGENTCTL_BASE_URL: emulator.baseUrl, AGENTCTL_API_KEY: 'emulator-key' });
const MESSAGE = 'Please look at the fares for the whole first week of March and list the three cheapest direct flights';
const createAgent = async (name: string) => (await apiRequest<{ id: string }>(emulator.baseUrl, 'POST', '/agents/', { name, charter: 'Watch the fares.' })).id;
const sendAsOwner = (id: string, body: string) =>
  // Through the service's own MCP send: the web way in the service processes for an agent made
  // through the API (a REST web message to web://agent/<id> is stored with no owner).
  apiRequest(emulator.baseUrl, 'POST', '/mcp/', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'gobii_send_agent_message', arguments: { agent_id: id, body } } });
const outbound = async (id: string) => {
  const timeline = await apiRequest<{ events: { message?: { isOutbound: boolean; bodyText: string } }[] }>(emulator.baseUrl, 'GET', `/agents/${id}/timeline/`);
  return timeline.events.filter((event) => event.message?.isOutbound).map((event) => event.message?.bodyText ?? '');
};
// The lines as the program wrote them (before the terminal wraps anything), escape sequences removed.
// eslint-disable-next-line no-control-regex
const writtenLines = (output: string) => output.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').split(/\r?\n/).map((line) => line.replace(/^.*\r/, '').replace('^C', ''));
const fits = (lines: string[], columns: number) => {
  for (const line of lines) expect(line.length, `"${line}" is wider than ${columns}`).toBeLessThanOrEqual(columns);
};
const count = (text: string, part: string) => text.split(part).length - 1;

describe.each([
  [80, 40],
  [40, 80],
])('from %i columns, resized to %i', (columns, resized) => {
  it('tasks list --watch keeps status, a short id and the prompt, and redraws in place at once at the new width', async () => {
    // A refresh every 30 s: the frame after the resize is the one the resize draws.
    const run = ptyAgentctl(['tasks', 'list', '--watch', '30'], { columns, env: env() });
    const screen = (width: number) => render(run.output(), width);
    await run.waitFor((output) => output.includes('Every 30s'), 'the first frame');
    const first = screen(columns);
    expect(first.join('\n')).toMatch(/^ID\s+STATUS\s+.*PROMPT/m);
    expect(first.join('\n'), first.join('\n')).toMatch(/^[0-9a-f]{8}\b.*(in_progress|pending|completed)\s+(Find|Compare)/m);
    const before = count(run.output(), 'Every 30s');
    await run.resize(resized);
    // Drawn again at once, at the new width (not 30 s later).
    await run.waitFor((output) => count(output, 'Every 30s') >= before + 1, 'the frame drawn again at the new width');
    run.type('\x03');
    const { exitCode, output } = await run.done();
    const shown = render(output, resized).filter((line) => line !== '');
    expect(exitCode, shown.join('\n')).toBe(0);
    // In place: the screen holds one frame (one header), not a copy per refresh.
    expect(shown.filter((line) => line.startsWith('ID ')), shown.join('\n')).toHaveLength(1);
    fits(shown, resized);
    expect(shown.join('\n')).toMatch(/(in_progress|pending|completed)\s+(Find|Compare)/);
  });

  it('timeline --follow names you and the agent, and new lines take the new width', async () => {
    const id = await createAgent(`Fares ${++agentCount}`);
    await sendAsOwner(id, MESSAGE);
    const run = ptyAgentctl(['persistent', 'timeline', id, '--follow'], { columns, env: env() });
    await run.waitFor((output) => output.includes('Done.'), "the agent's reply");
    const lines = writtenLines(run.output());
    fits(lines, columns);
    // Your message and the reply: who wrote it, then enough of the text to read.
    expect(lines.find((line) => line.includes('you:')), lines.join('\n')).toMatch(/you: "Please look at/);
    expect(lines.find((line) => line.includes('Done.')), lines.join('\n')).toMatch(new RegExp(`Fares ${agentCount}: "`));
    const mark = run.output().length;
    await run.resize(resized);
    await sendAsOwner(id, `Second question: ${MESSAGE}`);
    await run.waitFor((output) => count(output.slice(mark), 'Done.') >= 1, 'the second reply');
    run.type('\x03');
    const { exitCode, output } = await run.done();
    expect(exitCode).toBe(0);
    const after = writtenLines(output.slice(mark)).filter((line) => line.includes('"'));
    fits(after, resized);
    // Cut to the new width, not the old one: on a wider terminal, a line runs past the old edge.
    if (resized > columns) expect(Math.max(...after.map((line) => line.length)), after.join('\n')).toBeGreaterThan(columns);
  });

  it('chat labels your lines "you>" and the replies with the agent\'s name, wrapped to the new width', async () => {
    const id = await createAgent(`Fares ${++agentCount}`);
    await sendAsOwner(id, MESSAGE);
    const name = `Fares ${agentCount}`;
    // The history the chat starts with holds your message and its reply.
    await eventually(async () => ((await outbound(id)).length > 0 ? true : undefined), undefined, 'the reply');
    const run = ptyAgentctl(['persistent', 'chat', id], { columns, env: env() });
    await run.waitFor((output) => output.includes('you> ') && output.includes('Done.'), 'the history and the prompt');
    const history = writtenLines(run.output());
    fits(history, columns);
    expect(history.find((line) => line.startsWith('you> ')), history.join('\n')).toMatch(/^you> Please look at/);
    expect(history.find((line) => line.startsWith(`${name}> `)), history.join('\n')).toMatch(/Done\./);
    const mark = run.output().length;
    await run.resize(resized);
    run.type(`Second question: ${MESSAGE}\r`);
    await run.waitFor((output) => output.slice(mark).includes(`${name}> `), 'the second reply');
    run.type('\x03');
    const { exitCode, output } = await run.done();
    expect(exitCode).toBe(0);
    const lines = writtenLines(output.slice(mark));
    const start = lines.findIndex((line) => line.startsWith(`${name}> `));
    const reply = [lines[start] ?? ''];
    for (const line of lines.slice(start + 1)) if (line.startsWith(' '.repeat(name.length + 2))) reply.push(line); else break;
    fits(reply, resized);
    const body = (await outbound(id)).at(-1) ?? '';
    expect(reply.map((line) => line.trim()).join(' ')).toBe(`${name}> ${body}`);
    // Wrapped at the new width: on a wider terminal, a line of the reply runs past the old edge.
    if (resized > columns) expect(Math.max(...reply.map((line) => line.length)), reply.join('\n')).toBeGreaterThan(columns);
  });
});
