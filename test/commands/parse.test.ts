// argv -> the typed options each command's `parse` makes of it, or the usage error (as gh's
// `TestNewCmd...` tables): commander and parse only, no emulator, no context, no request.
import { describe, expect, it } from 'vitest';
import { parseArgv } from '../helpers/parse-argv.js';

const ID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const NO_FIELDS = { secrets: [], secretsFromEnv: [] };

type Row = [argv: string[], expected: unknown];
type Refusal = [argv: string[], message: string];

function table(name: string, rows: Row[], refusals: Refusal[]): void {
  describe(name, () => {
    it.each(rows)('%j', async (argv, expected) => {
      expect(await parseArgv(argv, 'from stdin')).toEqual(expected);
    });
    it.each(refusals)('%j is refused', async (argv, message) => {
      await expect(parseArgv(argv)).rejects.toThrow(message);
    });
  });
}

table(
  'tasks create',
  [
    [['tasks', 'create', 'find a flight'], { scope: {}, prompt: 'find a flight', fields: NO_FIELDS, idOnly: false }],
    [['tasks', 'create'], { scope: {}, fields: NO_FIELDS, idOnly: false }],
    [['tasks', 'create', '-'], { scope: {}, prompt: '-', fields: NO_FIELDS, idOnly: false }],
    [['tasks', 'create', 'p', '--wait', '30'], { scope: {}, prompt: 'p', fields: { ...NO_FIELDS, wait: 30 }, idOnly: false }],
    [['tasks', 'create', 'p', '--id-only'], { scope: {}, prompt: 'p', fields: NO_FIELDS, idOnly: true }],
    [
      ['tasks', 'create', 'p', '--agent', ID, '--secret', 'example.com', 'k=v', '--webhook', 'https://hooks.example/x'],
      {
        scope: { agentId: ID },
        prompt: 'p',
        fields: { secrets: [{ domain: 'example.com', key: 'k', value: 'v' }], secretsFromEnv: [], webhook: 'https://hooks.example/x' },
        idOnly: false,
      },
    ],
  ],
  [
    [['tasks', 'create', 'p', '--wait', 'soon'], '--wait must be a whole number, got "soon"'],
    [['tasks', 'create', 'p', '--agent', 'nope'], '--agent "nope" is not a UUID'],
    [['tasks', 'create', 'p', '--secret', 'k=v'], '--secret needs two values: DOMAIN KEY=VALUE'],
  ],
);

table(
  'tasks list',
  [
    [['tasks', 'list'], { scope: {}, list: { all: false } }],
    [['tasks', 'list', '--all'], { scope: {}, list: { all: true } }],
    [['tasks', 'ls', '--page-size', '3'], { scope: {}, list: { pageSize: 3, all: false } }],
    [['tasks', 'list', '--status', 'cancelled', '--page', '2', '--page-size', '5'], { scope: {}, list: { page: 2, pageSize: 5, all: false }, status: 'cancelled' }],
  ],
  [
    [['tasks', 'list', '--page', '0'], '--page must be 1 or more, got 0'],
    [['tasks', 'list', '--status', 'bogus'], "argument 'bogus' is invalid. Allowed choices are pending, in_progress, completed, failed, cancelled."],
  ],
);

table(
  'agents create',
  [[['agents', 'create', '--name', 'fare watcher'], { name: 'fare watcher' }]],
  [
    [['agents', 'create'], "required option '--name <name>' not specified"],
    [['agents', 'create', '--name', ''], '--name must not be empty'],
  ],
);

table(
  'persistent create',
  [
    [['persistent', 'create', '--name', 'n', '--charter', 'c'], { name: 'n', charter: 'c' }],
    [['persistent', 'create', '--charter', 'c'], { charter: 'c' }],
  ],
  [],
);

table(
  'persistent update',
  [
    [['persistent', 'update', ID, '--name', 'm'], { id: ID, body: { name: 'm' } }],
    [['persistent', 'update', ID, '--charter', 'c', '--schedule', '@daily'], { id: ID, body: { charter: 'c', schedule: '@daily' } }],
  ],
  [
    [['persistent', 'update', ID], 'nothing to update: give at least one field'],
    [['persistent', 'update', 'nope', '--name', 'm'], 'agent id "nope" is not a UUID'],
  ],
);

// schedule-preview's parse only gathers the text: the expression, --count, --tz and --from are checked when it runs.
table(
  'schedule-preview',
  [
    [['schedule-preview', '30 6 * * *'], { expression: '30 6 * * *', raw: { count: '5' } }],
    [
      ['schedule-preview', '30 6 * * *', '--tz', 'Europe/Oslo', '--from', '2026-01-01T00:00:00Z', '--count', '3'],
      { expression: '30 6 * * *', raw: { count: '3', from: '2026-01-01T00:00:00Z', tz: 'Europe/Oslo' } },
    ],
  ],
  [[['schedule-preview'], "missing required argument 'expr'"]],
);

const API = { paginate: false, raw: [], typed: [], headers: {}, include: false };
table(
  'api',
  [
    [['api', '/ping/'], { ...API, method: 'GET', path: '/ping/' }],
    [['api', '/agents/', '-f', 'name=x', '-F', 'n=3'], { ...API, method: 'POST', path: '/agents/', raw: ['name=x'], typed: ['n=3'] }],
    [['api', 'GET', '/tasks/browser-use/', '-f', 'page=2'], { ...API, method: 'GET', path: '/tasks/browser-use/', raw: ['page=2'] }],
    [['api', '-X', 'PATCH', '/agents/browser-use/x/', '--input', '-'], { ...API, method: 'PATCH', path: '/agents/browser-use/x/', data: '@-' }],
    [['api', '/ping/', '--include', '-H', 'X-Trace: 42'], { ...API, method: 'GET', path: '/ping/', headers: { 'x-trace': '42' }, include: true }],
  ],
  [
    [['api', 'POST', '/ping/', '-X', 'GET'], 'the method is given twice: POST and -X GET'],
    [['api', '/ping/', '-H', 'X-Api-Key: k'], '-H cannot set the API key'],
    [['api', '/ping/', '-f', 'novalue'], 'field "novalue" is not KEY=VALUE'],
    [['api', '/ping/', '-f', 'a=1', '--data', '{}'], 'give the body one way: --data, --input or fields (-f/-F)'],
  ],
);
