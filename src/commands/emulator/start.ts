import { parseIntegerFlag } from '../../contract/validate.js';
import { ExitCode } from '../../errors.js';
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
    log: ctx.out.settings.quiet ? undefined : (line: string) => ctx.io.stderr.write(`${line}\n`),
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

  // Runs until Ctrl-C (exit 130, as any interrupted command) or SIGTERM (a service manager's stop: 0).
  ctx.handlesInterrupt = true;
  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) resolve();
    else ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await emulator.close();
  if (ctx.signal.reason === 'SIGTERM') return;
  ctx.out.error('\nEmulator stopped.');
  return ExitCode.interrupted;
};
