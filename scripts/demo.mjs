// The README's first command ends here: start the bundled emulator on a free port, create a task,
// follow it to completion and print its result, then preview a schedule and create a persistent
// agent with it. Works offline; needs `npm run build` first.
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
const quote = (arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`);
const show = (args) => console.log(`\n$ agentctl ${args.map(quote).join(' ')}`);
const run = (args) =>
  new Promise((resolve) => {
    show(args);
    spawn(process.execPath, [bin, ...args], { stdio: 'inherit', env }).once('exit', (code) => resolve(code ?? 1));
  });

console.log(`agentctl demo against the bundled emulator at ${baseUrl}`);
let code = await run(['tasks', 'create', 'Find the three cheapest direct flights from Oslo to Rome in May', '--follow', '--interval', '0.5']);
const schedule = '0 7 * * mon-fri';
if (code === 0) code = await run(['schedule-preview', schedule, '--count', '3']);
if (code === 0) {
  code = await run(['persistent', 'create', '--name', 'fare-watcher', '--charter', 'Watch the Oslo-Rome fare and report drops.', '--schedule', schedule]);
}
if (code === 0) code = await run(['tasks', 'list']);
emulator.kill('SIGTERM');
console.log(code === 0 ? '\nDone. Next (in this folder): `npx agentctl emulator` in one terminal, then `npx agentctl tasks --help` in another\n(or `npm link` once, and drop the npx).' : `\nThe demo failed (exit ${code}).`);
process.exit(code);
