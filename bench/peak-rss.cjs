// Preloaded (node --require) into a measured process: writes its peak RSS in KiB to fd 3 on exit.
const { writeSync } = require('node:fs');
process.on('exit', () => {
  try {
    writeSync(3, String(process.resourceUsage().maxRSS));
  } catch {
    // fd 3 is not open: nobody asked
  }
});
