// Start-up cost of agentctl against bare node: interleaved runs, medians, ratios.
// Usage: node bench/startup.mjs [runs]   (after `npm run build`)
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const runs = Number(process.argv[2] ?? 30);
const bin = fileURLToPath(new URL('../bin/agentctl.js', import.meta.url));
const commands = {
  'node -e 0': ['-e', '0'],
  'agentctl --version': [bin, '--version'],
  'agentctl tasks --help': [bin, 'tasks', '--help'],
  'agentctl --help': [bin, '--help'],
};

const samples = Object.fromEntries(Object.keys(commands).map((name) => [name, []]));
for (let i = 0; i < runs + 2; i++) {
  // Interleave the commands so drift in machine speed hits all of them alike.
  for (const [name, args] of Object.entries(commands)) {
    const started = process.hrtime.bigint();
    const result = spawnSync(process.execPath, args, { stdio: 'ignore' });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (result.status !== 0) throw new Error(`${name} exited ${result.status}`);
    if (i >= 2) samples[name].push(ms); // the first two rounds warm the file cache
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const baseline = median(samples['node -e 0']);
console.log(`runs: ${runs} each, interleaved; baseline node -e 0 median ${baseline.toFixed(1)} ms`);
for (const [name, values] of Object.entries(samples)) {
  const m = median(values);
  console.log(`${name.padEnd(24)} median ${m.toFixed(1).padStart(7)} ms   ratio ${(m / baseline).toFixed(3)}`);
}
