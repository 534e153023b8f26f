import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { apiRequest } from '../helpers/api.js';
import { jsonLines } from '../helpers/json-lines.js';
import { against } from '../helpers/cli.js';

let emulator: RunningEmulator;
let cli: ReturnType<typeof against>;
const OWNER = 'emulator@example.com';
const MISSING = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, taskDurationMs: 100 });
  cli = against(emulator.baseUrl);
});
afterAll(() => emulator.close());

let counter = 0;
const createAgent = async () =>
  (await apiRequest<{ id: string }>(emulator.baseUrl, 'POST', '/agents/', { name: `live-${++counter}-${Date.now()}`, charter: 'Watch prices. Report daily.' })).id;
const message = (id: string, body: string) => apiRequest(emulator.baseUrl, 'POST', `/agents/${id}/messages/`, { channel: 'email', sender: OWNER, body });

/**
 * Ctrl-C once the command has printed `refreshes` refreshes (`count` counts them in stdout so far):
 * after what is tested has happened, however slowly a busy machine got there.
 */
function interruptAfter(refreshes: number, count: (stdout: string) => number = (stdout) => stdout.split('\n').length - 1) {
  const interrupt = new AbortController();
  const onStdout = (stdout: string) => {
    if (!interrupt.signal.aborted && count(stdout) >= refreshes) interrupt.abort('SIGINT');
  };
  return { signal: interrupt.signal, onStdout };
}

describe('persistent timeline --follow', () => {
  it('prints the newest events, then new ones as they come, until Ctrl-C (exit 0)', async () => {
    const id = await createAgent();
    const interrupt = new AbortController();
    let sent = false;
    // Once the follower has printed its first events, a message goes in; Ctrl-C comes when the
    // follower itself has printed the agent's reply (no fixed wait for polls).
    const onStdout = (text: string) => {
      if (!sent) {
        sent = true;
        void message(id, 'Are fares up today?');
      }
      if (/"isOutbound":true/.test(text)) interrupt.abort('SIGINT');
    };
    const result = await cli(['persistent', 'timeline', id, '--follow', '--jsonl'], { signal: interrupt.signal, onStdout });
    expect(result.exitCode, result.stderr).toBe(0);
    const events = jsonLines(result.stdout);
    expect(events[0]).toMatchObject({ kind: 'thinking' }); // the charter's first events, then the new ones
    const messages = events.filter((event) => event.kind === 'message') as { message: { isOutbound: boolean } }[];
    expect(messages.map((event) => event.message.isOutbound)).toEqual([false, true]);
    expect(new Set(events.map((event) => event.cursor)).size).toBe(events.length); // nothing printed twice
    expect(result.stderr).toMatch(/the agent is (working|idle)/);
  });

  it('refuses --follow with --all, and an unknown agent exits 4', async () => {
    const id = await createAgent();
    expect((await cli(['persistent', 'timeline', id, '--follow', '--all'])).exitCode).toBe(2);
    expect((await cli(['persistent', 'timeline', MISSING, '--follow'])).exitCode).toBe(4);
  });
});

describe('persistent chat', () => {
  it('without a terminal sends each line, prints the events, and exits 0 once every message has its reply', async () => {
    const id = await createAgent();
    const before = emulator.requests.length;
    const result = await cli(['persistent', 'chat', id, '--jsonl'], { input: 'Check the fare\n\nAnd the hotel\n' });
    expect(result.exitCode, result.stderr).toBe(0);
    // Sent and read through the service's own MCP endpoint: an agent made through the API owns no
    // web address, and a REST web message to web://agent/<id> would be stored with no owner.
    const sent = emulator.requests.slice(before).filter((request) => request.method === 'POST');
    expect(sent.map((request) => request.path)).toEqual(expect.arrayContaining(['/mcp/']));
    expect(sent.some((request) => request.path.endsWith('/messages/'))).toBe(false);
    const messages = jsonLines(result.stdout).filter((event) => event.kind === 'message') as { message: { isOutbound: boolean; bodyText: string } }[];
    expect(messages.filter((event) => !event.message.isOutbound).map((event) => event.message.bodyText)).toEqual(['Check the fare', 'And the hotel']);
    // The service's MCP send shows as channel mcp, from the key's user (no sender address).
    expect((messages[0] as unknown as { message: { channel: string } }).message.channel).toBe('mcp');
    expect(messages.filter((event) => event.message.isOutbound)).toHaveLength(2);
  });

  it('on a terminal: a prompt, recent events as context, each line sent; end of input ends the chat (exit 0)', async () => {
    const id = await createAgent();
    const terminal = { stdinIsTTY: true, stderrIsTTY: true, stdoutIsTTY: true, columns: 100 };
    const result = await cli(['persistent', 'chat', id], { input: 'Hello from a terminal\n', terminal });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain('you> ');
    expect(result.stdout).toMatch(/thinking|plan/); // the agent's latest events, as context
    const timeline = await apiRequest<{ events: { kind: string; message?: { bodyText?: string } }[] }>(emulator.baseUrl, 'GET', `/agents/${id}/timeline/`);
    expect(timeline.events.some((event) => event.message?.bodyText === 'Hello from a terminal')).toBe(true);
  });

  it('exits 7 when the replies do not come within --reply-timeout', async () => {
    const id = await createAgent();
    const result = await cli(['persistent', 'chat', id, '--reply-timeout', '1'], { input: '[hang] never answers\n' });
    expect(result.exitCode).toBe(7);
    expect(result.stderr).toMatch(/1 of 1 message had no reply/);
  });

  it('refuses a malformed id before any request, and a paused agent is an explained error', async () => {
    expect((await cli(['persistent', 'chat', 'nope'], { input: 'hi\n' })).exitCode).toBe(2);
    const id = await createAgent();
    await apiRequest(emulator.baseUrl, 'POST', `/agents/${id}/deactivate/`);
    const result = await cli(['persistent', 'chat', id], { input: 'hello\n' });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/paused/);
  });
});

describe('persistent status --watch', () => {
  it('piped: one JSON document per refresh; Ctrl-C ends it with exit 0', async () => {
    const id = await createAgent();
    const result = await cli(['persistent', 'status', id, '--watch', '0.1'], interruptAfter(3));
    expect(result.exitCode, result.stderr).toBe(0);
    const documents = jsonLines(result.stdout);
    expect(documents.length).toBeGreaterThanOrEqual(1);
    for (const document of documents) expect(document).toHaveProperty('processing_active');
  });

  it('on a terminal redraws in place: up over the last frame (its rows, footer included), clear, draw', async () => {
    const id = await createAgent();
    /* eslint-disable no-control-regex */
    const redraws = (stdout: string) => stdout.match(/\x1b\[\d+A\r\x1b\[J/g)?.length ?? 0;
    const result = await cli(['persistent', 'status', id, '--watch', '0.1'], { ...interruptAfter(3, redraws), terminal: { stdoutIsTTY: true, stderrIsTTY: true, columns: 100 } });
    expect(result.exitCode).toBe(0);
    // No clearing of the whole screen (many terminals push a copy of it into the scrollback each time).
    expect(result.stdout).not.toContain('\x1b[2J');
    const frames = result.stdout.split(/\x1b\[\d+A\r\x1b\[J/);
    const rows = [...result.stdout.matchAll(/\x1b\[(\d+)A/g)].map((match) => Number(match[1]));
    /* eslint-enable no-control-regex */
    // Each move goes up as many rows as the frame before it took: its lines, and the footer on stderr.
    expect(rows[0]).toBe((frames[0] ?? '').split('\n').length - 1 + 1);
    expect(frames[0]).toMatch(/processing/);
  });

  it('refuses a bad interval', async () => {
    expect((await cli(['persistent', 'status', MISSING, '--watch', 'soon'])).exitCode).toBe(2);
  });
});

describe('tasks list/get --watch', () => {
  it('tasks get --watch prints the task at each refresh until Ctrl-C (exit 0)', async () => {
    const { id } = await apiRequest<{ id: string }>(emulator.baseUrl, 'POST', '/tasks/browser-use/', { prompt: 'watched' });
    const result = await cli(['tasks', 'get', id, '--watch', '0.1'], interruptAfter(3));
    expect(result.exitCode, result.stderr).toBe(0);
    const documents = jsonLines(result.stdout);
    expect(documents.every((task) => task.id === id)).toBe(true);
  });

  it('tasks list --watch shows one page per refresh; --all is refused', async () => {
    const result = await cli(['tasks', 'list', '--watch', '0.1', '--page-size', '3'], interruptAfter(2));
    expect(result.exitCode).toBe(0);
    for (const page of jsonLines(result.stdout) as unknown as unknown[]) expect(Array.isArray(page)).toBe(true);
    expect((await cli(['tasks', 'list', '--watch', '--all'])).exitCode).toBe(2);
  });
});
