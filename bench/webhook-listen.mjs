// Throughput and acknowledgement latency of `agentctl webhook-listen`, with zero-loss checks.
// Usage: node bench/webhook-listen.mjs [events=10000] [senders=50] [--no-output] [--no-forward]
// (after `npm run build`). Loopback only; bounded in count and time (fails after 180 s).
//
// It runs the built CLI (`webhook-listen --print-url --jsonl --count N --output FILE --forward-to
// SINK`), posts N valid completion events from `senders` concurrent keep-alive connections, and
// times each POST until its 200. Then it checks that every event was acknowledged 200, printed
// once, stored once in the output file, and forwarded once, in the file's order.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const positional = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const flags = new Set(process.argv.slice(2).filter((arg) => arg.startsWith('--')));
const total = Math.min(Number(positional[0] ?? 10_000), 200_000);
const senders = Math.min(Number(positional[1] ?? 50), 500);
const withOutput = !flags.has('--no-output');
const withForward = !flags.has('--no-forward');
const LIMIT_MS = 180_000;
if (!Number.isInteger(total) || total < 1 || !Number.isInteger(senders) || senders < 1) {
  console.error('usage: node bench/webhook-listen.mjs [events] [senders] [--no-output] [--no-forward]');
  process.exit(2);
}

const bin = fileURLToPath(new URL('../bin/agentctl.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'agentctl-bench-'));
const outputFile = join(dir, 'events.jsonl');
const failures = [];
let child;
const guard = setTimeout(() => {
  console.error(`bench: gave up after ${LIMIT_MS / 1000} s`);
  child?.kill('SIGKILL');
  process.exit(1);
}, LIMIT_MS);

// A forward target that records what reaches it.
const forwarded = [];
const sink = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    forwarded.push(JSON.parse(Buffer.concat(chunks).toString()).id);
    res.writeHead(204).end();
  });
});
if (withForward) await new Promise((resolve) => sink.listen(0, '127.0.0.1', resolve));

const args = ['webhook-listen', '--print-url', '--jsonl', '--count', String(total)];
if (withOutput) args.push('--output', outputFile);
if (withForward) args.push('--forward-to', `http://127.0.0.1:${sink.address().port}/sink`, '--drain-timeout', '60');
child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH, HOME: dir } });
let stderr = '';
child.stderr.on('data', (chunk) => (stderr += chunk));
const lines = [];
const rl = createInterface({ input: child.stdout });
const url = await new Promise((resolve, reject) => {
  rl.once('line', resolve);
  child.once('exit', (code) => reject(new Error(`listener exited ${code}: ${stderr}`)));
});
rl.on('line', (line) => lines.push(line));
const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));

const events = Array.from({ length: total }, (_, i) => ({
  id: randomUUID(),
  status: i % 10 === 9 ? 'failed' : 'completed',
  agent_id: randomUUID(),
  result: i % 10 === 9 ? null : `result ${i}`,
  ...(i % 10 === 9 ? { error_message: 'bench failure' } : {}),
}));

const agent = new Agent({ keepAlive: true, maxSockets: senders });
const target = new URL(url);
function post(body) {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent, headers: { 'content-type': 'application/json', 'user-agent': 'Bench-AgentWebhook/1.0', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const latencies = new Float64Array(total);
let next = 0;
const started = process.hrtime.bigint();
await Promise.all(
  Array.from({ length: senders }, async () => {
    while (next < total) {
      const index = next++;
      const body = JSON.stringify(events[index]);
      const sent = process.hrtime.bigint();
      const status = await post(body).catch((error) => `error ${error.code ?? error.message}`);
      latencies[index] = Number(process.hrtime.bigint() - sent) / 1e6;
      if (status !== 200) failures.push(`event ${index}: ${status}`);
    }
  }),
);
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
agent.destroy();
const code = await exited;
clearTimeout(guard);
if (withForward) await new Promise((resolve) => sink.close(resolve));

// Zero loss: every id acknowledged, printed once, stored once, forwarded once in file order.
const sentIds = events.map((event) => event.id);
const check = (what, ids) => {
  const seen = new Set(ids);
  const lost = sentIds.filter((id) => !seen.has(id)).length;
  const duplicated = ids.length - seen.size;
  if (lost || duplicated || ids.length !== total) failures.push(`${what}: ${ids.length} of ${total}, ${lost} lost, ${duplicated} duplicated`);
  return lost;
};
if (code !== 0) failures.push(`listener exited ${code}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`);
const printed = lines.map((line) => JSON.parse(line).body.id);
let lost = check('printed', printed);
if (withOutput) {
  const stored = readFileSync(outputFile, 'utf8').trim().split('\n').map((line) => JSON.parse(line).body.id);
  lost = Math.max(lost, check('stored', stored));
  if (stored.join() !== printed.join()) failures.push('stdout and the output file disagree on the order');
}
if (withForward) {
  lost = Math.max(lost, check('forwarded', forwarded));
  if (forwarded.join() !== printed.join()) failures.push('forwarded order differs from the received order');
}
rmSync(dir, { recursive: true, force: true });

const sorted = [...latencies].sort((a, b) => a - b);
const pct = (p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
console.log(
  `webhook-listen: ${total} events, ${senders} concurrent senders, output file ${withOutput ? 'on (fsync before 200)' : 'off'}, forwarding ${withForward ? 'on' : 'off'}`,
);
console.log(`throughput      ${(total / seconds).toFixed(0)} events/s (${seconds.toFixed(2)} s)`);
console.log(`ack latency     p50 ${pct(50).toFixed(2)} ms   p99 ${pct(99).toFixed(2)} ms   max ${sorted.at(-1).toFixed(2)} ms`);
console.log(`lost events     ${failures.length ? lost : 0}${failures.length ? '' : ' (all acknowledged 200, printed, stored and forwarded exactly once, in order)'}`);
if (failures.length) {
  console.error(`FAILED:\n  ${failures.slice(0, 10).join('\n  ')}`);
  process.exit(1);
}
