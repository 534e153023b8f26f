import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { apiRequest } from '../helpers/api.js';
import { spawnAgentctl, tempDir } from '../helpers/cli.js';
import { send } from '../helpers/http.js';
import { ptyAgentctl, render } from '../helpers/pty.js';

// What a person at a terminal sees, through a real pseudo-terminal at 80 and 40 columns.

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, taskDurationMs: 200 });
});
afterAll(() => emulator.close());


describe.each([80, 40])('at %i columns', (columns) => {
  it('auth login shows its "API key: " prompt and does not echo the key', async () => {
    const run = ptyAgentctl(['auth', 'login', '--base-url', emulator.baseUrl], { columns });
    await run.waitFor((output) => output.includes('API key: '), 'the prompt');
    run.type('emulator-key\r');
    const { exitCode, output } = await run.done();
    const screen = render(output, columns);
    expect(exitCode, screen.join('\n')).toBe(0);
    const promptLine = screen.find((line) => line.startsWith('API key:'));
    expect(promptLine, `no prompt on the screen:\n${screen.join('\n')}`).toBe('API key:');
    expect(output).not.toContain('emulator-key');
    expect(screen.join('')).toContain('Logged in');
  });
});

const env = () => ({ AGENTCTL_BASE_URL: emulator.baseUrl, AGENTCTL_API_KEY: 'emulator-key' });
const CHARTER = [
  'Watch the fares from Lisbon to Berlin for the first week of March and tell me when one drops under 120 EUR.',
  '',
  'Check twice a day. Prefer direct flights; a single stop under two hours is acceptable.',
].join('\n');
let agents = 0;
const createAgent = async () => (await apiRequest<{ id: string }>(emulator.baseUrl, 'POST', '/agents/', { name: `pty-${++agents}-${Date.now() % 100_000}`, charter: CHARTER })).id;
const sendAsOwner = (id: string, body: string) =>
  // Through the service's own MCP send: the web way in the service processes for an agent made
  // through the API (a REST web message to web://agent/<id> is stored with no owner).
  apiRequest(emulator.baseUrl, 'POST', '/mcp/', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'gobii_send_agent_message', arguments: { agent_id: id, body } } });
// The lines as the program wrote them (before the terminal wraps anything), escape sequences removed.
// eslint-disable-next-line no-control-regex
const writtenLines = (output: string) => output.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').split(/\r?\n/).map((line) => line.replace(/^.*\r/, '').replace('^C', ''));
const MESSAGE = 'Please look at the fares for the whole first week of March and list the three cheapest direct flights';

describe.each([80, 40])('conversations at %i columns', (columns) => {
  it('persistent chat prints the reply whole and wrapped, and events never land on the prompt line', async () => {
    const id = await createAgent();
    const run = ptyAgentctl(['persistent', 'chat', id], { columns, env: env() });
    await run.waitFor((output) => output.includes('you> '), 'the prompt');
    // The message is sent, and "half" is being typed when the reply comes back (the emulator's web task takes 200 ms).
    run.type(`${MESSAGE}\rhalf`);
    const shown = () => render(run.output(), columns);
    await run.waitFor(() => shown().some((line) => line.includes('Done.')) && shown().filter((line) => line !== '').at(-1) === 'you> half', 'the reply, then the prompt redrawn');
    run.type('\x03');
    const { exitCode, output } = await run.done();
    const screen = render(output, columns);
    expect(exitCode, screen.join('\n')).toBe(0);
    // Only what was typed follows a prompt: the message sent, then "half", drawn again below the events.
    const prompts = screen.filter((line) => line.startsWith('you> '));
    expect(prompts.map((line) => MESSAGE.startsWith(line.slice(5)) || line === 'you> half'), screen.join('\n')).toEqual([true, true]);
    expect(screen.filter((line) => line.includes('half')), screen.join('\n')).toEqual(['you> half']);
    // The reply: the agent's name, "> " and the text, continued on indented lines, every word whole.
    const { name } = await apiRequest<{ name: string }>(emulator.baseUrl, 'GET', `/agents/${id}/`);
    const start = screen.findIndex((line) => line.startsWith(`${name}> `));
    const reply = [screen[start] ?? ''];
    for (const line of screen.slice(start + 1)) if (line.startsWith('       ')) reply.push(line.trim()); else break;
    const timeline = await apiRequest<{ events: { message?: { isOutbound: boolean; bodyText: string } }[] }>(emulator.baseUrl, 'GET', `/agents/${id}/timeline/`);
    const body = timeline.events.find((event) => event.message?.isOutbound)?.message?.bodyText ?? '';
    expect(body.length).toBeGreaterThan(columns); // long enough to need wrapping
    expect(reply.join(' ')).toBe(`${name}> ${body}`);
    expect(reply.length).toBeGreaterThan(1);
  });

  it('persistent timeline and timeline --follow lines fit the terminal, prefix included', async () => {
    const id = await createAgent();
    await sendAsOwner(id, MESSAGE);
    const run = ptyAgentctl(['persistent', 'timeline', id], { columns, env: env() });
    const { exitCode, output } = await run.done();
    expect(exitCode, output).toBe(0);
    expect(output).toContain('message');
    for (const line of writtenLines(output)) expect(line.length, `"${line}" is wider than ${columns}`).toBeLessThanOrEqual(columns);

    const follow = ptyAgentctl(['persistent', 'timeline', id, '--follow'], { columns, env: env() });
    await follow.waitFor((text) => text.includes('message'), 'the events');
    follow.type('\x03');
    const followed = await follow.done();
    for (const line of writtenLines(followed.output)) expect(line.length, `"${line}" is wider than ${columns}`).toBeLessThanOrEqual(columns);
  });

  it('persistent get shows a multi-line charter as a block, wrapped, paragraphs kept', async () => {
    const id = await createAgent();
    const run = ptyAgentctl(['persistent', 'get', id], { columns, env: env() });
    const { exitCode, output } = await run.done();
    expect(exitCode, output).toBe(0);
    const lines = writtenLines(output);
    const heading = lines.findIndex((line) => line.trim() === 'Charter');
    for (const line of lines.slice(heading)) expect(line.length, `"${line}" is wider than ${columns}`).toBeLessThanOrEqual(columns);
    const block = lines.slice(heading + 1).map((line) => line.trim());
    expect(block.join(' ').replace(/\s+/g, ' ')).toContain(CHARTER.split('\n')[0]);
    expect(block).toContain(''); // the paragraph break survives
  });
});

describe.each([80, 40])('help at %i columns', (columns) => {
  // Commander lays out the usage line and the options; agentctl's notes (the prose) are reflowed to the width.
  it('wraps its notes to the terminal, no word cut (examples stay whole, to be copied)', async () => {
    const run = ptyAgentctl(['tasks', 'run-batch', '--help'], { columns, rows: 500 }); // taller than the page: no pager
    const { exitCode, output } = await run.done();
    expect(exitCode).toBe(0);
    const lines = writtenLines(output);
    const prose = lines.slice(lines.findIndex((line) => line.startsWith('Input:')), lines.findIndex((line) => line === 'Examples:'));
    expect(prose.join('\n')).toContain('Resume:');
    // Only a single word longer than the terminal (a variable name) may run over.
    for (const line of prose) if (line.trim().includes(' ')) expect(line.length, `"${line}" is wider than ${columns}`).toBeLessThanOrEqual(columns);
  });

  // A stand-in pager that marks each line it shows: what reaches the terminal tells whether help went through it.
  const PAGER = "sed 's/^/paged: /'";

  it('pages help longer than the terminal through $PAGER, and wraps it to the width first', async () => {
    const { exitCode, output } = await ptyAgentctl(['tasks', 'run-batch', '--help'], { columns, rows: 24, env: { PAGER } }).done();
    expect(exitCode).toBe(0);
    const lines = writtenLines(output).filter((line) => line !== '');
    expect(lines[0]).toMatch(/^paged: Usage:/);
    expect(lines.every((line) => line.startsWith('paged: ')), 'every line went through the pager').toBe(true);
    const prose = lines.map((line) => line.slice('paged: '.length)).filter((line) => line.trim().includes(' ') && !/["']/.test(line)); // a quoted string is one word
    for (const line of prose) expect(line.length, `"${line}" is wider than ${columns}`).toBeLessThanOrEqual(columns);
  });

  it('shows `agentctl` alone through the pager when it does not fit, and help that fits without it', async () => {
    const bare = await ptyAgentctl([], { columns, rows: 10, env: { PAGER } }).done();
    expect(bare.exitCode).toBe(0);
    expect(writtenLines(bare.output)[0]).toMatch(/^paged: agentctl: /);
    const fits = await ptyAgentctl(['tasks', 'run-batch', '--help'], { columns, rows: 500, env: { PAGER } }).done();
    expect(fits.exitCode).toBe(0);
    expect(fits.output).toContain('Usage:');
    expect(fits.output).not.toContain('paged: ');
  });
});

describe('help into a pipe', () => {
  it('never goes through the pager', async () => {
    const result = await spawnAgentctl(['tasks', 'run-batch', '--help'], { env: { PAGER: "sed 's/^/paged: /'" } });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^Usage:/);
    expect(result.stdout).not.toContain('paged: ');
  });
});

// Issue 47: a prompt answered with Ctrl-C, Ctrl-D or "n" is an answer, not a crash.
describe('prompts', () => {
  const createTask = async () => (await apiRequest<{ id: string }>(emulator.baseUrl, 'POST', '/tasks/browser-use/', { prompt: 'kept' })).id;
  const taskStatus = async (id: string) => (await send(`${emulator.baseUrl}/tasks/browser-use/${id}/`, { headers: { 'x-api-key': 'emulator-key' } })).status;
  const answer = async (args: string[], keys: string, prompt: string) => {
    const run = ptyAgentctl(args, { columns: 80, env: env() });
    await run.waitFor((output) => output.includes(prompt), 'the prompt');
    run.type(keys);
    const { exitCode, output } = await run.done();
    return { exitCode, output, screen: render(output, 80) };
  };

  it.each([
    ['Ctrl-C', '\x03', 130],
    ['Ctrl-D', '\x04', 2],
    ['n', 'n\r', 2],
  ])('tasks delete: %s at [y/N] cancels plainly, nothing deleted', async (_key, keys, code) => {
    const id = await createTask();
    const { exitCode, output, screen } = await answer(['tasks', 'delete', id], keys, '[y/N] ');
    expect(exitCode, screen.join('\n')).toBe(code);
    expect(output).not.toContain('unexpected failure');
    expect(output).not.toContain('error:');
    // The question stays on its line; the cancellation is on a line of its own.
    expect(screen.find((line) => line.startsWith('Delete task'))).toMatch(/\[y\/N\]( n)?$/);
    expect(screen).toContain('Cancelled: nothing was deleted.');
    expect(await taskStatus(id)).toBe(200);
  });

  it('tasks delete: y at [y/N] deletes', async () => {
    const id = await createTask();
    const { exitCode, screen } = await answer(['tasks', 'delete', id], 'y\r', '[y/N] ');
    expect(exitCode, screen.join('\n')).toBe(0);
    expect(await taskStatus(id)).toBe(404);
  });

  it.each([
    ['Ctrl-C', '\x03', 130, 'Cancelled: no API key was stored.'],
    ['Ctrl-D', '\x04', 2, 'error: no API key given'],
  ])('auth login: %s at "API key:" stops with an exit code, on a new line', async (_key, keys, code, said) => {
    const home = tempDir();
    const run = ptyAgentctl(['auth', 'login', '--base-url', emulator.baseUrl], { columns: 80, configHome: home });
    await run.waitFor((output) => output.includes('API key: '), 'the prompt');
    run.type(keys);
    const { exitCode, output } = await run.done();
    const screen = render(output, 80);
    expect(exitCode, screen.join('\n')).toBe(code);
    expect(screen).toContain('API key:');
    expect(screen).toContain(said);
    expect(output).not.toContain('Logged in');
  });
});

// Issue 47: a chat with a paused agent names the way out, and a scripted one ends.
describe('persistent chat to a paused agent', () => {
  const pausedAgent = async () => {
    const id = await createAgent();
    await apiRequest(emulator.baseUrl, 'POST', `/agents/${id}/deactivate/`);
    return id;
  };

  it('scripted: the process ends (exit 1) on the refusal and names persistent activate', async () => {
    const id = await pausedAgent();
    const result = await spawnAgentctl(['persistent', 'chat', id, '--reply-timeout', '5'], { env: env(), input: 'hi\n' });
    expect(result.exitCode, result.stderr).toBe(1);
    // The service's MCP send refuses a paused agent with its agent_inactive payload (REST: 409).
    expect(result.stderr).toContain('paused');
    expect(result.stderr).toContain(`agentctl persistent activate ${id}`);
  });

  it('at a terminal: the error and the hint are shown above a redrawn prompt', async () => {
    const id = await pausedAgent();
    const run = ptyAgentctl(['persistent', 'chat', id], { columns: 80, env: env() });
    await run.waitFor((output) => output.includes('you> '), 'the prompt');
    run.type('hi\r');
    const shown = () => render(run.output(), 80);
    await run.waitFor(() => shown().join('').includes(`hint: the agent is paused: \`agentctl persistent activate ${id}\``), 'the hint');
    await run.waitFor(() => shown().filter((line) => line !== '').at(-1) === 'you>', 'the prompt redrawn');
    run.type('\x04');
    const { exitCode, output } = await run.done();
    expect(exitCode, render(output, 80).join('\n')).toBe(0);
  });
});
