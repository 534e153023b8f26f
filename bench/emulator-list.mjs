// Emulator list throughput: does a page cost the same with 100,000 tasks stored as with 100?
// Three servers run side by side, each in its own clean process (PATH and HOME only):
//   small  - the bundled emulator with 100 tasks,
//   large  - the bundled emulator with 100,000 tasks,
//   floor  - a node:http server answering every request with the same page, fixed in memory.
// Each is loaded in turn (interleaved rounds, 8 keep-alive connections, fixed time per run) with
// GET /tasks/browser-use/?page_size=100; the medians give the ratios, checked against issue 10's
// goals: large >= 0.8x small and large >= 0.5x floor. Also prints the memory per stored task.
// Then the scale goal (issue 22): list, get and create stay flat up to 1,000,000 tasks. Two more
// processes run the built library (dist/emulator, `agentctl/emulator`), one with 100 tasks and one
// with 1,000,000 stored through its `state` (seeding a million over HTTP would take minutes); each
// operation is loaded in turn on both, and huge >= 0.8x small is the goal. The memory per task is
// the RSS growth of the seeding process over the million.
// Usage: npm run build && node bench/emulator-list.mjs [rounds] [seconds-per-run] [scale-tasks]   (exit 1 when a goal is missed)
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROUNDS = Number(process.argv[2] ?? 5);
const SECONDS = Number(process.argv[3] ?? 1.5);
const SMALL = 100;
const LARGE = 100_000;
const CONNECTIONS = 8;
const PAGE = '/tasks/browser-use/?page_size=100';
const KEY = 'emulator-key';
const HUGE = Number(process.argv[4] ?? 1_000_000);
const GOALS = { largeVsSmall: 0.8, largeVsFloor: 0.5, hugeVsSmall: 0.8 };

const bin = fileURLToPath(new URL('../bin/agentctl.js', import.meta.url));
const cleanEnv = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };
const children = [];
process.on('exit', () => children.forEach((child) => child.kill()));

/** Starts a process whose first stdout line is its base URL. */
async function serve(args) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env: cleanEnv });
  children.push(child);
  const baseUrl = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited early (code ${code})`)));
  });
  return { child, baseUrl };
}

const emulator = () => serve([bin, 'emulator', '--port', '0', '--task-duration', '3600000', '--quiet']);

// Fresh keep-alive sockets per phase: a socket left idle past the server's keep-alive timeout is reset.
let agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });

/** One request; a keep-alive socket the server closed meanwhile (ECONNRESET) is retried on a new one. */
async function get(url, options = {}, tries = 3) {
  try {
    return await once(url, options);
  } catch (error) {
    if (tries <= 1 || !/ECONNRESET|socket hang up/.test(error.message)) throw error;
    return get(url, options, tries - 1);
  }
}

function once(url, { method = 'GET', body } = {}) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent, headers: { 'x-api-key': KEY, 'content-type': 'application/json' } }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.once('error', (error) => reject(new Error(`${method} ${url}: ${error.message}`)));
    req.end(body);
  });
}

/** Creates `total` tasks, CONNECTIONS at a time; [pending] keeps them from scheduling anything. */
async function seed(baseUrl, total) {
  let created = 0;
  const filler = 'Compare the prices of these items across three shops and report the cheapest. '.repeat(2);
  const worker = async () => {
    while (created < total) {
      const n = created++;
      const answer = await get(`${baseUrl}/tasks/browser-use/`, { method: 'POST', body: JSON.stringify({ prompt: `[pending] #${n} ${filler}` }) });
      if (answer.status !== 201) throw new Error(`seeding answered ${answer.status}`);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
}

const rssKiB = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);

/** Requests per second against `url` for SECONDS, CONNECTIONS requests in flight. */
async function load(url) {
  const end = performance.now() + SECONDS * 1000;
  let done = 0;
  const worker = async () => {
    while (performance.now() < end) {
      const answer = await get(url);
      if (answer.status !== 200) throw new Error(`${url} answered ${answer.status}`);
      done++;
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  return done / ((performance.now() - start) / 1000);
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const small = await emulator();
const large = await emulator();
const rssBefore = rssKiB(large.child.pid);
process.stderr.write(`seeding ${SMALL} and ${LARGE.toLocaleString('en')} tasks...\n`);
await seed(small.baseUrl, SMALL);
const seedStart = performance.now();
await seed(large.baseUrl, LARGE);
const seedSeconds = (performance.now() - seedStart) / 1000;
const rssAfter = rssKiB(large.child.pid);

// The floor answers with the large emulator's own page 1, byte for byte.
const page = await get(`${large.baseUrl}${PAGE}`);
const floorScript = `
const body = Buffer.from(${JSON.stringify(page.body.toString('base64'))}, 'base64');
const server = require('node:http').createServer((req, res) => {
  req.resume();
  req.on('end', () => { res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }); res.end(body); });
});
server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port + '/api/v1'));`;
const floor = await serve(['-e', floorScript]);

agent.destroy();
agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
const targets = { small: `${small.baseUrl}${PAGE}`, large: `${large.baseUrl}${PAGE}`, floor: `${floor.baseUrl}${PAGE}` };
const rates = { small: [], large: [], floor: [] };
for (const url of Object.values(targets)) await load(url); // warm-up
for (let round = 0; round < ROUNDS; round++) {
  const order = Object.keys(targets);
  if (round % 2) order.reverse();
  for (const name of order) rates[name].push(await load(targets[name]));
}
const deep = await load(`${large.baseUrl}/tasks/browser-use/?page_size=100&page=500`);

const med = Object.fromEntries(Object.entries(rates).map(([name, values]) => [name, median(values)]));
const largeVsSmall = med.large / med.small;
const largeVsFloor = med.large / med.floor;
const bytesPerTask = ((rssAfter - rssBefore) * 1024) / LARGE;
const fmt = (n) => Math.round(n).toLocaleString('en');
console.log(`emulator list throughput (GET ${PAGE}, ${CONNECTIONS} connections, ${ROUNDS} rounds x ${SECONDS} s, medians)`);
console.log(`  ${SMALL} tasks stored:       ${fmt(med.small)} req/s`);
console.log(`  ${fmt(LARGE)} tasks stored:   ${fmt(med.large)} req/s   (page 500 of 1000: ${fmt(deep)} req/s)`);
console.log(`  fixed-page node:http floor: ${fmt(med.floor)} req/s`);
console.log(`  large / small = ${largeVsSmall.toFixed(2)}x   (goal >= ${GOALS.largeVsSmall}x) ${largeVsSmall >= GOALS.largeVsSmall ? 'ok' : 'MISSED'}`);
console.log(`  large / floor = ${largeVsFloor.toFixed(2)}x   (goal >= ${GOALS.largeVsFloor}x) ${largeVsFloor >= GOALS.largeVsFloor ? 'ok' : 'MISSED'}`);
console.log(`  memory per stored task: ~${fmt(bytesPerTask)} bytes (RSS growth over ${fmt(LARGE)} tasks with ~170-character prompts; seeding took ${seedSeconds.toFixed(1)} s)`);

// Scale: the library in its own process, seeded through `state` (prompts as long as above).
const library = fileURLToPath(new URL('../dist/emulator/index.js', import.meta.url));
const scaleScript = (count) => `
const { startEmulator } = require(${JSON.stringify(library)});
(async () => {
  const emulator = await startEmulator({ port: 0, taskDurationMs: 3600000 });
  const filler = ${JSON.stringify('Compare the prices of these items across three shops and report the cheapest. '.repeat(2))};
  global.gc();
  const before = process.memoryUsage().rss;
  const start = performance.now();
  const ids = [];
  for (let i = 0; i < ${count}; i++) {
    // JSON.parse gives one flat string, as a prompt read from a request body is.
    const task = emulator.state.newTask({ agent_id: null, prompt: JSON.parse(JSON.stringify('[pending] #' + i + ' ' + filler)) });
    if (i % Math.max(1, Math.floor(${count} / 1000)) === 0) ids.push(task.id);
  }
  const seconds = (performance.now() - start) / 1000;
  global.gc();
  const bytesPerTask = (process.memoryUsage().rss - before) / ${count};
  console.log(JSON.stringify({ baseUrl: emulator.baseUrl, ids, bytesPerTask, seconds }));
})();`;
async function scaleServer(count) {
  const child = spawn(process.execPath, ['--expose-gc', '-e', scaleScript(count)], { stdio: ['ignore', 'pipe', 'inherit'], env: cleanEnv });
  children.push(child);
  return JSON.parse(await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the ${count}-task emulator exited early (code ${code})`)));
  }));
}
process.stderr.write(`seeding ${HUGE.toLocaleString('en')} tasks through the library...\n`);
const tiny = await scaleServer(SMALL);
const huge = await scaleServer(HUGE);
agent.destroy();
agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });

/** Requests per second of one operation for SECONDS: `next()` gives each request's URL and options. */
async function loadOp(next) {
  const end = performance.now() + SECONDS * 1000;
  let done = 0;
  const worker = async () => {
    while (performance.now() < end) {
      const [url, options] = next();
      const answer = await get(url, options);
      if (answer.status >= 300) throw new Error(`${url} answered ${answer.status}`);
      done++;
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  return done / ((performance.now() - start) / 1000);
}
const operations = {
  list: (server) => () => [`${server.baseUrl}${PAGE}`],
  get: (server) => {
    let n = 0;
    return () => [`${server.baseUrl}/tasks/browser-use/${server.ids[n++ % server.ids.length]}/`];
  },
  create: (server) => () => [`${server.baseUrl}/tasks/browser-use/`, { method: 'POST', body: '{"prompt":"[pending] created while measuring"}' }],
};
const scale = {};
for (const [name, op] of Object.entries(operations)) {
  const runs = { tiny: [], huge: [] };
  await loadOp(op(tiny));
  await loadOp(op(huge)); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    for (const which of round % 2 ? ['huge', 'tiny'] : ['tiny', 'huge']) runs[which].push(await loadOp(op(which === 'tiny' ? tiny : huge)));
  }
  scale[name] = { tiny: median(runs.tiny), huge: median(runs.huge) };
}
console.log(`emulator at scale (${fmt(HUGE)} tasks stored vs ${SMALL}, ${CONNECTIONS} connections, medians)`);
let scaleOk = true;
for (const [name, { tiny: a, huge: b }] of Object.entries(scale)) {
  const ratio = b / a;
  scaleOk &&= ratio >= GOALS.hugeVsSmall;
  console.log(`  ${name.padEnd(6)} ${fmt(a)} -> ${fmt(b)} req/s   huge / small = ${ratio.toFixed(2)}x (goal >= ${GOALS.hugeVsSmall}x) ${ratio >= GOALS.hugeVsSmall ? 'ok' : 'MISSED'}`);
}
console.log(`  memory per stored task: ~${fmt(huge.bytesPerTask)} bytes (RSS growth over ${fmt(HUGE)} tasks; seeding through the library took ${huge.seconds.toFixed(1)} s)`);
agent.destroy();
process.exitCode = largeVsSmall >= GOALS.largeVsSmall && largeVsFloor >= GOALS.largeVsFloor && scaleOk ? 0 : 1;
process.exit();
