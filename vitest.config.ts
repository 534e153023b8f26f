import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// The tests make no TLS connection (the emulator and every stub are plain HTTP on loopback, npm
// installs offline), but Node reads NODE_EXTRA_CA_CERTS at each start: ~70 ms of CPU on a machine
// that sets it, paid by every worker and every Node process the tests start (~6 s of a run).
delete process.env.NODE_EXTRA_CA_CERTS;

export default defineConfig({
  test: {
    // Two kinds of test file, one pool of workers:
    // - test/unit, commands, emulator, client, conformance, fault, property: functions and commands
    //   run in this process, commands through main(argv, io) against an emulator started here on
    //   port 0 (test/helpers/cli.ts);
    // - test/process: what only a process shows (signals, pipes, TTYs, packaging, shells, the
    //   bundle, the README demo), running the built bin/agentctl.js (built first by the global setup).
    include: ['test/*/**/*.test.ts'],
    // Files share a worker's loaded modules (isolate: false): importing the sources, zod, the MCP SDK
    // and the emulator once per worker rather than once per file took the import phase from ~49 s to
    // ~20 s of the suite. One project, so both kinds share the same workers: as two projects (one
    // for each kind) the process files started 3 workers of their own, which imported it all again
    // (~0.9x the suite's time, paired). No file mocks a module (vi.mock): a file that needs a
    // misbehaving disk patches node:fs for its own duration (test/helpers/patch-fs.ts).
    isolate: false,
    globalSetup: ['test/global-setup.ts'],
    // Time limits catch a hang, they do not judge speed: every test waits for events (an exit, a
    // line, a request), so on a slow or busy machine it takes longer and still passes. Generous, so
    // that a 2-core machine running something else beside the suite stays green.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // Removes the temporary folders each test file made (test/helpers/temp.ts).
    setupFiles: ['test/setup.ts'],
    // Two workers more than there are cores: files wait for timers, sockets and the processes they
    // start much of their time (a task's run, a poll interval, a listener's --timeout, npm), and with
    // one worker per core the CPU stood idle ~10 s of the run (sampled from /proc/stat). Paired on 2
    // cores: 4 workers took 0.87-0.96x the time of 3 (4 pairs), 5 took longer than 4, 2 took 1.2x.
    maxWorkers: Math.max(2, availableParallelism()) + 2,
  },
});
