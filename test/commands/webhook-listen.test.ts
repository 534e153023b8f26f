// webhook-listen run in this process (main(argv, io)); what needs a process of its own (a SIGKILL) is
// in test/process/webhook-listen.test.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/api.js';
import { agentctl, tempDir } from '../helpers/cli.js';
import { completedEvent, freePort, listen, post, start, startTarget, stopAll, type Relayed } from '../helpers/webhook-listen.js';

afterEach(stopAll);

const ID = '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f';

describe('webhook-listen: start-up', () => {
  it('--print-url puts the URL alone on stdout: 127.0.0.1, a free port, a random secret path', async () => {
    const first = await listen();
    const second = await listen();
    for (const url of [first.url, second.url]) expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{24}$/);
    expect(new URL(first.url).pathname).not.toBe(new URL(second.url).pathname);
    expect(first.lines).toEqual([first.url]);
    expect(first.stderr()).not.toContain(first.url);
  });

  it('without --print-url the URL goes to stderr and stdout carries only events (tab-separated when piped)', async () => {
    const handle = start(['webhook-listen', '--port', String(await freePort()), '--path', 'hooks/s3cret']);
    const stderr = await handle.stderrMatches(/Listening for task webhooks at (\S+)/);
    const url = (/at (http:\S+?)[.,]? /.exec(stderr) ?? [])[1] as string;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hooks\/s3cret$/);
    expect(handle.lines).toEqual([]);
    const event = completedEvent();
    expect((await post(url, event)).status).toBe(200);
    const row = (await handle.line(0)).split('\t');
    expect(row).toEqual([expect.stringMatching(/^\d{4}-\d\d-\d\dT/), event.id, 'completed', '', event.result, 'Test-AgentWebhook/1.0']);
  });

  it('--host binds the given local address', async () => {
    const handle = await listen(['--host', 'localhost', '--once']);
    expect(handle.url).toMatch(/^http:\/\/localhost:\d+\/[A-Za-z0-9_-]{24}$/);
    expect((await post(handle.url, completedEvent())).status).toBe(200);
    expect(await handle.exited).toBe(0);
  });

  it.each([
    [['--port', '70000'], /--port must be between 0 and 65535/],
    [['--forward-to', 'ftp://x.example'], /--forward-to must be an http/],
    [['--task', 'nope'], /--task "nope" is not a UUID/],
    [['--count', '0'], /--count must be between 1/],
    [['--output', '/nonexistent-dir/x.jsonl'], /--output \/nonexistent-dir\/x.jsonl: ENOENT/],
  ])('%j exits 2 before listening', async (args, message) => {
    const result = await agentctl(['webhook-listen', ...args]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
  });

  it('exits 2 when the port is taken', async () => {
    const first = await listen();
    const port = new URL(first.url).port;
    const result = await agentctl(['webhook-listen', '--port', port]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/port is in use/);
  });
});

describe('webhook-listen: what it accepts', () => {
  it('answers 200 to valid events and prints one JSON object per line with --jsonl or --json', async () => {
    for (const flag of ['--jsonl', '--json']) {
      const handle = await listen([flag]);
      const events = [completedEvent(), { ...completedEvent(), status: 'failed', result: null, error_message: 'x' }];
      for (const event of events) expect(await post(handle.url, event)).toEqual({ status: 200, json: { ok: true } });
      const printed = [JSON.parse(await handle.line(1)), JSON.parse(await handle.line(2))];
      expect(printed.map((p) => p.body)).toEqual(events);
      expect(Object.keys(printed[0]).sort()).toEqual(['body', 'headers', 'received_at']);
      expect(printed[0].headers).toEqual({ 'user-agent': 'Test-AgentWebhook/1.0', 'content-type': 'application/json' });
    }
  });

  it('turns away invalid requests with the right status and a reason on stderr, printing nothing on stdout', async () => {
    const handle = await listen(['--jsonl', '--max-body', '2048']);
    const wrongShape = await post(handle.url, { id: ID, status: 'completed', agent_id: null });
    expect(wrongShape).toEqual({ status: 400, json: { error: 'missing "result" for a completed event' } });
    const wrongStatus = await post(handle.url, { ...completedEvent(), status: 'running' });
    expect(wrongStatus.status).toBe(400);
    const notJson = await post(handle.url, 'id=3f2b8c1e');
    expect(notJson.status).toBe(400);
    expect(notJson.json?.error).toMatch(/not valid JSON/);
    const notJsonType = await post(handle.url, completedEvent(), { 'content-type': 'text/plain' });
    expect(notJsonType.status).toBe(415);
    const tooLarge = await post(handle.url, completedEvent(undefined, { result: 'x'.repeat(4096) }));
    expect(tooLarge.status).toBe(413);
    expect((await post(handle.url, undefined, {}, 'GET')).status).toBe(405);
    expect((await post(handle.url, completedEvent(), {}, 'PUT')).status).toBe(405);
    expect((await post(`${handle.url}x`, completedEvent())).status).toBe(404);
    expect((await post(new URL('/', handle.url).toString(), completedEvent())).status).toBe(404);
    await handle.stderrMatches(/answered 404 to POST \/: /);
    const stderr = handle.stderr();
    expect(stderr).toContain('answered 400 to POST');
    expect(stderr).toContain('missing "result" for a completed event');
    expect(stderr).toContain('answered 413');
    expect(stderr).toContain('answered 415');
    expect(stderr).toContain('answered 405 to GET');
    expect(handle.lines).toEqual([handle.url]);
    // Still fine afterwards.
    expect((await post(handle.url, completedEvent())).status).toBe(200);
    await handle.line(1);
    handle.kill('SIGINT');
    expect(await handle.exited).toBe(130);
    expect(handle.stderr()).toMatch(/Received 1 event\(s\) \(9 request\(s\) rejected\)/);
  });

  it('--fields applies to each printed event; an unknown field is refused before listening', async () => {
    const handle = await listen(['--jsonl', '--fields', 'body', '--once']);
    const event = completedEvent();
    expect((await post(handle.url, event)).status).toBe(200);
    expect(await handle.exited).toBe(0);
    expect(handle.lines.slice(1).map((line) => JSON.parse(line))).toEqual([{ body: event }]);
    const refused = await agentctl(['webhook-listen', '--jsonl', '--fields', 'body,nope']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/unknown field in --fields: nope/);
  });

  it('accepts other user agents but says so', async () => {
    const handle = await listen(['--jsonl']);
    expect((await post(handle.url, completedEvent(), { 'user-agent': 'curl/8.5.0' })).status).toBe(200);
    await handle.line(1);
    await handle.stderrMatches(/user agent "curl\/8.5.0"/);
  });
});

describe('webhook-listen: ending', () => {
  it('--once exits 0 after the first event; --count N after N', async () => {
    const once = await listen(['--once', '--jsonl']);
    expect((await post(once.url, completedEvent())).status).toBe(200);
    expect(await once.exited).toBe(0);
    expect(once.lines).toHaveLength(2);
    expect(once.stderr()).toContain('Received 1 event(s).');

    const three = await listen(['--count', '3', '--jsonl']);
    for (let i = 0; i < 2; i++) expect((await post(three.url, completedEvent())).status).toBe(200);
    expect(three.running()).toBe(true);
    expect((await post(three.url, completedEvent())).status).toBe(200);
    expect(await three.exited).toBe(0);
    expect(three.lines).toHaveLength(4);
  });

  it('--timeout exits 7 when nothing came (and when fewer than --count came), 0 when events came', async () => {
    const nothing = await agentctl(['webhook-listen', '--timeout', '0.3']);
    expect(nothing.exitCode).toBe(7);
    expect(nothing.stderr).toMatch(/Timed out after 0.3s: no event arrived/);

    const short = await listen(['--count', '2', '--timeout', '1.5']);
    expect((await post(short.url, completedEvent())).status).toBe(200);
    expect(await short.exited).toBe(7);
    expect(short.stderr()).toMatch(/1 of 2 events arrived/);

    const some = await listen(['--timeout', '1']);
    expect((await post(some.url, completedEvent())).status).toBe(200);
    expect(await some.exited).toBe(0);
  });

  it('--task keeps only that task\'s events (others are acknowledged, not printed)', async () => {
    const handle = await listen(['--task', ID, '--once', '--jsonl']);
    expect(await post(handle.url, completedEvent())).toEqual({ status: 200, json: { ok: true, ignored: true } } as never);
    expect((await post(handle.url, { ...completedEvent(), id: ID })).status).toBe(200);
    expect(await handle.exited).toBe(0);
    expect(handle.lines).toHaveLength(2);
    expect(JSON.parse(handle.lines[1] as string).body.id).toBe(ID);
    expect(handle.stderr()).toContain('1 ignored (other tasks)');
  });

  it('Ctrl-C closes cleanly, with how many events were received, and exits 130', async () => {
    const handle = await listen(['--jsonl']);
    for (let i = 0; i < 2; i++) expect((await post(handle.url, completedEvent())).status).toBe(200);
    await handle.line(2);
    handle.kill('SIGINT');
    expect(await handle.exited).toBe(130);
    expect(handle.stderr()).toMatch(/Stopped\. Received 2 event\(s\)\./);
    await expect(fetch(handle.url, { method: 'POST' })).rejects.toThrow();
  });
});

describe('webhook-listen --output', () => {
  it.skipIf(process.platform !== 'linux')('answers 500 (not 200) and prints nothing when the event cannot be stored', async () => {
    const handle = await listen(['--output', '/dev/full', '--jsonl']);
    const answer = await post(handle.url, completedEvent());
    expect(answer.status).toBe(500);
    expect(answer.json?.error).toMatch(/could not store the event: .*ENOSPC/);
    await handle.stderrMatches(/could not write the event to \/dev\/full/);
    expect(handle.lines).toEqual([handle.url]);
  });

  it('stores 300 concurrent events exactly once each', async () => {
    const file = join(tempDir(), 'events.jsonl');
    const handle = await listen(['--output', file, '--count', '300', '--jsonl']);
    const events = Array.from({ length: 300 }, () => completedEvent());
    const answers = await Promise.all(events.map((event) => post(handle.url, event)));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(await handle.exited).toBe(0);
    const stored = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line).body.id);
    expect(stored.sort()).toEqual(events.map((event) => event.id).sort());
    // stdout shows them in the file's order.
    expect(handle.lines.slice(1).map((line) => JSON.parse(line).body.id)).toEqual(readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line).body.id));
  });
});

describe('webhook-listen --output: a log torn by a power cut', () => {
  it('moves the torn last line to FILE.torn, says so, appends on a fresh line, and replay reads the whole log', async () => {
    const file = join(tempDir(), 'events.jsonl');
    const first = await listen(['--output', file, '--once', '--jsonl']);
    expect((await post(first.url, completedEvent(901))).status).toBe(200);
    expect(await first.exited).toBe(0);
    const whole = readFileSync(file, 'utf8');
    writeFileSync(file, whole.slice(0, 40), { flag: 'a' }); // the next event's line, cut short by the power cut

    const second = await listen(['--output', file, '--once', '--jsonl']);
    expect((await post(second.url, completedEvent(902))).status).toBe(200);
    expect(await second.exited).toBe(0);
    expect(second.stderr()).toContain(`${file}: its last line was torn (40 bytes cut short by a crash, never acknowledged): moved to ${file}.torn`);
    expect(readFileSync(`${file}.torn`, 'utf8')).toBe(`${whole.slice(0, 40)}\n`);

    const replay = await agentctl(['webhook-listen', 'replay', file, '--jsonl']);
    expect(replay.exitCode).toBe(0);
    expect(replay.stdout.trim().split('\n').map((line) => JSON.parse(line).body.id)).toEqual([completedEvent(901).id, completedEvent(902).id]);
    expect(replay.stderr).toBe('');
  });
});

describe('webhook-listen --forward-to', () => {
  it('re-posts each body with its content type and user agent', async () => {
    const port = await freePort();
    const received: Relayed[] = [];
    await startTarget(port, received);
    const handle = await listen(['--forward-to', `http://127.0.0.1:${port}/relay`, '--once']);
    const body = JSON.stringify(completedEvent());
    const answer = await fetch(handle.url, { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8', 'user-agent': 'Gobii-AgentWebhook/1.0' }, body });
    expect(answer.status).toBe(200);
    expect(await handle.exited).toBe(0);
    expect(received).toEqual([{ body, ua: 'Gobii-AgentWebhook/1.0', type: 'application/json; charset=utf-8' }]);
    expect(handle.stderr()).toContain(`Forwarded 1 to http://127.0.0.1:${port}/relay.`);
  });

  it('a target down for a while, then back: the service is acknowledged at once, and every event arrives once, in order', async () => {
    const port = await freePort();
    // --count: the run ends once every event is forwarded and answered (a Ctrl-C right after the
    // target has them all may still be reading the answers of the last window in flight).
    const handle = await listen(['--forward-to', `http://127.0.0.1:${port}/relay`, '--jsonl', '--count', '25']);
    const events = Array.from({ length: 25 }, () => completedEvent());
    for (const event of events.slice(0, 15)) {
      const started = Date.now();
      expect((await post(handle.url, event)).status).toBe(200);
      expect(Date.now() - started).toBeLessThan(2000); // never held up by the dead target
    }
    await handle.stderrMatches(/forwarding to http:\/\/127\.0\.0\.1:\d+\/relay failed \(ECONNREFUSED\); retrying/);

    const received: Relayed[] = [];
    await startTarget(port, received);
    for (const event of events.slice(15)) expect((await post(handle.url, event)).status).toBe(200);
    await eventually(() => received.length >= 25, 20_000, 'all 25 events at the target');
    expect(received.map((r) => JSON.parse(r.body).id)).toEqual(events.map((event) => event.id));
    expect(received.every((r) => r.ua === 'Test-AgentWebhook/1.0' && r.type === 'application/json')).toBe(true);
    expect(await handle.exited).toBe(0);
    expect(handle.stderr()).toMatch(/works again/);
    expect(handle.stderr()).toMatch(/Received 25 event\(s\)\.\nForwarded 25 to http:\/\/127\.0\.0\.1:\d+\/relay\./);
    expect(received).toHaveLength(25);
  });

  it('Ctrl-C reports events still queued for a target that never came back', async () => {
    const port = await freePort();
    const handle = await listen(['--forward-to', `http://127.0.0.1:${port}/relay`]);
    for (let i = 0; i < 3; i++) expect((await post(handle.url, completedEvent())).status).toBe(200);
    await handle.stderrMatches(/retrying/);
    handle.kill('SIGINT');
    expect(await handle.exited).toBe(130);
    expect(handle.stderr()).toMatch(/Forwarded 0 to \S+, 3 still queued \(not delivered, and lost: only --output keeps them for the next start\)\./);
  });

  it('Ctrl-C lets the forwards under way end: counted as forwarded, and not sent again by the next start', async () => {
    const file = join(tempDir(), 'events.jsonl');
    const port = await freePort();
    const relay = `http://127.0.0.1:${port}/relay`;
    const received: Relayed[] = [];
    let answer = () => {};
    await startTarget(port, received, new Promise<void>((resolve) => (answer = resolve)));
    const handle = await listen(['--output', file, '--forward-to', relay]);
    for (let i = 0; i < 3; i++) expect((await post(handle.url, completedEvent())).status).toBe(200);
    await eventually(() => received.length >= 3, 10_000, 'the target holding 3 events');
    handle.kill('SIGINT');
    // The target answers only once the listener has stopped taking events.
    await eventually(() => fetch(handle.url, { method: 'POST' }).then(() => undefined, () => true), 10_000, 'the listener closed');
    answer();
    expect(await handle.exited).toBe(130);
    expect(handle.stderr()).toContain(`Forwarded 3 to ${relay}.`);
    const next = await listen(['--output', file, '--forward-to', relay, '--timeout', '0.2']);
    expect(await next.exited).toBe(7);
    expect(next.stderr()).not.toContain('Resuming');
    expect(received).toHaveLength(3);
  });

  it('--count waits for forwarding to finish; exits 8 when --drain-timeout runs out first', async () => {
    const port = await freePort();
    const handle = await listen(['--forward-to', `http://127.0.0.1:${port}/relay`, '--once', '--drain-timeout', '0.5']);
    expect((await post(handle.url, completedEvent())).status).toBe(200);
    expect(await handle.exited).toBe(8);
    expect(handle.stderr()).toMatch(/1 still queued/);
    expect(handle.stderr()).toMatch(/could not be forwarded before the drain timeout/);
  });
});
