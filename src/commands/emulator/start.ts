import { parseIntegerFlag } from '../../contract/validate.js';
import type { CommandRun } from '../../cli/lazy.js';
import { EMULATOR_DEFAULT_KEY } from '../../cli/context.js';

export const run: CommandRun = async (ctx, _args, options) => {
  const port = parseIntegerFlag(String(options.port), '--port', 0, 65535);
  const taskDurationMs = parseIntegerFlag(String(options.taskDuration), '--task-duration', 0, 24 * 3600 * 1000);
  const latencyMs = parseIntegerFlag(String(options.latency), '--latency', 0, 60_000);
  const { startEmulator } = await import('../../emulator/index.js');
  const emulator = await startEmulator({
    port,
    host: String(options.host),
    // The global --api-key names the key clients must send; the environment's key is not reused.
    apiKey: ctx.flags.apiKey ?? EMULATOR_DEFAULT_KEY,
    taskDurationMs,
    latencyMs,
    log: ctx.out.settings.quiet ? undefined : (line: string) => process.stderr.write(`${line}\n`),
  });
  ctx.out.line(emulator.baseUrl);
  ctx.out.info(`agentctl emulator: a simulated service, in memory; no browser runs. Ctrl-C stops it.`);
  // The default key is public (agentctl sends it to the default address by itself); a key of the
  // user's own choosing is never echoed.
  ctx.out.info(
    ctx.flags.apiKey === undefined
      ? `API key: ${EMULATOR_DEFAULT_KEY} (send it as X-Api-Key; choose another with --api-key KEY)`
      : 'API key: the one given with --api-key',
  );

  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGTERM', stop);
      void emulator.close().then(resolve);
    };
    process.on('SIGTERM', stop);
    ctx.onInterrupt('Emulator stopped.');
  });
};
