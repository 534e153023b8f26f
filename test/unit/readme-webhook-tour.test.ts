import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listenerUrl } from '../../src/webhooks/listener.js';

// The README's quick tour shows a task pointed at a running `webhook-listen`: the URL the task is
// given is the one that listener serves (its --host, --port and --path), so copying both works.
const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
const tour = /^## Quick tour\n[\s\S]*?```sh\n([\s\S]*?)```/m.exec(readme)?.[1] ?? '';

describe("the README's quick tour", () => {
  it('points a task at the webhook-listen it starts', () => {
    const listen = /^agentctl webhook-listen (.*)$/m.exec(tour)?.[1];
    expect(listen, 'the tour starts no webhook-listen').toBeDefined();
    const flag = (name: string) => new RegExp(`--${name} (\\S+)`).exec(listen ?? '')?.[1];
    const port = Number(flag('port'));
    expect(port, 'the listener needs a fixed --port to be pointed at').toBeGreaterThan(0);
    const url = listenerUrl(flag('host') ?? '127.0.0.1', port, flag('path') ?? '');
    expect(tour).toMatch(new RegExp(`^agentctl tasks create .* --webhook ${url.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(\\s|$)`, 'm'));
  });
});
