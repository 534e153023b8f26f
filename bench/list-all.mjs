// Does `tasks list --all --jsonl` stream in bounded memory? Peak RSS of the CLI listing 1,000 and then
// 10,000 tasks from the bundled emulator, and their ratio: a streaming list stays roughly flat
// (ratio near 1), one that collects every page grows with N.
// Usage: node bench/list-all.mjs [small] [large]   (after `npm run build`; defaults 1000 10000)
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const small = Number(process.argv[2] ?? 1000);
const large = Number(process.argv[3] ?? 10000);
const bin = fileURLToPath(new URL('../bin/agentctl.js', import.meta.url));
const KEY = 'emulator-key';
// Loaded into the measured process: reports its own peak RSS (KiB) on fd 3 as it exits.
const REPORT_PEAK = `data:text/javascript,${encodeURIComponent(
  "import { writeSync } from 'node:fs'; process.on('exit', () => { try { writeSync(3, String(process.resourceUsage().maxRSS)); } catch {} });",
)}`;

const emulator = spawn(process.execPath, [bin, 'emulator', '--port', '0', '--task-duration', '3600000', '--quiet'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const baseUrl = await new Promise((resolve, reject) => {
  createInterface({ input: emulator.stdout }).once('line', resolve);
  emulator.once('exit', (code) => reject(new Error(`the emulator exited early (code ${code})`)));
});

let created = 0;
/** Creates tasks up to `total`, 16 requests at a time; prompts of ~400 characters make items weigh something. */
async function seed(total) {
  const filler = 'Compare the prices of these items across three shops and report the cheapest. '.repeat(5);
  const next = async () => {
    while (created < total) {
      const n = created++;
      const response = await fetch(`${baseUrl}/tasks/browser-use/`, {
        method: 'POST',
        headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: `[hang] #${n} ${filler}` }),
      });
      if (response.status !== 201) throw new Error(`seeding answered ${response.status}`);
      await response.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: 16 }, next));
}

/** Runs the CLI, counts the lines it prints, and returns its peak RSS in MiB. */
function measure(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', REPORT_PEAK, bin, ...args], {
      stdio: ['ignore', 'pipe', 'inherit', 'pipe'],
      env: { ...process.env, AGENTCTL_BASE_URL: baseUrl, AGENTCTL_API_KEY: KEY },
    });
    let lines = 0;
    let bytes = 0;
    child.stdout.on('data', (chunk) => {
      bytes += chunk.length;
      for (const byte of chunk) if (byte === 10) lines++;
    });
    let peak = '';
    child.stdio[3].on('data', (chunk) => (peak += chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code !== 0) return reject(new Error(`agentctl ${args.join(' ')} exited ${code}`));
      resolve({ lines, bytes, peakMiB: Number(peak) / 1024 });
    });
  });
}

const rows = [];
async function row(n, args) {
  const result = await measure(args);
  rows.push({ n, args: args.join(' '), ...result });
  return result;
}

try {
  const baseline = await row(0, ['--version']);
  await seed(small);
  const a = await row(small, ['tasks', 'list', '--all', '--jsonl']);
  await seed(large);
  const b = await row(large, ['tasks', 'list', '--all', '--jsonl']);
  await row(large, ['tasks', 'list', '--all', '--json']);
  for (const [result, n] of [[a, small], [b, large]]) {
    if (result.lines !== n) throw new Error(`expected ${n} lines, got ${result.lines}`);
  }

  console.log(`peak RSS of agentctl (MiB), tasks from the bundled emulator at ${baseUrl}`);
  for (const r of rows) {
    console.log(`  ${String(r.n).padStart(6)} items  ${r.args.padEnd(32)} ${r.peakMiB.toFixed(1).padStart(7)} MiB  (${(r.bytes / 1048576).toFixed(1)} MiB printed)`);
  }
  console.log(`baseline (agentctl --version): ${baseline.peakMiB.toFixed(1)} MiB`);
  console.log(`ratio peak(${large}) / peak(${small}) with --all --jsonl: ${(b.peakMiB / a.peakMiB).toFixed(2)}  (1.00 = flat; output grew ${(b.bytes / a.bytes).toFixed(1)}x)`);
} finally {
  emulator.kill('SIGTERM');
}
