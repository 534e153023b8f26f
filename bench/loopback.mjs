// What bench/mcp.mjs and bench/library.mjs share: one emulator in a process of its own, and the
// floor's GET (node:http through a kept-alive connection, its body parsed).
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../bin/agentctl.js', import.meta.url));
export const KEY = 'bench-key';
export const CLEAN_ENV = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };
export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Starts `agentctl emulator` on a free port; resolves with its base URL and a stop function. */
export async function startEmulator() {
  const child = spawn(process.execPath, [BIN, 'emulator', '--port', '0', '--task-duration', '3600000', '--api-key', KEY, '--quiet'], {
    env: CLEAN_ENV,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const baseUrl = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the emulator exited early (code ${code})`)));
  });
  return { baseUrl, stop: () => new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM'))) };
}

/** The floor: one GET with node:http through a kept-alive connection, its body parsed. */
export function plainGet(agent, url) {
  return new Promise((resolve, reject) => {
    request(url, { agent, headers: { 'x-api-key': KEY, accept: 'application/json' } }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(Buffer.concat(chunks).toString())) : reject(new Error(`GET answered ${res.statusCode}`))));
    })
      .on('error', reject)
      .end();
  });
}
