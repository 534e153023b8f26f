import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Most files wait on sockets, child processes and timers rather than on the CPU: four workers on
    // this 2-core machine take the suite from ~72 s to ~34 s (measured, every test kept).
    maxWorkers: 4,
    projects: [
      {
        extends: true,
        // Functions and commands run in this process: commands through main(argv, io) against an
        // emulator started here on port 0 (test/helpers/cli.ts).
        test: {
          name: 'in-process',
          include: [
            'test/unit/**/*.test.ts',
            'test/commands/**/*.test.ts',
            'test/emulator/**/*.test.ts',
            'test/client/**/*.test.ts',
            'test/conformance/**/*.test.ts',
            'test/fault/**/*.test.ts',
            'test/property/**/*.test.ts',
          ],
        },
      },
      {
        extends: true,
        // What only a process shows (signals, pipes, TTYs, packaging, shells, the bundle, the README
        // demo): these run the built bin/agentctl.js, so dist/ is built once first.
        test: { name: 'process', include: ['test/process/**/*.test.ts'], globalSetup: ['test/global-setup.ts'] },
      },
    ],
  },
});
