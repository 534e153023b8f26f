import type { Command } from 'commander';
import { examples } from '../../cli/help.js';
import { collect } from '../../cli/options.js';
import { lazy } from '../../cli/lazy.js';

export function register(program: Command): void {
  examples(
    program
      .command('webhook-listen')
      .description('run a local HTTP listener for task-completion webhooks: check, print, store and forward each event')
      .option('--host <host>', 'address to listen on', '127.0.0.1')
      .option('--port <port>', 'port to listen on (0 = any free port)', '0')
      .option('--path <url-path>', 'URL path to accept (default: a random secret segment; other paths get 404)')
      .option('--print-url', 'print the URL to register alone on stdout (first line), before any event')
      .option('--output <file>', 'append each event as a JSON line, fsynced before the service gets its 200')
      .option('--forward-to <url>', 're-post each event (body, content type, user agent) here, in order, retrying while it is down (repeatable)', collect)
      .option('--task <id>', 'keep only this task\'s events (others are acknowledged and dropped)')
      .option('--count <n>', 'exit after N events')
      .option('--once', 'exit after the first event (--count 1)')
      .option('--max-body <bytes>', 'largest body accepted; larger ones get 413', '1048576')
      .option('--drain-timeout <sec>', 'on --count/--timeout exit, how long to wait for forwarding to finish', '30')
      .addHelpText(
        'after',
        '\nEach POST is checked against the webhook shapes of the spec (completed, failed, cancelled):\n' +
          'valid events are answered 200 and printed (a table row on a terminal, tab-separated when piped,\n' +
          'one JSON object per line with --json/--jsonl: {received_at, headers, body}); invalid ones get\n' +
          '400/405/413/415 with the reason, reported on stderr.\n' +
          '--timeout SEC (a global option) is how long to listen: exit 7 if no event came in that time\n' +
          '(with --count N: fewer than N). Ctrl-C stops cleanly with a summary and exits 130.\n' +
          'Exit 8 when queued events could not be forwarded before --drain-timeout.',
      ),
    [
      'agentctl webhook-listen',
      'agentctl webhook-listen --port 9000 --print-url --once --jsonl   # line 1: the URL, line 2: the event',
      'agentctl webhook-listen --port 9000 --path /hooks/s3cret --output events.jsonl --forward-to http://127.0.0.1:3000/hook',
      'agentctl webhook-listen --task 3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f --once --timeout 600 --jsonl',
    ],
  ).action(lazy(() => import('./listen.js')));
}
