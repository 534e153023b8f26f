// How fast does `tasks run-batch` create tasks, against a floor that does nothing else? 100,000 creates
// against the bundled emulator with 32 in flight: `agentctl tasks run-batch FILE --concurrency 32`
// (checks every line first, writes the ledger, prints a JSON line per task) versus a plain node:http
// script posting the same bodies with 32 in flight on a keep-alive agent. Each run gets a fresh
// emulator; runs alternate; medians of wall time (process start to exit). Goals: throughput >= 0.9x
// the floor (0.8x below 100,000 lines), peak RSS < 150 MiB, and the heap kept after a full GC flat (at most 1.25x) between a
// fifth of the lines and all of them: the input is streamed.
// Usage: node bench/run-batch.mjs [lines] [runs] [in-flight]   (after `npm run build`; defaults 100000 5 32)
//        node bench/run-batch.mjs follow [lines] [task-seconds] [max-rate] [poll|webhook]   (defaults 10000 20 none both)
// The second: `run-batch --follow`, then `--webhook-listen`, on tasks that each run task-seconds, and
// the requests each sends per finished task (creates and polls, counted by the emulator), the peak
// request rate and memory. Goals: every task followed to its end (exit 0), peak RSS < 150 MiB plus 1 KiB
// per task followed (a followed task is held until it ends), and
// with a max-rate, no second with more requests than it (5% slack for where the seconds fall).
// Both exit 1 when a goal is missed (`npm run bench -- --only batch` runs them).
// For clean figures: env -i PATH=$PATH HOME=$HOME node bench/run-batch.mjs
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const follow = process.argv[2] === 'follow';
const args = follow ? process.argv.slice(1) : process.argv;
const lines = Number(args[2] ?? (follow ? 10000 : 100000));
const runs = follow ? 1 : Number(args[3] ?? 5);
const inFlight = follow ? 32 : Number(args[4] ?? 32);
const taskSeconds = Number(args[3] ?? 20);
const maxRate = args[4] === 'none' ? undefined : args[4];
const modes = { poll: ['--follow'], webhook: ['--webhook-listen'] }[args[5]] ?? ['--follow', '--webhook-listen'];
const small = Math.max(1, Math.round(lines / 5));
const bin = fileURLToPath(new URL('../bin/agentctl.js', import.meta.url));
const KEY = 'emulator-key';
const dir = mkdtempSync(join(tmpdir(), 'agentctl-bench-batch-'));
const MAX_RSS_MIB = 150;
const missed = [];
/** Prints a figure's verdict; a missed goal makes the bench exit 1. */
function goal(name, met, detail) {
  console.log(`  ${name}: ${detail}  ${met ? 'ok' : 'MISSED'}`);
  if (!met) missed.push(name);
}

// Loaded into the measured process: reports its peak RSS and, after a full GC, the heap it still
// holds (both KiB) on fd 3 as it exits. Peak RSS also counts garbage not yet collected; the retained
// heap is what the run keeps per line.
const REPORT_PEAK = `data:text/javascript,${encodeURIComponent(
  "import { writeSync } from 'node:fs'; process.on('exit', () => { try { globalThis.gc?.(); const u = process.resourceUsage(); writeSync(3, `${u.maxRSS} ${process.memoryUsage().heapUsed / 1024} ${(u.userCPUTime + u.systemCPUTime) / 1000}`); } catch {} });",
)}`;

// The floor: read the file, POST each line's task with node:http, 16 in flight, nothing else.
const FLOOR = `
import { readFileSync } from 'node:fs';
import http from 'node:http';
const [file, base] = process.argv.slice(1);
const url = new URL(base + '/tasks/browser-use/');
const agent = new http.Agent({ keepAlive: true, maxSockets: ${inFlight} });
const bodies = readFileSync(file, 'utf8').split('\\n').filter(Boolean).map((line) => {
  const { prompt } = JSON.parse(line);
  return JSON.stringify({ prompt });
});
let next = 0;
const post = (body) => new Promise((resolve, reject) => {
  const req = http.request(url, { method: 'POST', agent, headers: { 'x-api-key': '${KEY}', 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
    const chunks = [];
    res.on('data', (c) => chunks.push(c));
    res.on('end', () => res.statusCode === 201 ? resolve(JSON.parse(Buffer.concat(chunks)).id) : reject(new Error('status ' + res.statusCode)));
  });
  req.on('error', reject);
  req.end(body);
});
await Promise.all(Array.from({ length: ${inFlight} }, async () => { while (next < bodies.length) await post(bodies[next++]); }));
agent.destroy();
`;

function input(n) {
  const path = join(dir, `tasks-${n}.jsonl`);
  const filler = 'then compare the three cheapest offers and report the best one.';
  const text = Array.from({ length: n }, (_, i) => JSON.stringify({ prompt: `Task ${i}: open the shop page ${filler}`, key: `k${i}` })).join('\n');
  writeFileSync(path, `${text}\n`);
  return path;
}

// The emulator for the follow figures, through its library: it counts the requests it answers per
// second of its own time (counted in this bench from its log, a busy bench read the lines late, in bursts).
const COUNTING_EMULATOR = `
const { startEmulator } = await import(process.argv[1]);
const perSecond = new Map();
let total = 0;
let creates = 0;
const emulator = await startEmulator({ port: 0, taskDurationMs: Number(process.argv[2]), log: (line) => {
  if (!line.startsWith('GET ') && !line.startsWith('POST ')) return;
  total++;
  if (line.startsWith('POST ')) creates++;
  const second = Math.floor(performance.now() / 1000);
  perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
} });
console.log(emulator.baseUrl);
process.on('SIGTERM', () => {
  process.stdout.write(JSON.stringify({ total, creates, peak: Math.max(0, ...perSecond.values()) }) + '\\n', () => process.exit(0));
});
`;

/**
 * The emulator in its own process. With `countRequests`, stop() resolves with the requests it
 * answered ({ total, creates, peak }: the most in one second).
 */
async function startEmulator({ taskMs = 3600000, countRequests = false } = {}) {
  const library = new URL('../dist/emulator/index.mjs', import.meta.url).href;
  const argv = countRequests ? ['--input-type=module', '-e', COUNTING_EMULATOR, library, String(taskMs)] : [bin, 'emulator', '--port', '0', '--task-duration', String(taskMs), '--quiet'];
  const child = spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const first = await Promise.race([lines.next(), exited.then((code) => ({ done: true, code }))]);
  if (first.done) throw new Error(`the emulator exited early (code ${first.code})`);
  let stopping;
  const stop = () => (stopping ??= ending());
  const ending = async () => {
    child.kill('SIGTERM');
    const counts = countRequests ? (await lines.next()).value : undefined;
    await exited;
    return counts ? JSON.parse(counts) : undefined;
  };
  return { baseUrl: first.value, stop };
}

/** run-batch --follow (polling) and --webhook-listen: requests per finished task and the peak rate, as the emulator saw them. */
async function followBench() {
  const file = input(lines);
  for (const mode of modes) {
    const emulator = await startEmulator({ taskMs: taskSeconds * 1000, countRequests: true });
    try {
      rmSync(`${file}.ledger`, { force: true });
      const rate = maxRate ? ['--max-rate', maxRate] : [];
      // Exit 1 too: a create the overloaded emulator cut off is reported unknown, and its line still printed.
      const result = await timed([bin, 'tasks', 'run-batch', file, '--concurrency', String(inFlight), mode, '--quiet', ...rate], { AGENTCTL_BASE_URL: emulator.baseUrl, AGENTCTL_API_KEY: KEY }, [0, 1]);
      if (result.lines !== lines) throw new Error(`run-batch printed ${result.lines} lines for ${lines} tasks`);
      const { total, creates, peak } = await emulator.stop();
      console.log(`run-batch ${mode}: ${lines} tasks of ${taskSeconds} s each, ${inFlight} in flight${maxRate ? `, --max-rate ${maxRate}` : ''}`);
      console.log(`  wall ${(result.ms / 1000).toFixed(1)} s, ${total} requests (${creates} creates, ${total - creates} polls)${result.code ? `, exit ${result.code}` : ''}`);
      console.log(`  requests per finished task: ${(total / lines).toFixed(2)} (polls ${((total - creates) / lines).toFixed(2)}); peak ${peak} requests/s`);
      goal('every task followed to its end', result.code === 0, `exit ${result.code}`);
      // Following holds each task until it ends (~300 bytes of heap, and V8's headroom over it), so the
      // bound grows with the batch: a regression like the 417 MiB of the unbounded webhook flood fails it.
      const followRss = MAX_RSS_MIB + lines / 1024;
      goal('peak RSS', result.peakMiB < followRss, `${result.peakMiB.toFixed(1)} MiB (goal < ${followRss.toFixed(0)}: ${MAX_RSS_MIB} MiB + 1 KiB per task followed), heap after GC ${result.heapMiB.toFixed(1)} MiB`);
      if (maxRate) goal('request rate bounded', peak <= Number(maxRate) * 1.05, `peak ${peak} requests/s (goal <= ${maxRate})`);
    } finally {
      await emulator.stop();
    }
  }
}

if (follow) {
  try {
    await followBench();
  } finally {
    rmSync(dir, { recursive: true, force: true }); // also when a run failed
  }
  process.exit(missed.length ? 1 : 0);
}

/** Runs a process to its end: wall time in ms, peak RSS in MiB, stdout lines. */
function timed(args, env = {}, okCodes = [0]) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--expose-gc', '--import', REPORT_PEAK, ...args], {
      stdio: ['ignore', 'pipe', 'inherit', 'pipe'],
      env: { ...process.env, ...env },
    });
    let out = 0;
    // Counted with indexOf, not byte by byte: this process shares the 2 cores with the measured two.
    child.stdout.on('data', (chunk) => {
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) out++;
    });
    let peak = '';
    child.stdio[3].on('data', (chunk) => (peak += chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      if (!okCodes.includes(code)) return reject(new Error(`${args.slice(0, 3).join(' ')} exited ${code}`));
      const [rss, heap, cpuMs] = peak.split(' ').map(Number);
      resolve({ code, ms: performance.now() - started, cpuMs, peakMiB: rss / 1024, heapMiB: heap / 1024, lines: out });
    });
  });
}

async function once(kind, file, n) {
  const emulator = await startEmulator();
  try {
    if (kind === 'floor') return await timed(['--input-type=module', '-e', FLOOR, file, emulator.baseUrl]);
    rmSync(`${file}.ledger`, { force: true });
    const result = await timed([bin, 'tasks', 'run-batch', file, '--concurrency', String(inFlight), '--quiet'], { AGENTCTL_BASE_URL: emulator.baseUrl, AGENTCTL_API_KEY: KEY });
    if (result.lines !== n) throw new Error(`run-batch printed ${result.lines} lines for ${n} tasks`);
    return result;
  } finally {
    emulator.stop();
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

try {
  const file = input(lines);
  const floor = [];
  const cli = [];
  for (let i = 0; i < runs; i++) {
    floor.push(await once('floor', file, lines));
    cli.push(await once('cli', file, lines));
  }
  const smallRun = await once('cli', input(small), small);
  const floorMs = median(floor.map((r) => r.ms));
  const cliMs = median(cli.map((r) => r.ms));
  const cliPeak = median(cli.map((r) => r.peakMiB));
  const cliHeap = median(cli.map((r) => r.heapMiB));
  console.log(`${lines} creates against the bundled emulator, ${inFlight} in flight, median of ${runs} runs`);
  const floorCpu = median(floor.map((r) => r.cpuMs));
  const cliCpu = median(cli.map((r) => r.cpuMs));
  console.log(`  floor (node:http)                          ${(floorMs / 1000).toFixed(2)} s  ${((lines / floorMs) * 1000).toFixed(0)} tasks/s  CPU ${(floorCpu / 1000).toFixed(2)} s`);
  console.log(`  agentctl tasks run-batch --concurrency ${inFlight}  ${(cliMs / 1000).toFixed(2)} s  ${((lines / cliMs) * 1000).toFixed(0)} tasks/s  CPU ${(cliCpu / 1000).toFixed(2)} s`);
  // The issue's goal is for 100,000 lines; on a shorter run start-up and the input check weigh more.
  const minRatio = lines >= 100_000 ? 0.9 : 0.8;
  goal('throughput ratio agentctl / floor', floorMs / cliMs >= minRatio, `${(floorMs / cliMs).toFixed(2)}x (goal >= ${minRatio.toFixed(2)})`);
  console.log(`  client CPU per task: floor ${((floorCpu / lines) * 1000).toFixed(0)} µs, agentctl ${((cliCpu / lines) * 1000).toFixed(0)} µs (wall times on a shared machine swing with load; CPU less so)`);
  const peakText = `${smallRun.peakMiB.toFixed(1)} MiB at ${small} lines, ${cliPeak.toFixed(1)} MiB at ${lines} lines`;
  goal('peak RSS of agentctl', cliPeak < MAX_RSS_MIB, `${peakText} (goal < ${MAX_RSS_MIB} MiB)`);
  const heapText = `${smallRun.heapMiB.toFixed(1)} MiB at ${small} lines, ${cliHeap.toFixed(1)} MiB at ${lines} lines`;
  goal('heap kept after a full GC', cliHeap / smallRun.heapMiB <= 1.25, `${heapText}, ratio ${(cliHeap / smallRun.heapMiB).toFixed(2)} (goal <= 1.25: flat)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (missed.length) process.exitCode = 1;
