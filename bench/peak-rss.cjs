// Preloaded (node --require) into a measured process: on exit writes to fd 3 its peak RSS and, when
// run with --expose-gc, the heap it still holds after a full GC (both KiB). Peak RSS also counts
// garbage V8 had not yet collected; the heap kept is what the run actually retains.
const { writeSync } = require('node:fs');
process.on('exit', () => {
  try {
    globalThis.gc?.();
    writeSync(3, `${process.resourceUsage().maxRSS} ${Math.round(process.memoryUsage().heapUsed / 1024)}`);
  } catch {
    // fd 3 is not open: nobody asked
  }
});
