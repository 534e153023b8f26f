import { checkApiKey, parseIntegerFlag } from '../../contract/validate.js';
import { ExitCode } from '../../errors.js';
import type { Context } from '../../cli/context.js';
import { defineCommand } from '../../cli/define.js';
import { SIMULATION_HELP } from './index.js';
import { EMULATOR_DEFAULT_KEY } from '../../cli/context.js';
import { DEFAULT_BASE_URL } from '../../config/settings.js';
import { listenError } from '../common/listen.js';

export const command = defineCommand({
  name: 'emulator',
  summary: 'run a local, in-memory copy of the service for trying agentctl and testing scripts (no browser runs)',
  options: [
    { flags: '--port <n>', description: 'port to listen on (0 = any free port)', default: '8787' },
    { flags: '--host <host>', description: 'address to listen on', default: '127.0.0.1' },
    { flags: '--task-duration <ms>', description: 'how long a simulated task runs', default: '3000' },
    { flags: '--latency <ms>', description: 'extra delay before every response', default: '0' },
  ],
  notes: SIMULATION_HELP,
  examples: [
    'agentctl emulator',
    'agentctl emulator --port 0 --task-duration 500 --api-key test-key > url.txt &',
    'agentctl tasks create "[fail] try the failure path" --follow; echo "exit $?"',
    'agentctl tasks create "[pending] still editable" --json && agentctl tasks replace ID "new prompt"',
  ],
  parse: (input) => ({
    port: parseIntegerFlag(input.string('port') ?? '8787', '--port', 0, 65535),
    host: input.string('host') ?? '127.0.0.1',
    taskDurationMs: parseIntegerFlag(input.string('taskDuration') ?? '3000', '--task-duration', 0, 24 * 3600 * 1000),
    latencyMs: parseIntegerFlag(input.string('latency') ?? '0', '--latency', 0, 60_000),
  }),
  run: (options, ctx) => serve(options, ctx),
});

async function serve(
  { port, host, taskDurationMs, latencyMs }: { port: number; host: string; taskDurationMs: number; latencyMs: number },
  ctx: Context,
): Promise<number | void> {
  // The global --api-key names the key clients must send; the environment's key is not reused.
  const apiKey = ctx.flags.apiKey === undefined ? EMULATOR_DEFAULT_KEY : checkApiKey(ctx.flags.apiKey, '--api-key');
  const { startEmulator } = await import('../../emulator/index.js');
  const emulator = await startEmulator({
    port,
    host,
    apiKey,
    taskDurationMs,
    latencyMs,
    log: ctx.out.settings.quiet ? undefined : (line: string) => ctx.io.stderr.write(`${line}\n`),
  }).catch((error: unknown) => {
    throw listenError(error, host, port);
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
  for (const line of exportLines(emulator.baseUrl, ctx.flags.apiKey)) ctx.out.info(line);

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
}

/**
 * The shell lines that point agentctl at this emulator, when it cannot find it by itself (another
 * address or port than the default, or a key of the user's choosing, which is never echoed).
 * Printed on stderr as the other hints (silent with --quiet): stdout's first line stays the base URL alone.
 */
export function exportLines(baseUrl: string, apiKey: string | undefined): string[] {
  if (baseUrl === DEFAULT_BASE_URL && apiKey === undefined) return [];
  return [
    'To use it from another shell:',
    `export AGENTCTL_BASE_URL=${baseUrl}`,
    apiKey === undefined ? `export AGENTCTL_API_KEY=${EMULATOR_DEFAULT_KEY}` : "export AGENTCTL_API_KEY='<the key given with --api-key>'",
  ];
}
