import { checkApiKey, parseIntegerFlag } from '../../contract/validate.js';
import { ExitCode, ExitError, UsageError } from '../../errors.js';
import { FaultSpecError, parseFaults } from '../../emulator/faults.js';
import { splitHost } from '../../emulator/host-guard.js';
import type { Context } from '../../cli/context.js';
import { defineCommand } from '../../cli/define.js';
import { SIMULATION_HELP } from './simulation-help.js';
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
    { flags: '--faults <spec>', description: 'inject faults, e.g. "503@10%, 429@5%/2, reset@1%, latency=200ms" or "POST /tasks/* => 500@50%"' },
    { flags: '--seed <n>', description: 'repeatable ids and fault draws (the same seed and requests give the same answers)' },
    {
      flags: '--allowed-host <name>',
      description: 'also answer requests whose Host is NAME (or NAME:PORT); on a loopback --host, other names than localhost, 127.x.x.x and [::1] get 421 (repeatable)',
      repeatable: true,
    },
    { flags: '--agent-limit <n>', description: "the plan's agent limit: creating a persistent agent beyond N alive answers 400 \"Agent limit reached for this user.\"" },
    { flags: '--task-credits <n>', description: "the plan's task credits: after N task creates, the next answers 402 (before its body is read)" },
    { flags: '--state <file>', description: 'load the records from FILE at start (if it exists), save them there every 2 s while anything changes and on stop (one emulator per file)' },
  ],
  notes: SIMULATION_HELP,
  exitCodes: { 0: "stopped by SIGTERM (a service manager's stop)", 1: 'the emulator could not start or save its state', 2: '', 130: 'stopped by Ctrl-C' },
  examples: [
    'agentctl emulator',
    'agentctl emulator --port 0 --task-duration 500 --api-key test-key > url.txt &',
    'agentctl tasks create "[fail] try the failure path" --follow; echo "exit $?"',
    'agentctl tasks create "[pending] still editable" --json && agentctl tasks replace ID "new prompt"',
    'agentctl emulator --faults "503@20%, 429@10%/2, latency=100ms" --seed 7',
    'agentctl emulator --state emulator-state.json',
    'agentctl emulator --agent-limit 2 --task-credits 10',
  ],
  parse: (input) => ({
    port: parseIntegerFlag(input.string('port') ?? '8787', '--port', 0, 65535),
    host: input.string('host') ?? '127.0.0.1',
    taskDurationMs: parseIntegerFlag(input.string('taskDuration') ?? '3000', '--task-duration', 0, 24 * 3600 * 1000),
    latencyMs: parseIntegerFlag(input.string('latency') ?? '0', '--latency', 0, 60_000),
    faults: checkFaults(input.string('faults')),
    seed: input.string('seed') === undefined ? undefined : parseIntegerFlag(input.string('seed') as string, '--seed', 0, 2 ** 32 - 1),
    stateFile: input.string('state'),
    allowedHosts: input.list('allowedHost').map(checkAllowedHost),
    plan: {
      ...optionalCount(input.string('agentLimit'), '--agent-limit', 'agentLimit'),
      ...optionalCount(input.string('taskCredits'), '--task-credits', 'taskCredits'),
    },
  }),
  run: (options, ctx) => serve(options, ctx),
});

interface ServeOptions {
  port: number;
  host: string;
  taskDurationMs: number;
  latencyMs: number;
  faults: string | undefined;
  seed: number | undefined;
  stateFile: string | undefined;
  allowedHosts: string[];
  plan: { agentLimit?: number; taskCredits?: number };
}

/** A limit flag given as a count (0..1,000,000), or nothing when it is left out. */
function optionalCount<K extends string>(raw: string | undefined, flag: string, key: K): Partial<Record<K, number>> {
  return raw === undefined ? {} : ({ [key]: parseIntegerFlag(raw, flag, 0, 1_000_000) } as Partial<Record<K, number>>);
}

/** A host name, or name:port, as a Host header carries it. */
function checkAllowedHost(name: string): string {
  if (!splitHost(name)) throw new UsageError(`--allowed-host "${name}" is not a host name or name:port`, 'e.g. --allowed-host emulator.test or --allowed-host my-box:8787');
  return name;
}

/** The fault spec, checked before the emulator starts (a usage error says what is wrong). */
function checkFaults(spec: string | undefined): string | undefined {
  if (spec === undefined) return undefined;
  try {
    parseFaults(spec);
  } catch (error) {
    if (error instanceof FaultSpecError) throw new UsageError(`--faults: ${error.message}`, 'agentctl emulator --help shows examples; docs/emulator-library.md has the grammar');
    throw error;
  }
  return spec;
}

async function serve({ port, host, taskDurationMs, latencyMs, faults, seed, stateFile, allowedHosts, plan }: ServeOptions, ctx: Context): Promise<number | void> {
  // The global --api-key names the key clients must send; the environment's key is not reused.
  const apiKey = ctx.flags.apiKey === undefined ? EMULATOR_DEFAULT_KEY : checkApiKey(ctx.flags.apiKey, '--api-key');
  const { startEmulator, StateFileError } = await import('../../emulator/index.js');
  const emulator = await startEmulator({
    port,
    host,
    apiKey,
    taskDurationMs,
    latencyMs,
    faults,
    seed,
    stateFile,
    allowedHosts,
    plan,
    process: ctx.io.process,
    log: ctx.out.settings.quiet ? undefined : (line: string) => ctx.io.stderr.write(`${line}\n`),
  }).catch((error: unknown) => {
    if (error instanceof StateFileError) throw new UsageError(`--state: ${error.message}`, 'give a file the emulator saved (and no other emulator uses), or a new name in a folder you can write to');
    throw listenError(error, host, port);
  });
  ctx.out.line(emulator.baseUrl);
  ctx.out.info(`agentctl emulator: a simulated service, in memory; no browser runs. Ctrl-C stops it.`);
  if (faults !== undefined) ctx.out.warn(`Faults are on (--faults ${faults}): some requests fail or slow down on purpose.`);
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
  try {
    await emulator.close();
  } catch (error) {
    // The folder can vanish or fill up while the emulator runs: say what was lost, not "a bug".
    if (!(error instanceof StateFileError)) throw error;
    throw new ExitError(ExitCode.serviceError, `--state: ${error.message}`, 'the changes since the last save (at most a few seconds ago) are lost; the file keeps that save');
  }
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
