import type { Command } from 'commander';
import { examples } from '../../cli/help.js';
import { lazy } from '../../cli/lazy.js';

export function register(program: Command): void {
  examples(
    program
      .command('emulator')
      .description('run a local, in-memory copy of the service for trying agentctl and testing scripts (no browser runs)')
      .option('--port <n>', 'port to listen on (0 = any free port)', '8787')
      .option('--host <host>', 'address to listen on', '127.0.0.1')
      .option('--task-duration <ms>', 'how long a simulated task runs', '3000')
      .option('--latency <ms>', 'extra delay before every response', '0')
      .addHelpText(
        'after',
        '\nThe first line on stdout is the base URL; logs go to stderr.\n' +
          'The global --api-key KEY sets the key clients must send (default emulator-key).\n' +
          'Prompt markers: [fail] ends the task failed, [hang] keeps it running until cancelled,\n' +
          '[no-credits] answers 402 on create, [server-error] answers 500 on create.\n' +
          '\nPersistent agents: each is built on a listed browser-use agent (deleting that removes it).\n' +
          'A message starts a web task under that agent (prompt = the message; [fail] and [hang] apply);\n' +
          'when it ends, the timeline gets a steps event and a reply. Agents have email and web\n' +
          'endpoints: sms, slack, discord and other messages need --recipient. Under\n' +
          '--whitelist-policy manual only emulator@example.com, +15555550100 and web senders may write.',
      ),
    [
      'agentctl emulator',
      'agentctl emulator --port 0 --task-duration 500 --api-key test-key > url.txt &',
      'agentctl tasks create "[fail] try the failure path" --follow; echo "exit $?"',
    ],
  ).action(lazy(() => import('./start.js')));
}
