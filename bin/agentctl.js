#!/usr/bin/env node
// The launcher, and the only code that touches `process`: it hands the run its world (streams,
// environment, terminal facts, clock, config folder, an abort signal for Ctrl-C) and turns the
// answer into the exit code. The program is the bundled dist/cli/main.js (`npm run build`).
import { existsSync, fstatSync, statSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A terminal on fd, told by fstat (node:tty would load net): a character device other than /dev/null. */
function isTerminal(fd) {
  try {
    const stat = fstatSync(fd);
    return stat.isCharacterDevice() && stat.rdev !== statSync('/dev/null').rdev;
  } catch {
    return false;
  }
}

/**
 * Pipes and files are written synchronously straight to the fd: creating process.stdout for a pipe
 * costs several milliseconds of start-up, and `agentctl ... | head` closing the pipe ends the run quietly.
 */
function fdStream(fd, name) {
  let queued = false;
  return {
    write(text) {
      // Once the stream holds queued bytes, everything after them queues too, or output would reorder.
      if (queued && process[name].writableLength > 0) return process[name].write(text);
      queued = false;
      let buffer = Buffer.from(text);
      while (buffer.length > 0) {
        try {
          buffer = buffer.subarray(writeSync(fd, buffer));
        } catch (error) {
          if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
          if (error.code !== 'EAGAIN') throw error;
          queued = true;
          return process[name].write(buffer); // a full non-blocking pipe: let the stream queue the rest
        }
      }
      return true;
    },
    once(event, listener) {
      return process[name].once(event, listener);
    },
  };
}

const stdoutIsTTY = isTerminal(1);
const stderrIsTTY = isTerminal(2);
const interrupt = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (interrupt.signal.aborted) process.exit(130); // a second Ctrl-C does not wait for anyone
    interrupt.abort(signal);
  });
}

let program;
try {
  program = await import('../dist/cli/main.js');
} catch (error) {
  if (!(error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist'))) throw error;
  // A fresh clone after `npm ci` (the package itself ships dist/ and runs no install script): build once.
  const root = fileURLToPath(new URL('..', import.meta.url));
  if (!existsSync(join(root, 'scripts', 'build.mjs')) || !existsSync(join(root, 'node_modules', 'esbuild'))) {
    process.stderr.write('agentctl is not built yet: run `npm ci && npm run build` in its folder first.\n');
    process.exit(2);
  }
  process.stderr.write('agentctl: first run in this clone, building dist/ (npm run build)...\n');
  const { spawnSync } = await import('node:child_process');
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: ['ignore', 2, 2] });
  if (build.status !== 0) process.exit(2);
  program = await import('../dist/cli/main.js');
}

const env = process.env;
const code = await program.main(process.argv.slice(2), {
  get stdin() {
    return process.stdin;
  },
  stdout: stdoutIsTTY ? process.stdout : fdStream(1, 'stdout'),
  get stderr() {
    return stderrIsTTY ? process.stderr : (this._stderr ??= fdStream(2, 'stderr'));
  },
  env,
  terminal: {
    stdoutIsTTY,
    stderrIsTTY,
    get stdinIsTTY() {
      return isTerminal(0);
    },
    get columns() {
      return stdoutIsTTY ? process.stdout.columns : undefined;
    },
  },
  clock: program.systemClock,
  configDir: join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'agentctl'),
  signal: interrupt.signal,
  runtime: `node/${process.versions.node}`,
});
process.exitCode = code;
// After Ctrl-C, requests and timers may still be pending: do not wait for them.
if (interrupt.signal.aborted) process.exit(code);
