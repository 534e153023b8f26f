// webhook-listen killed (SIGKILL): only a process can be. The runs after a kill, and every other
// webhook-listen test, run in the test process (test/commands/webhook-listen.test.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/api.js';
import { tempDir } from '../helpers/cli.js';
import { completedEvent, freePort, listen, post, startTarget, stopAll, type Relayed } from '../helpers/webhook-listen.js';

afterEach(stopAll);

describe('webhook-listen --output', () => {
  it('appends each event as a JSON line that is on disk before the 200, so a kill right after loses nothing', async () => {
    const file = join(tempDir(), 'events.jsonl');
    writeFileSync(file, '{"earlier":true}\n');
    const handle = await listen(['--output', file, '--jsonl'], {}, 'process');
    const sent = [];
    for (let i = 0; i < 3; i++) {
      const event = completedEvent();
      sent.push(event);
      expect((await post(handle.url, event)).status).toBe(200);
      // Already there when the acknowledgement arrives.
      const lines = readFileSync(file, 'utf8').trim().split('\n');
      expect(JSON.parse(lines.at(-1) as string).body).toEqual(event);
    }
    handle.kill('SIGKILL');
    await handle.exited;
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(lines[0]).toEqual({ earlier: true });
    expect(lines.slice(1).map((line) => line.body)).toEqual(sent);
    expect(lines[1]).toMatchObject({ received_at: expect.any(String), headers: { 'user-agent': 'Test-AgentWebhook/1.0', 'content-type': 'application/json' } });
  });
});

describe('with --output, the forward queue survives a stop', () => {
  const ids = (received: Array<{ body: string }>) => received.map((r) => JSON.parse(r.body).id as string);

  it('events acknowledged but not forwarded when SIGKILLed are sent first on the next start, in order, once', async () => {
    const file = join(tempDir(), 'events.jsonl');
    const port = await freePort();
    const relay = `http://127.0.0.1:${port}/relay`;
    const first = await listen(['--output', file, '--forward-to', relay], {}, 'process');
    const early = Array.from({ length: 5 }, () => completedEvent());
    for (const event of early) expect((await post(first.url, event)).status).toBe(200);
    await first.stderrMatches(/retrying/);
    first.kill('SIGKILL');
    await first.exited;

    const received: Relayed[] = [];
    await startTarget(port, received);
    const second = await listen(['--output', file, '--forward-to', relay]);
    expect(second.stderr()).toContain(`Resuming: 5 event(s) in ${file} were not forwarded to ${relay} yet; sending them first.`);
    const late = [completedEvent(), completedEvent()];
    for (const event of late) expect((await post(second.url, event)).status).toBe(200);
    await eventually(() => received.length >= 7, 10_000, 'all 7 events at the target');
    expect(ids(received)).toEqual([...early, ...late].map((event) => event.id));
    expect(received[0]?.ua).toBe('Test-AgentWebhook/1.0');
    second.kill('SIGINT');
    expect(await second.exited).toBe(130);

    // Everything was forwarded: a third start sends nothing again.
    const third = await listen(['--output', file, '--forward-to', relay, '--timeout', '0.5']);
    expect(await third.exited).toBe(7);
    expect(third.stderr()).not.toContain('Resuming');
    expect(received).toHaveLength(7);
  });

  it('Ctrl-C says how many events wait in the log; a SIGKILL after delivery sends nothing twice', async () => {
    const file = join(tempDir(), 'events.jsonl');
    const port = await freePort();
    const relay = `http://127.0.0.1:${port}/relay`;
    const down = await listen(['--output', file, '--forward-to', relay]);
    for (let i = 0; i < 3; i++) expect((await post(down.url, completedEvent())).status).toBe(200);
    await down.stderrMatches(/retrying/);
    down.kill('SIGINT');
    expect(await down.exited).toBe(130);
    expect(down.stderr()).toContain(`Forwarded 0 to ${relay}, 3 not forwarded yet (kept in ${file}: the next start with the same --output and --forward-to sends them first).`);

    const received: Relayed[] = [];
    await startTarget(port, received);
    const up = await listen(['--output', file, '--forward-to', relay], {}, 'process');
    expect((await post(up.url, completedEvent())).status).toBe(200);
    await eventually(() => received.length >= 4, 10_000, 'the 3 kept events and the new one');
    // Once the cursor has caught up with the log, a kill loses nothing and repeats nothing.
    const size = readFileSync(file).length;
    await eventually(() => JSON.parse(readFileSync(`${file}.forwarded`, 'utf8')).forwarded[relay] === size || undefined, 5000, 'the cursor at the end of the log');
    up.kill('SIGKILL');
    await up.exited;
    const again = await listen(['--output', file, '--forward-to', relay, '--once']);
    expect(again.stderr()).not.toContain('Resuming');
    expect((await post(again.url, completedEvent())).status).toBe(200);
    expect(await again.exited).toBe(0);
    expect(received).toHaveLength(5);
    expect(new Set(ids(received)).size).toBe(5);
  });
});
