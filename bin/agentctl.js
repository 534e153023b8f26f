#!/usr/bin/env node
// The launcher, and the only code that touches `process`: it hands the run its world (streams,
// environment, terminal facts, clock, config folder, an abort signal for Ctrl-C) and turns the
// answer into the exit code. The program is the bundled dist/cli/main.js (`npm run build`).
// CommonJS (bin/package.json), like dist/: an ES module here would start Node's ESM loader, about
// a fifth of a bare node start-up, on every run.
'use strict';
const { existsSync, fstatSync, readFileSync, readlinkSync, statSync, writeSync } = require('node:fs');
const { join } = require('node:path');

let devNull;
/**
 * The run's exit code, once it has answered: what a run whose reader went away (EPIPE) exits with,
 * 0 before that. Not process.exitCode, which a library may set (jq-wasm sets it to jq's status).
 */
let answer;
/** A terminal on fd, told by fstat (node:tty would load net): a character device other than /dev/null. */
function isTerminal(fd) {
  try {
    const stat = fstatSync(fd);
    return stat.isCharacterDevice() && stat.rdev !== (devNull ??= statSync('/dev/null').rdev);
  } catch {
    return false;
  }
}

/**
 * Pipes and files are written synchronously straight to the fd: creating process.stdout for a pipe
 * costs several milliseconds of start-up, and `agentctl ... | head` closing the pipe ends the run quietly.
 * Large writes (a streamed list's ~64 KB batches) go through process[name] instead, which on a pipe
 * queues what the reader has not taken yet: a synchronous write would hold the run, and the pages
 * arriving meanwhile, until a slow reader (`| jq`) caught up.
 */
function fdStream(fd, name) {
  let queued = false;
  let watched = false;
  const viaStream = (text) => {
    queued = true;
    const stream = process[name];
    if (!watched) {
      watched = true;
      stream.on('error', (error) => {
        if (error.code === 'EPIPE') process.exit(answer ?? 0); // the reader went away, as above
        writeSync(2, `agentctl: cannot write to ${name}: ${error.code ?? error.message}\n`);
        process.exit(1);
      });
    }
    return stream.write(text);
  };
  return {
    write(text) {
      // Once the stream holds queued bytes, everything after them queues too, or output would reorder.
      if (queued && process[name].writableLength > 0) return viaStream(text);
      queued = false;
      if (text.length >= STREAMED_WRITE) return viaStream(text);
      // The text goes as it is (no Buffer to allocate); only after a partial write are its bytes needed.
      let rest;
      try {
        const written = writeSync(fd, text);
        if (written === Buffer.byteLength(text)) return true;
        rest = Buffer.from(text).subarray(written);
        while (rest.length > 0) rest = rest.subarray(writeSync(fd, rest));
      } catch (error) {
        if (error.code === 'EPIPE') process.exit(answer ?? 0);
        if (error.code !== 'EAGAIN') throw error;
        return viaStream(rest ?? text); // a full non-blocking pipe: let the stream queue the rest
      }
      return true;
    },
    once(event, listener) {
      return process[name].once(event, listener);
    },
    /** Calls back once everything written so far has reached the fd. */
    flushed(callback) {
      if (queued && process[name].writableLength > 0) process[name].write('', callback);
      else callback();
    },
  };
}
/** Writes of this many characters or more go through the stream (see fdStream). */
const STREAMED_WRITE = 65536;

const stdoutIsTTY = isTerminal(1);
const stdoutPipe = stdoutIsTTY ? undefined : fdStream(1, 'stdout');
let stderrIsTTY;
const stderrIsTerminal = () => (stderrIsTTY ??= isTerminal(2));

// Ctrl-C and SIGTERM abort the run's signal. The handlers go in when the run first asks for the
// signal: `--version` and piped `--help` never do, and skip their cost (Node's default ends them).
let interrupt;
/** While a pager shows help, Ctrl-C is the pager's (less: stop a search), not the end of this run. */
let paging = false;
const SIGNALS = ['SIGINT', 'SIGTERM'];
function onSignal(signal) {
  if (paging && signal === 'SIGINT') return;
  if (interrupt.signal.aborted) process.exit(130); // a second Ctrl-C does not wait for anyone
  interrupt.abort(signal);
}
function interruptSignal() {
  if (!interrupt) {
    interrupt = new AbortController();
    // Every request, pause and worker of a run listens to it (a batch has 16 workers): no leak warning.
    require('node:events').setMaxListeners(0, interrupt.signal);
    for (const signal of SIGNALS) process.on(signal, onSignal);
  }
  return interrupt.signal;
}

/**
 * Runs work that holds the main thread until it ends (a --jq filter: WebAssembly that returns only
 * when jq does, `repeat(1)` never) with Ctrl-C and SIGTERM at Node's default: they end the process
 * at once (130 and 143 to the shell). A handler of ours could run only once the work let go, so a
 * filter that never ends could not be stopped. Only the filter's own run is held this way.
 */
async function holdingThread(run) {
  if (!interrupt) return run(); // no handler yet: the default already applies
  // A signal that came just before is handled first: its handler runs in this turn of the loop
  // (the run then ends with 130, as usual), where with the handlers gone it would be lost.
  await new Promise((resolve) => setImmediate(resolve));
  if (interrupt.signal.aborted) throw new Error('interrupted');
  for (const signal of SIGNALS) process.off(signal, onSignal);
  try {
    return await run();
  } finally {
    for (const signal of SIGNALS) process.on(signal, onSignal);
  }
}

/** Whether a process of this host runs with this id (signal 0 checks without sending; EPERM: it runs as another user). */
function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/**
 * Where this process's ids mean something (a ledger lock compares pids only within it): the boot and
 * the pid namespace, on Linux. Undefined where /proc does not show this namespace's processes
 * (`unshare --pid` without a /proc of its own), or elsewhere: then pids are not compared at all.
 */
function pidSpace() {
  try {
    if (readlinkSync('/proc/self') !== String(process.pid)) return undefined;
    return `${readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()} ${readlinkSync('/proc/self/ns/pid')}`;
  } catch {
    return undefined;
  }
}

/** A process's start time, clock ticks after boot (/proc/PID/stat field 22; the name before it may hold spaces or ')'). */
function startTime(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** Runs cleanup on any exit (process.exit too, a second Ctrl-C); the answer unregisters it. */
function atExit(cleanup) {
  process.on('exit', cleanup);
  return () => process.off('exit', cleanup);
}

const env = process.env;

/**
 * Shows long help at a terminal through the user's pager, as git and man do: $PAGER (a command line,
 * run by the shell), else `less -FRX` (quits at once when the text fits, keeps colours, leaves the
 * text on screen). An empty PAGER, or a pager that cannot start, prints the text as it is.
 */
function page(text) {
  const pager = env.PAGER === undefined ? undefined : env.PAGER.trim();
  if (pager === '') return Promise.resolve(void process.stdout.write(text));
  return new Promise((resolve) => {
    const { spawn } = require('node:child_process');
    const stdio = ['pipe', 'inherit', 'inherit'];
    const child = pager === undefined ? spawn('less', ['-FRX'], { stdio }) : spawn(pager, { stdio, shell: true });
    let settled = false;
    const finish = (shown) => {
      if (settled) return;
      settled = true;
      paging = false;
      if (!shown) process.stdout.write(text);
      resolve();
    };
    paging = true;
    child.on('error', () => finish(false)); // no such program (less not installed)
    child.on('close', (code) => finish(code !== 127)); // 127: the shell found no such command
    child.stdin.on('error', () => {}); // the pager quit before reading it all (q)
    child.stdin.end(text);
  });
}
// The code V8 compiles is kept for the next run ($XDG_CACHE_HOME/agentctl/v8-code, bin/compile-cache.js;
// AGENTCTL_NO_COMPILE_CACHE=1 turns it off). It is set up when the first large file loads: the
// files of `--version` and piped `--help` are small, and those skip loading it at all.
let saveCompileCache = () => {};
if (!env.AGENTCTL_NO_COMPILE_CACHE) {
  const Module = module.constructor;
  const compile = Module.prototype._compile;
  Module.prototype._compile = function setUpCompileCache(content, filename) {
    if (content.length < 8192) return compile.call(this, content, filename);
    Module.prototype._compile = compile;
    saveCompileCache = require('./compile-cache.js').useCompileCache(
      join(__dirname, '..', 'dist'),
      join(env.XDG_CACHE_HOME || join(env.HOME || require('node:os').homedir(), '.cache'), 'agentctl', 'v8-code'),
      `${process.version}-${process.arch}`,
      [...process.execArgv, env.NODE_OPTIONS ?? ''].join(' ').trim(),
    );
    return Module.prototype._compile.call(this, content, filename);
  };
}

let program;
try {
  program = require('../dist/cli/main.js');
} catch (error) {
  if (!(error && error.code === 'MODULE_NOT_FOUND' && String(error.message).includes('dist'))) throw error;
  // A fresh clone after `npm ci` (the package itself ships dist/ and runs no install script): build once.
  const root = join(__dirname, '..');
  if (!existsSync(join(root, 'scripts', 'build.mjs')) || !existsSync(join(root, 'node_modules', 'esbuild'))) {
    process.stderr.write('agentctl is not built yet: run `npm ci && npm run build` in its folder first.\n');
    process.exit(2);
  }
  process.stderr.write('agentctl: first run in this clone, building dist/ (npm run build)...\n');
  const build = require('node:child_process').spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: ['ignore', 2, 2] });
  if (build.status !== 0) process.exit(2);
  program = require('../dist/cli/main.js');
}

program
  .main(process.argv.slice(2), {
    get stdin() {
      return process.stdin;
    },
    stdout: stdoutPipe ?? process.stdout,
    get stderr() {
      return stderrIsTerminal() ? process.stderr : (this._stderr ??= fdStream(2, 'stderr'));
    },
    env,
    terminal: {
      stdoutIsTTY,
      get stderrIsTTY() {
        return stderrIsTerminal();
      },
      get stdinIsTTY() {
        return isTerminal(0);
      },
      get columns() {
        return stdoutIsTTY ? process.stdout.columns : undefined;
      },
      get rows() {
        return stdoutIsTTY ? process.stdout.rows : undefined;
      },
    },
    pager: stdoutIsTTY ? page : undefined,
    clock: program.systemClock,
    // The home folder is $HOME, as os.homedir() reads it; node:os loads only without one.
    get configDir() {
      return join(env.XDG_CONFIG_HOME || join(env.HOME || require('node:os').homedir(), '.config'), 'agentctl');
    },
    get signal() {
      return interruptSignal();
    },
    // scripts/build-sea.mjs defines AGENTCTL_SINGLE_EXECUTABLE: `version` and `doctor` say which agentctl this is.
    runtime: `node/${process.versions.node}${typeof AGENTCTL_SINGLE_EXECUTABLE === 'undefined' ? '' : ', single executable'}`,
    process: {
      pid: process.pid,
      isRunning,
      get pidSpace() {
        return pidSpace();
      },
      startTime,
      atExit,
      holdingThread,
    },
  })
  .then((code) => {
    answer = code;
    process.exitCode = code;
    saveCompileCache();
    // After Ctrl-C, requests and timers may still be pending: do not wait for them, only for the
    // output already written (a batch's last lines); a second Ctrl-C does not wait at all.
    if (interrupt?.signal.aborted) {
      if (stdoutPipe) stdoutPipe.flushed(() => process.exit(code));
      else process.exit(code);
    }
  });
