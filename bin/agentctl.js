#!/usr/bin/env node
// Tiny launcher: the real program is the bundled dist/cli/main.js (built by `npm run build`).
import('../dist/cli/main.js').catch((error) => {
  if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist')) {
    process.stderr.write('agentctl is not built yet: run `npm run build` in its folder first.\n');
    process.exit(2);
  }
  throw error;
});
