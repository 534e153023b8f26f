// The library (agentctl/client) beside its floor: `client.tasks.get(id)` on loopback against the
// same GET sent with a bare node:http request through a kept-alive connection, its body parsed.
// Usage: node bench/library.mjs [--rounds N] [--calls N]   (after `npm run build`)
//
// Both run in this process, one after the other, against one emulator in a process of its own (so
// its work does not share this thread): each round times --calls calls of each (the order
// alternates each round), and the ratio is the median over rounds of the round's median(library) /
// median(floor). What the library adds is its own per-call cost: its input checks, the API layer's
// request set-up, the response check and redaction. Exits 1 when the goal is missed.
import { Agent } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { KEY, median, plainGet, startEmulator } from './loopback.mjs';

const GOAL_RATIO = 1.1;
const WARM_UP_CALLS = 2000;

const { values: flags } = parseArgs({ options: { rounds: { type: 'string', default: '7' }, calls: { type: 'string', default: '400' } } });
const ROUNDS = Number(flags.rounds);
const CALLS = Number(flags.calls);
const here = (path) => fileURLToPath(new URL(path, import.meta.url));


/** Each call's time, in milliseconds, `count` calls one after the other. */
async function timed(count, call) {
  const times = [];
  for (let i = 0; i < count; i++) {
    const start = process.hrtime.bigint();
    await call();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return times;
}

const { createClient } = await import(here('../dist/client/index.mjs'));
const emulator = await startEmulator();
try {
  const client = createClient({ baseUrl: emulator.baseUrl, apiKey: KEY });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const { id } = await client.tasks.create({ prompt: 'bench: one task read again and again' });
  const url = `${emulator.baseUrl}/tasks/browser-use/${id}/`;
  const subjects = {
    library: () => client.tasks.get(id),
    floor: () => plainGet(agent, url),
  };
  // Both answer the same record.
  const [mine, floor] = [await subjects.library(), await subjects.floor()];
  if (mine.id !== floor.id || mine.status !== floor.status) throw new Error('the library and the floor read different records');
  for (const call of Object.values(subjects)) await timed(WARM_UP_CALLS, call);

  const ratios = [];
  const medians = { library: [], floor: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? ['library', 'floor'] : ['floor', 'library'];
    const round_ = {};
    for (const name of order) round_[name] = median(await timed(CALLS, subjects[name]));
    for (const name of order) medians[name].push(round_[name]);
    ratios.push(round_.library / round_.floor);
  }
  const ratio = median(ratios);
  const us = (ms) => `${(ms * 1000).toFixed(0)} us`;
  console.log(`client.tasks.get: ${us(median(medians.library))} a call vs node:http ${us(median(medians.floor))}: ${ratio.toFixed(2)}x (goal <= ${GOAL_RATIO.toFixed(2)}x)`);
  console.log(`  rounds (${ROUNDS} x ${CALLS} calls each): ${ratios.map((value) => value.toFixed(2)).join(', ')}`);
  await client.close();
  agent.destroy();
  if (ratio > GOAL_RATIO) process.exitCode = 1;
} finally {
  await emulator.stop();
}
