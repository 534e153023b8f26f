// `agentctl webhook-listen --output F --forward-to URL` beside its floor, with zero-loss checks.
// Usage: node bench/webhook-listen.mjs [--events N] [--senders N] [--rounds N]   (after `npm run build`)
//
// The floor is the plain program below (`floorServer`): a node:http server that appends each event
// as a JSON line (fsynced before the 200, group commit) and forwards it with 8 requests in flight
// through a keep-alive agent. Each round runs the floor and agentctl one after the other (the order
// alternates), in a clean environment, stdout to a file, posting N events from `senders` keep-alive connections; a
// run's figure is N / (first POST -> last event at the forward target). The ratio is
// median(agentctl) / median(floor); the bench exits 1 below GOAL, or when agentctl loses, repeats or
// reorders an event (every event acknowledged 200, stored once, forwarded once in the stored order).
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const GOAL = 0.9;

if (process.argv[2] === '--floor') await floorServer(Number(process.argv[3]), process.argv[4], process.argv[5], Number(process.argv[6]));
else await bench();

/** The floor: what a careful person writes by hand for "store, acknowledge, forward". */
async function floorServer(port, output, target, count) {
  const { open } = await import('node:fs/promises');
  const file = await open(output, 'a', 0o600);
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  const to = new URL(target);
  const queue = [];
  let waiting = [], writing = false, inFlight = 0, forwarded = 0;
  const forward = () => {
    while (inFlight < 8 && queue.length > 0) {
      const body = queue.shift();
      inFlight++;
      const headers = { 'content-type': 'application/json', 'content-length': body.length };
      request({ agent, host: to.hostname, port: to.port, path: to.pathname, method: 'POST', headers }, (res) => {
        res.resume().on('end', () => (inFlight--, ++forwarded === count ? process.exit(0) : forward()));
      }).end(body);
    }
  };
  const flush = async () => {
    if (writing) return;
    writing = true;
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      await file.write(batch.map((entry) => entry.line).join(''));
      await file.sync();
      for (const entry of batch) entry.stored();
    }
    writing = false;
  };
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk)).on('end', () => {
      const raw = Buffer.concat(chunks);
      const headers = { 'user-agent': req.headers['user-agent'] ?? null, 'content-type': req.headers['content-type'] ?? null };
      const line = `${JSON.stringify({ received_at: new Date().toISOString(), headers, body: JSON.parse(raw) })}\n`;
      waiting.push({ line, stored: () => (res.end('{"ok":true}'), queue.push(raw), forward()) });
      void flush();
    });
  });
  server.listen(port, '127.0.0.1');
}

async function bench() {
  const { values } = parseArgs({ options: { events: { type: 'string' }, senders: { type: 'string' }, rounds: { type: 'string' } } });
  const total = Number(values.events ?? 20_000);
  const senders = Number(values.senders ?? 32);
  const rounds = Number(values.rounds ?? 7);
  if (![total, senders, rounds].every((n) => Number.isInteger(n) && n > 0) || total > 200_000 || senders > 500) {
    console.error('usage: node bench/webhook-listen.mjs [--events N<=200000] [--senders N<=500] [--rounds N]');
    process.exit(2);
  }
  const bin = fileURLToPath(new URL('../bin/agentctl.js', import.meta.url));
  const self = fileURLToPath(import.meta.url);
  const dir = mkdtempSync(join(tmpdir(), 'agentctl-bench-'));
  const guard = setTimeout(() => {
    console.error('bench: gave up after 15 minutes');
    process.exit(1);
  }, 15 * 60_000);

  // The forward target, shared by every run: records the ids in arrival order.
  let forwarded = [];
  let onForwarded = () => undefined;
  const sink = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk)).on('end', () => {
      forwarded.push(JSON.parse(Buffer.concat(chunks).toString()).id);
      res.writeHead(204).end();
      onForwarded();
    });
  });
  await new Promise((resolve) => sink.listen(0, '127.0.0.1', resolve));
  const sinkUrl = `http://127.0.0.1:${sink.address().port}/sink`;

  const contenders = {
    floor: (port, output) => [self, '--floor', String(port), output, sinkUrl, String(total)],
    agentctl: (port, output) =>
      [bin, 'webhook-listen', '--port', String(port), '--path', '/hook', '--jsonl', '--count', String(total), '--output', output, '--forward-to', sinkUrl, '--drain-timeout', '120'],
  };
  const rates = { floor: [], agentctl: [] };
  const failures = [];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? ['floor', 'agentctl'] : ['agentctl', 'floor'];
    for (const name of order) {
      const output = join(dir, `${name}-${round}.jsonl`);
      const stdout = join(dir, `${name}-${round}.out`);
      forwarded = [];
      const port = await freePort();
      const run = await runOnce(contenders[name](port, output), port, stdout, total, senders, (resolve) => (onForwarded = () => forwarded.length === total && resolve()));
      rates[name].push(total / run.seconds);
      if (name === 'agentctl') failures.push(...checkNoLoss(run, output, forwarded).map((problem) => `round ${round + 1}: ${problem}`));
      else if (run.code !== 0 || run.refused > 0) failures.push(`floor round ${round + 1}: exit ${run.code}, ${run.refused} not acknowledged`);
      rmSync(output, { force: true });
      rmSync(stdout, { force: true });
    }
  }
  clearTimeout(guard);
  sink.close();
  rmSync(dir, { recursive: true, force: true });

  const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
  const ratio = median(rates.agentctl) / median(rates.floor);
  const show = (list) => list.map((rate) => rate.toFixed(0)).join(' ');
  console.log(`webhook-listen --output F --forward-to URL: ${total} events from ${senders} keep-alive connections, ${rounds} rounds, interleaved`);
  console.log(`floor     median ${median(rates.floor).toFixed(0).padStart(6)} events/s   (${show(rates.floor)})`);
  console.log(`agentctl  median ${median(rates.agentctl).toFixed(0).padStart(6)} events/s   (${show(rates.agentctl)})`);
  console.log(`ratio     ${ratio.toFixed(2)}x the floor (goal >= ${GOAL}x)`);
  console.log(`lost      ${failures.length ? 'see below' : '0 (every event acknowledged 200, stored once, forwarded once, in order)'}`);
  if (failures.length) console.error(`FAILED:\n  ${failures.slice(0, 10).join('\n  ')}`);
  if (failures.length || ratio < GOAL) process.exit(1);
}

/** A port that was free a moment ago. */
async function freePort() {
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Resolves once something accepts connections on the port (or rejects when `exited` settles first). */
async function listening(port, exited) {
  let done = false;
  exited.then(() => (done = true));
  while (!done) {
    const up = await new Promise((resolve) => connect(port, '127.0.0.1').on('connect', function () { this.destroy(); resolve(true); }).on('error', () => resolve(false)));
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the server exited before listening');
}

/**
 * Starts a server (stdout to a file, as a user's redirect would), posts the events, waits for the
 * last forward.
 */
async function runOnce(args, port, stdoutPath, total, senders, untilForwarded) {
  const stdoutFile = openSync(stdoutPath, 'w');
  const child = spawn(process.execPath, args, { stdio: ['ignore', stdoutFile, 'pipe'], env: { PATH: process.env.PATH, HOME: process.env.HOME } });
  closeSync(stdoutFile);
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  await listening(port, exited).catch(async () => {
    throw new Error(`${args.join(' ')} exited ${await exited}: ${stderr}`);
  });
  const url = `http://127.0.0.1:${port}/hook`;
  const allForwarded = new Promise(untilForwarded);
  const events = Array.from({ length: total }, (_, i) => ({
    id: randomUUID(),
    status: i % 10 === 9 ? 'failed' : 'completed',
    agent_id: null,
    result: i % 10 === 9 ? null : `result ${i}`,
    ...(i % 10 === 9 ? { error_message: 'bench failure' } : {}),
  }));
  const agent = new Agent({ keepAlive: true, maxSockets: senders });
  const target = new URL(url);
  const post = (body) =>
    new Promise((resolve) => {
      const headers = { 'content-type': 'application/json', 'user-agent': 'Bench-AgentWebhook/1.0', 'content-length': Buffer.byteLength(body) };
      request({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent, headers }, (res) => {
        res.resume().on('end', () => resolve(res.statusCode));
      })
        .on('error', (error) => resolve(error.code ?? error.message))
        .end(body);
    });
  let next = 0;
  let refused = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: senders }, async () => {
      while (next < total) {
        const status = await post(JSON.stringify(events[next++]));
        if (status !== 200) refused++;
      }
    }),
  );
  await Promise.race([allForwarded, exited]);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const code = await exited;
  agent.destroy();
  const lines = readFileSync(stdoutPath, 'utf8').split('\n').filter(Boolean);
  return { seconds, code, refused, stderr, lines, sent: events.map((event) => event.id) };
}

/** Every event acknowledged, printed and stored once, and forwarded once in the stored order. */
function checkNoLoss(run, output, forwarded) {
  const problems = [];
  if (run.code !== 0) problems.push(`agentctl exited ${run.code}: ${run.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  if (run.refused > 0) problems.push(`${run.refused} events not acknowledged 200`);
  const stored = readFileSync(output, 'utf8').trim().split('\n').map((line) => JSON.parse(line).body.id);
  const printed = run.lines.map((line) => JSON.parse(line).body.id);
  const expected = [...run.sent].sort().join();
  for (const [what, ids] of [['stored', stored], ['printed', printed], ['forwarded', forwarded]]) {
    if ([...ids].sort().join() !== expected) problems.push(`${what}: ${ids.length} of ${run.sent.length}, or some lost or repeated`);
  }
  if (forwarded.join() !== stored.join()) problems.push('forwarded in another order than stored');
  return problems;
}
