// The README's first command ends here: start the bundled emulator on a free port, create a task,
// follow it to completion and print its result. Works offline; needs `npm run build` first.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../bin/agentctl.js', import.meta.url));
const emulator = spawn(process.execPath, [bin, 'emulator', '--port', '0', '--task-duration', '2000', '--quiet'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const baseUrl = await new Promise((resolve, reject) => {
  createInterface({ input: emulator.stdout }).once('line', resolve);
  emulator.once('exit', (code) => reject(new Error(`the emulator exited early (code ${code})`)));
});

const env = { ...process.env, AGENTCTL_BASE_URL: baseUrl, AGENTCTL_API_KEY: 'emulator-key' };
const show = (args) => console.log(`\n$ agentctl ${args.join(' ')}`);
const run = (args) =>
  new Promise((resolve) => {
    show(args);
    spawn(process.execPath, [bin, ...args], { stdio: 'inherit', env }).once('exit', (code) => resolve(code ?? 1));
  });

console.log(`agentctl demo against the bundled emulator at ${baseUrl}`);
let code = await run(['tasks', 'create', 'Find the three cheapest direct flights from Oslo to Rome in May', '--follow', '--interval', '0.5']);
if (code === 0) code = await run(['tasks', 'list']);
emulator.kill('SIGTERM');
console.log(code === 0 ? '\nDone. Next: `agentctl emulator` in one terminal, then try `agentctl tasks --help` in another.' : `\nThe demo failed (exit ${code}).`);
process.exit(code);
