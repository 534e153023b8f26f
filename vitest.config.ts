import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // End-to-end tests spawn the built CLI; give them room on a 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'test/emulator/**/*.test.ts', 'test/conformance/**/*.test.ts', 'test/fault/**/*.test.ts', 'test/property/**/*.test.ts'],
        },
      },
      {
        extends: true,
        // Builds dist/ once from the current sources, since these tests run bin/agentctl.js.
        test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], globalSetup: ['test/global-setup.ts'] },
      },
    ],
  },
});
