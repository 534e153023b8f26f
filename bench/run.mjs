// `npm run bench`: every performance figure of agentctl beside its floor, in one run.
//
// Each figure is the median of several runs, interleaved with its floor's runs (the order alternates
// each round; the ratio is the median of each round's ratio) so that drift in the machine's speed
// hits both alike, and every process runs in a clean environment (PATH and HOME only, plus the
// emulator's address and key where a command needs them). It prints each ratio with its goal and
// exits 1 when a goal is missed. Loopback only.
//
// Usage: node bench/run.mjs [--runs N] [--only startup,api,record,list,plan,jq,wait,webhook,emulator,mcp,library,batch] [--quick]
//   --runs N  runs per figure for start-up and one API call (default 30; the slower figures use fewer)
//   --quick   skip the 100,000-task figures (seeding the list's takes a while; batch runs 10,000 instead)
// Needs `npm run build` first; the start-up figures include the single executable (build/agentctl)
// when `npm run sea` has built it. Figures of other benches: bench/webhook-listen.mjs,
// bench/emulator-list.mjs, bench/mcp.mjs, bench/library.mjs and bench/run-batch.mjs run as they are (their exit status is
// their verdict).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'node:http';
import { availableParallelism, loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values: flags } = parseArgs({
  options: {
    runs: { type: 'string', default: '30' },
    only: { type: 'string' },
    quick: { type: 'boolean', default: false },
  },
});
const RUNS = Number(flags.runs);
if (!Number.isInteger(RUNS) || RUNS < 3) throw new Error('--runs takes an integer of at least 3');
const GROUPS = ['startup', 'api', 'record', 'list', 'plan', 'jq', 'wait', 'webhook', 'emulator', 'mcp', 'library', 'batch'];
const only = new Set(flags.only ? flags.only.split(',') : GROUPS);
for (const group of only) if (!GROUPS.includes(group)) throw new Error(`--only takes ${GROUPS.join(',')}`);

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const BIN = here('../bin/agentctl.js');
/** The single executable of `npm run sea` (measured when it is there). */
const SEA = here(`../build/${process.platform === 'win32' ? 'agentctl.exe' : 'agentctl'}`);
const NODE = process.execPath;
const KEY = 'bench-key';
const CLEAN_ENV = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };
if (!existsSync(here('../dist/cli'))) {
  console.error('bench: agentctl is not built: run `npm run build` first');
  process.exit(2);
}

// ---------------------------------------------------------------------------------------------
// Running processes and reading figures

/**
 * Runs one process to its end. Resolves with its wall time (spawn to exit), exit code, and what it
 * printed (kept whole when `keep`, otherwise only counted); with `peak`, its peak RSS (`peakKiB`) and
 * the heap it kept after a full GC (`keptKiB`).
 */
function runOnce(args, { env = CLEAN_ENV, keep = true, peak = false, command = NODE } = {}) {
  return new Promise((resolve, reject) => {
    const argv = peak ? ['--expose-gc', '--require', here('./peak-rss.cjs'), ...args] : args;
    const stdio = ['ignore', 'pipe', 'pipe', ...(peak ? ['pipe'] : [])];
    const started = process.hrtime.bigint();
    const child = spawn(command, argv, { env, stdio });
    const out = [];
    let bytes = 0;
    let lines = 0;
    let stderr = '';
    let peakText = '';
    child.stdout.on('data', (chunk) => {
      bytes += chunk.length;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      if (keep) out.push(chunk);
    });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    if (peak) child.stdio[3].on('data', (chunk) => (peakText += chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const stdout = keep ? Buffer.concat(out).toString() : '';
      if (code !== 0) return reject(new Error(`${args.slice(1).join(' ')} exited ${code}: ${stderr.trim().slice(0, 500)}`));
      const [peakKiB, keptKiB] = peakText ? peakText.split(' ').map(Number) : [];
      resolve({ ms, code, stdout, bytes, lines, peakKiB, keptKiB });
    });
  });
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * Times every command of `subjects` and `floor` in rounds, in turn, the order reversed every
 * other round; the first round warms the file cache and is not counted. `check` sees each run.
 * Resolves with, per subject, its median time, the floor's, and the median of its ratio to the
 * floor of the same round: a ratio of two runs side by side holds while the machine's speed drifts.
 */
async function interleaved(floor, subjects, runs, check = () => {}) {
  const all = [floor, ...subjects];
  const times = new Map(all.map((item) => [item.name, []]));
  for (let round = 0; round <= runs; round++) {
    const order = round % 2 ? [...all].reverse() : all;
    for (const item of order) {
      const result = await runOnce(item.args, { env: item.env, keep: item.keep ?? true, command: item.command });
      check(item, result);
      if (round > 0) times.get(item.name).push(result.ms);
    }
  }
  const floorTimes = times.get(floor.name);
  return new Map(
    subjects.map(({ name }) => {
      const own = times.get(name);
      return [name, { ms: median(own), floorMs: median(floorTimes), ratio: median(own.map((value, i) => value / floorTimes[i])), times: own }];
    }),
  );
}

/** `agentctl 23.1 ms vs floor 21.4 ms: 1.08x` */
const versus = ({ ms: own, floorMs, ratio: value }) => `${ms(own)} vs ${ms(floorMs)}: ${ratio(value)}`;

// ---------------------------------------------------------------------------------------------
// Report

const rows = [];
/** One figure: `value` against `goal` (`max` or `min`), printed at once and kept for the summary. */
function figure(group, name, detail, value, goal) {
  const met = goal === undefined ? undefined : goal.max !== undefined ? value <= goal.max : value >= goal.min;
  rows.push({ group, name, met });
  const goalText = goal === undefined ? '' : goal.max !== undefined ? `goal <= ${goal.text ?? goal.max}` : `goal >= ${goal.text ?? goal.min}`;
  const verdict = met === undefined ? '' : met ? 'ok' : 'MISSED';
  console.log(`  ${name.padEnd(34)} ${detail.padEnd(44)} ${goalText.padEnd(18)} ${verdict}`);
}
const ms = (value) => `${value.toFixed(1)} ms`;
const ratio = (value) => `${value.toFixed(2)}x`;

function section(title) {
  console.log(`\n${title}`);
}

// ---------------------------------------------------------------------------------------------
// The emulator and plain HTTP helpers

/** Starts `agentctl emulator` on a free port; resolves with its base URL and a stop function. */
async function startEmulator(taskDurationMs) {
  const child = spawn(NODE, [BIN, 'emulator', '--port', '0', '--task-duration', String(taskDurationMs), '--api-key', KEY, '--quiet'], {
    env: CLEAN_ENV,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const baseUrl = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the emulator exited early (code ${code})`)));
  });
  const stop = () => new Promise((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', resolve), child.kill('SIGTERM'))));
  return { baseUrl, stop, env: { ...CLEAN_ENV, AGENTCTL_BASE_URL: baseUrl, AGENTCTL_API_KEY: KEY } };
}

/** One JSON request to the emulator from this process (set-up and checks, never timed). */
function api(method, url, body, agent = false) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers = { 'x-api-key': KEY, accept: 'application/json', ...(payload ? { 'content-type': 'application/json' } : {}) };
    request(url, { method, headers, agent }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        if (res.statusCode >= 300) reject(new Error(`${method} ${url} answered ${res.statusCode}: ${text.slice(0, 200)}`));
        else resolve(text ? JSON.parse(text) : undefined);
      });
    })
      .on('error', reject)
      .end(payload);
  });
}

/** Creates tasks until the emulator holds `total`, 16 at a time; ~400-character prompts that never end. */
async function seedTasks(baseUrl, from, total) {
  const filler = 'Compare the prices of these items across three shops and report the cheapest. '.repeat(5);
  // Its own kept-alive connections, closed at the end: one idle past the server's timeout is reset.
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  let next = from;
  const worker = async () => {
    while (next < total) {
      const n = next++;
      await api('POST', `${baseUrl}/tasks/browser-use/`, { prompt: `[hang] #${n} ${filler}` }, agent);
    }
  };
  try {
    await Promise.all(Array.from({ length: 16 }, worker));
  } finally {
    agent.destroy();
  }
}

const cli = (...args) => [BIN, ...args];

// ---------------------------------------------------------------------------------------------
// Figures

/** Goal 1: start-up of the commands that need no network, against bare node. */
async function startup() {
  section(`Start-up: piped output, ${RUNS} runs each, medians (goal 1)`);
  const floor = { name: 'node -e 0', args: ['-e', '0'] };
  const subjects = [
    { name: 'agentctl --version', args: cli('--version') },
    { name: 'agentctl --help', args: cli('--help') },
    { name: 'agentctl tasks --help', args: cli('tasks', '--help') },
  ];
  // The single executable carries its own node: beside the same floor, it shows what it adds.
  const sea = existsSync(SEA) ? [{ name: 'sea --version', command: SEA, args: ['--version'] }] : [];
  const results = await interleaved(floor, [...subjects, ...sea], RUNS);
  for (const { name } of subjects) {
    const result = results.get(name);
    figure('startup', name, versus(result), result.ratio, { max: 1.1, text: '1.10x' });
  }
  if (sea.length) {
    const result = results.get('sea --version');
    // No goal of its own: the executable is optional, and a figure to compare with the line above.
    figure('startup', 'sea --version (build/agentctl)', versus(result), result.ratio);
  } else console.log('  sea --version: skipped (no build/agentctl: `npm run sea` builds it)');
}

/** Goal 2: one API call against a fresh node process sending the same GET with node:http. */
async function oneCall() {
  section(`One API call against the emulator: ${RUNS} runs each, medians (goal 2)`);
  const emulator = await startEmulator(3_600_000);
  try {
    const { baseUrl, env } = emulator;
    await seedTasks(baseUrl, 0, 20);
    const [task] = (await api('GET', `${baseUrl}/tasks/browser-use/`)).results;
    for (let i = 0; i < 5; i++) await api('POST', `${baseUrl}/agents/`, { name: `bench-${i}`, charter: 'Watch the prices of three shops.' });
    const floor = (path) => ({ args: [here('./floor/get.mjs'), `${baseUrl}${path}`], env });
    const cases = [
      ['tasks list --json', cli('tasks', 'list', '--json'), '/tasks/browser-use/'],
      ['tasks get ID --json', cli('tasks', 'get', task.id, '--json'), `/tasks/browser-use/${task.id}/`],
      ['persistent list --json', cli('persistent', 'list', '--json'), '/agents/'],
    ];
    // Both must print what the service answered: the same records.
    const check = (item, result) => {
      const data = JSON.parse(result.stdout);
      if (item.expect && JSON.stringify(item.expect(data)) !== item.expectText) throw new Error(`${item.name} printed something else than the floor`);
    };
    for (const [name, args, path] of cases) {
      const base = { name: `floor ${path}`, ...floor(path) };
      const body = JSON.parse((await runOnce(base.args, { env })).stdout);
      const expected = body.results ?? body;
      const subject = { name, args, env, expect: (data) => data, expectText: JSON.stringify(expected) };
      const result = (await interleaved(base, [subject], RUNS, check)).get(name);
      figure('api', name, versus(result), result.ratio, { max: 1.5, text: '1.50x' });
    }
    // --jq loads jq (WebAssembly) and runs it twice (the expression is checked before the request):
    // no goal, a figure to watch beside the plain call above.
    const jqName = "tasks list --jq '.[].id'";
    const jqSubject = { name: jqName, args: cli('tasks', 'list', '--jq', '.[].id'), env };
    const jq = (await interleaved({ name: 'floor /tasks/browser-use/', ...floor('/tasks/browser-use/') }, [jqSubject], RUNS)).get(jqName);
    figure('api', jqName, versus(jq), jq.ratio);
  } finally {
    await emulator.stop();
  }
}

/**
 * --record FILE beside the same command without it (recording off is every other figure: without
 * the option nothing of it runs). Goal: at most 1.1x, for one call and for a walk of 2,000 tasks
 * (20 pages of 100, each answer redacted and appended as a cassette line).
 */
async function recording() {
  section(`--record FILE beside the same command without it: ${RUNS} runs each, medians (goal 1.1x)`);
  const emulator = await startEmulator(3_600_000);
  const folder = mkdtempSync(join(tmpdir(), 'agentctl-bench-record-'));
  try {
    const { baseUrl, env } = emulator;
    await seedTasks(baseUrl, 0, 2000);
    const cases = [
      ['tasks list --json', ['tasks', 'list', '--json'], RUNS],
      ['tasks list --all --jsonl (2,000 tasks)', ['tasks', 'list', '--all', '--jsonl'], Math.max(3, Math.round(RUNS / 3))],
    ];
    for (const [name, args, runs] of cases) {
      const cassette = join(folder, `${args.length}.jsonl`);
      const floor = { name: `${name} (not recording)`, args: cli(...args), env };
      const subject = { name, args: cli(...args, '--record', cassette), env };
      const result = (await interleaved(floor, [subject], runs)).get(name);
      figure('record', `${name} --record`, versus(result), result.ratio, { max: 1.1, text: '1.10x' });
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
    await emulator.stop();
  }
}

/** Goal 3: `tasks list --all --jsonl` over 10,000 tasks against an 8-in-flight floor; peak memory at 10k and 100k. */
async function listAll() {
  // As many rounds as the one-call figures: one round's ratio ranges from 0.8x to 1.5x on this 2-core
  // machine (the emulator, the client and the reader share it), so the median of 11 still swung by
  // +-0.05 between invocations; of 30 it moves by about half that. A round takes ~0.25 s.
  const runs = Math.max(11, RUNS);
  section(`tasks list --all --jsonl: ${runs} runs each, medians; peak RSS (goal 3)`);
  const emulator = await startEmulator(3_600_000);
  try {
    const { baseUrl, env } = emulator;
    await seedTasks(baseUrl, 0, 10_000);
    const floor = { name: 'floor', args: [here('./floor/list-all.mjs'), `${baseUrl}/tasks/browser-use/`], env };
    const subject = { name: 'agentctl', args: cli('tasks', 'list', '--all', '--jsonl'), env };
    // The same 10,000 records in the same order as the floor's sequential page order.
    const order = (result) => result.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line).id).join();
    const expected = order(await runOnce(floor.args, { env }));
    const check = (item, result) => {
      if (result.lines !== 10_000) throw new Error(`${item.name} printed ${result.lines} lines, not 10000`);
      if (order(result) !== expected) throw new Error(`${item.name} printed the tasks in another order than page by page`);
    };
    const result = (await interleaved(floor, [subject], runs, check)).get('agentctl');
    figure('list', '10,000 tasks', versus(result), result.ratio, { max: 1.2, text: '1.20x' });

    const small = await runOnce(subject.args, { env, keep: false, peak: true });
    const at10k = small.peakKiB / 1024;
    figure('list', 'peak RSS, 10,000 tasks', `${at10k.toFixed(1)} MiB`, at10k, { max: 150, text: '150 MiB' });
    if (flags.quick) {
      console.log('  (100,000 tasks skipped: --quick)');
      return;
    }
    await seedTasks(baseUrl, 10_000, 100_000);
    const large = await runOnce(subject.args, { env, keep: false, peak: true });
    if (large.lines !== 100_000) throw new Error(`agentctl printed ${large.lines} lines, not 100000`);
    const at100k = large.peakKiB / 1024;
    figure('list', 'peak RSS, 100,000 tasks', `${at100k.toFixed(1)} MiB (${ratio(at100k / at10k)} the 10k figure)`, at100k, { max: 150, text: '150 MiB' });
    // Flat: ten times the items, not ten times the memory (collecting 100,000 tasks would hold ~100 MB more).
    figure('list', 'RSS growth 10k -> 100k tasks', `${ratio(at100k / at10k)} for 10x the items`, at100k / at10k);
    // Peak RSS also counts garbage V8 let grow before collecting it; what a run keeps is the heap after a full GC.
    const kept = (result) => `${(result.keptKiB / 1024).toFixed(1)} MiB`;
    figure('list', 'heap kept after GC, 10k/100k', `${kept(small)} / ${kept(large)} (${ratio(large.keptKiB / small.keptKiB)})`, large.keptKiB / small.keptKiB);
  } finally {
    await emulator.stop();
  }
}

/**
 * `--jsonl --jq` against the pipe into the system's jq (issue 47): both list the same tasks from the
 * emulator, one filtering with its built-in jq, the other printing JSON lines for `jq -r .id`.
 * Goals: 1.3x over 5,000 tasks (where fixed costs show: loading jq) and 1.2x over 100,000.
 */
async function jqStream() {
  const runs = Math.max(5, Math.round(RUNS / 3));
  section(`tasks list --all --jsonl --jq .id beside \`--jsonl | jq -r .id\`: ${runs} runs each, medians`);
  const jq = process.env.JQ ?? 'jq';
  const probe = await runOnce(['--version'], { command: jq }).catch(() => undefined);
  if (!probe) {
    console.log(`  skipped: no ${jq} on PATH (the pipe's side)`);
    rows.push({ group: 'jq', name: 'jq stream', met: undefined, skipped: true });
    return;
  }
  const emulator = await startEmulator(3_600_000);
  try {
    const { baseUrl, env } = emulator;
    const sizes = flags.quick ? [5_000] : [5_000, 100_000];
    let seeded = 0;
    for (const size of sizes) {
      await seedTasks(baseUrl, seeded, size);
      seeded = size;
      const list = [BIN, 'tasks', 'list', '--all', '--jsonl'];
      const pipe = { name: `pipe ${size}`, command: 'sh', args: ['-c', `"$0" "$@" | ${jq} -r .id`, NODE, ...list], env };
      const name = `--jq .id, ${size.toLocaleString('en')} tasks`;
      const subject = { name, args: [...list.slice(0), '--jq', '.id'], env };
      // The same ids, one a line, in the same order.
      const expected = (await runOnce(pipe.args, { env, command: 'sh' })).stdout;
      const check = (item, result) => {
        if (result.lines !== size || result.stdout !== expected) throw new Error(`${item.name} printed other ids than the pipe`);
      };
      const rounds = size > 10_000 ? Math.max(3, Math.round(runs / 2)) : runs;
      const result = (await interleaved(pipe, [subject], rounds, check)).get(name);
      const goal = size > 10_000 ? 1.2 : 1.3;
      figure('jq', name, versus(result), result.ratio, { max: goal, text: `${goal.toFixed(2)}x` });
      // `.id` is a plain path, answered without jq (src/output/jq-path.ts); a filter jq must run,
      // beside the same filter piped into the system's jq, shows what jq-wasm itself costs (reported).
      const filter = 'select(.status != "failed") | .id';
      const filtered = { ...pipe, name: `pipe ${size} select`, args: ['-c', `"$0" "$@" | ${jq} -r '${filter}'`, NODE, ...list] };
      const selectName = `--jq 'select(..) | .id', ${size.toLocaleString('en')}`;
      const selecting = { name: selectName, args: [...list, '--jq', filter], env };
      const selected = (await interleaved(filtered, [selecting], rounds, check)).get(selectName);
      figure('jq', selectName, versus(selected), selected.ratio);
    }
  } finally {
    await emulator.stop();
  }
}

/** Goal 4: how late `tasks wait` and `tasks create --follow` exit after the task has ended. */
async function waitLag() {
  const runs = Math.max(3, Math.round(RUNS / 4));
  const duration = 2000;
  section(`Waiting: lag from a task's end to the command's exit, ${runs} runs each, medians (goal 4)`);
  const emulator = await startEmulator(duration);
  try {
    const { baseUrl, env } = emulator;
    const endOf = async (id) => Date.parse((await api('GET', `${baseUrl}/tasks/browser-use/${id}/`)).updated_at);
    const lags = { wait: [], follow: [] };
    for (let i = 0; i < runs; i++) {
      // The wait starts at a different point of the task's life each run, so polling phases vary.
      const task = await api('POST', `${baseUrl}/tasks/browser-use/`, { prompt: `bench wait ${i}` });
      await new Promise((resolve) => setTimeout(resolve, ((i + 0.5) / runs) * duration * 0.8));
      await runOnce(cli('tasks', 'wait', task.id, '--json'), { env });
      lags.wait.push(Date.now() - (await endOf(task.id)));

      const followed = await runOnce(cli('tasks', 'create', `bench follow ${i}`, '--follow', '--json'), { env });
      const id = JSON.parse(followed.stdout).id;
      lags.follow.push(Date.now() - (await endOf(id)));
    }
    for (const [name, values] of [['tasks wait', lags.wait], ['tasks create --follow', lags.follow]]) {
      const value = median(values);
      figure('wait', name, `median ${ms(value)} late (runs: ${values.map((v) => Math.round(v)).join(', ')} ms)`, value, { max: 300, text: '300 ms' });
    }
  } finally {
    await emulator.stop();
  }
}

/** Goals 5 and 6 are measured by their own scripts; their exit status is their verdict. */
async function script(group, file, title, args = []) {
  section(title);
  const path = here(file);
  if (!existsSync(path)) {
    console.log(`  skipped: ${file.replace('./', 'bench/')} is not there yet`);
    rows.push({ group, name: title, met: undefined, skipped: true });
    return;
  }
  const child = spawn(NODE, [path, ...args], { env: CLEAN_ENV, stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [child.stdout, child.stderr]) createInterface({ input: stream }).on('line', (line) => console.log(`  ${line}`));
  const code = await new Promise((resolve) => child.once('close', resolve));
  rows.push({ group, name: title, met: code === 0 });
  console.log(`  ${code === 0 ? 'ok' : `MISSED (exit ${code})`}`);
}

// ---------------------------------------------------------------------------------------------

/**
 * `agentctl plan` over 1,000 agents that match their files (nothing to do, exit 0) against the
 * floor that only lists them (bench/floor/list-all.mjs on /agents/): reading and checking 1,000
 * files, the lock file and comparing them should cost little beside the list itself. Floor 2 (the
 * same script given the folder) reads the 1,000 files before it lists, as plan must: reported, it
 * shows how much of the first figure is the files' reading at all and how much is plan's own work.
 */
async function planFolder() {
  const runs = Math.max(11, RUNS);
  section(`plan --dir over 1,000 agents: ${runs} runs each, medians (goal: 1.2x listing them)`);
  const emulator = await startEmulator(3_600_000);
  const dir = mkdtempSync(join(tmpdir(), 'agentctl-bench-plan-'));
  try {
    const { baseUrl, env } = emulator;
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    const entries = {};
    let next = 0;
    const worker = async () => {
      while (next < 1000) {
        const n = next++;
        const charter = `Watch the fare of route ${n} every day.\n\nWrite when it drops below ${100 + n} EUR.`;
        const made = await api('POST', `${baseUrl}/agents/`, { name: `bench agent ${n}`, charter, schedule: '@daily' }, agent);
        const file = `agent-${n}.md`;
        writeFileSync(join(dir, file), `---\nname: bench agent ${n}\nschedule: "@daily"\nactive: true\n---\n${charter}\n`);
        entries[file] = { id: made.id, created: true };
      }
    };
    try {
      await Promise.all(Array.from({ length: 16 }, worker));
    } finally {
      agent.destroy();
    }
    const service = baseUrl.replace(/\/+$/, '');
    writeFileSync(join(dir, 'agentctl.lock.json'), JSON.stringify({ version: 1, services: { [service]: entries } }));
    const floor = { name: 'floor', args: [here('./floor/list-all.mjs'), `${baseUrl}/agents/`], env };
    const subject = { name: 'agentctl', args: cli('plan', '--dir', dir), env };
    // The second floor also reads the 1,000 files (no check): what is left above it is plan's own work.
    const reading = { name: 'read+list', args: [here('./floor/list-all.mjs'), `${baseUrl}/agents/`, dir], env };
    const check = (item, result) => {
      if (item.name !== 'agentctl' && result.lines !== 1000) throw new Error(`the floor printed ${result.lines} agents, not 1000`);
      if (item.name === 'agentctl' && !result.stdout.includes('1000 unchanged')) throw new Error(`plan did not find 1000 agents unchanged: ${result.stdout.slice(-200)}`);
    };
    const results = await interleaved(floor, [subject, reading], runs, check);
    const result = results.get('agentctl');
    const read = results.get('read+list');
    figure('plan', '1,000 agents, nothing to do', versus(result), result.ratio, { max: 1.2, text: '1.20x' });
    figure('plan', 'floor 2: read the files, list', versus(read), read.ratio);
    const overReading = median(result.times.map((value, i) => value / read.times[i]));
    figure('plan', '1,000 agents vs floor 2', `${ms(result.ms)} vs ${ms(read.ms)}: ${ratio(overReading)}`, overReading);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await emulator.stop();
  }
}

/** The machine's load: figures taken while other work competes for the processors are noisy. */
function load(when) {
  const [oneMinute] = loadavg();
  const cores = availableParallelism();
  const busy = oneMinute > cores * 0.75;
  console.log(`load average ${when}: ${oneMinute.toFixed(2)} on ${cores} cores${busy ? ' (busy: other work competes with the bench, figures are noisy)' : ''}`);
}

console.log(`agentctl bench: node ${process.version}, ${new Date().toISOString()}; clean env (PATH, HOME); medians`);
load('at start');
const started = Date.now();
if (only.has('startup')) await startup();
if (only.has('api')) await oneCall();
if (only.has('record')) await recording();
if (only.has('list')) await listAll();
if (only.has('plan')) await planFolder();
if (only.has('jq')) await jqStream();
if (only.has('wait')) await waitLag();
if (only.has('webhook')) await script('webhook', './webhook-listen.mjs', 'webhook-listen --output --forward-to beside its floor (goal 5)');
if (only.has('emulator')) await script('emulator', './emulator-list.mjs', 'Emulator list throughput, 100,000 vs 100 tasks stored and its floor (goal 6); list, get and create at 1,000,000 tasks');
if (only.has('mcp')) await script('mcp', './mcp.mjs', 'agentctl mcp: a tasks_get tool call beside a plain node:http script, and 100 concurrent calls');
if (only.has('library')) await script('library', './library.mjs', 'the library: client.tasks.get on loopback beside a bare node:http GET, 7 interleaved rounds of 400 calls (goal 1.1x)');
if (only.has('batch')) {
  // 100,000 lines at 32 in flight, as the issue asks (~2.5 minutes in all); --quick: 10,000.
  const lines = flags.quick ? '10000' : '100000';
  await script('batch', './run-batch.mjs', `tasks run-batch: ${lines} creates at 32 in flight beside a node:http floor (goal 0.9x), memory`, [lines, '5', '32']);
  // Tasks of 10 s: long enough that most of the batch is followed at once, short enough for a bench.
  await script('batch', './run-batch.mjs', `tasks run-batch --follow and --webhook-listen: ${lines} tasks of 10 s, requests per task, peak rate, memory`, ['follow', lines, '10', 'none']);
  await script('batch', './run-batch.mjs', `tasks run-batch --follow --max-rate 4000: ${lines} tasks of 10 s, the rate bounded`, ['follow', lines, '10', '4000', 'poll']);
}
load('at the end');
const judged = rows.filter((row) => row.met !== undefined);
const missed = judged.filter((row) => !row.met);
const skipped = rows.filter((row) => row.skipped);
console.log(
  `\n${judged.length - missed.length} of ${judged.length} figures meet their goal${skipped.length ? `, ${skipped.length} skipped` : ''} (${((Date.now() - started) / 1000).toFixed(0)} s)`,
);
if (missed.length) {
  console.log(`missed: ${missed.map((row) => row.name).join('; ')}`);
  process.exitCode = 1;
}
