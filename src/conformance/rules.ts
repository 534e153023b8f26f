// The rules a recorded answer and a replayed one are compared by (`emulator check`, `conformance`),
// and the places where the emulator knowingly answers otherwise than the service. They are one
// list on purpose: docs/emulator.md's table of known differences is generated from
// KNOWN_DIFFERENCES (renderKnownDifferences; a test fails while the page is stale), so a difference
// the emulator documents is the same thing, with the same id, that a report marks as known.

/** What kind of difference: the word a report names it by, and what `--ignore RULE` takes. */
export type RuleId = 'status' | 'error-text' | 'field-missing' | 'field-extra' | 'field-type' | 'field-format' | 'default' | 'ordering' | 'page-links';

export interface Rule {
  readonly id: RuleId;
  /** What the rule compares, in a sentence (help and docs show it). */
  readonly compares: string;
}

export const RULES: readonly Rule[] = [
  { id: 'status', compares: 'the HTTP status; answers with different statuses are not compared further' },
  { id: 'error-text', compares: "an error answer's body (4xx, 5xx): its fields and messages, ids mapped" },
  { id: 'field-missing', compares: 'a field (or list item) the recorded answer has and the replayed one lacks' },
  { id: 'field-extra', compares: 'a field (or list item) the replayed answer has and the recorded one lacks' },
  { id: 'field-type', compares: 'a JSON type: string, number, boolean, null, object or array (a body that is not JSON counts as text)' },
  { id: 'field-format', compares: "a string's format: uuid, decimal places, timestamp precision and zone, URL, plain text" },
  { id: 'default', compares: "the value a create answers for a field its request left out (booleans, numbers, short words; not ids or times)" },
  { id: 'ordering', compares: "a list's order, by the ids both answers share" },
  { id: 'page-links', compares: "a page's `next` and `previous`: there or null, and the path and query they point at" },
];

export const RULE_IDS: ReadonlySet<string> = new Set(RULES.map((rule) => rule.id));

/** One place where the emulator knowingly differs from the service (docs/emulator.md shows them all). */
export interface KnownDifference {
  /** A stable name a report and the docs give it. */
  readonly id: string;
  /** The rule that sees it; undefined when no rule compares what differs (then it is documented only). */
  readonly rule?: RuleId;
  /** The requests it concerns: a method and a path pattern below the base URL (`*` is one segment, `**` the rest). */
  readonly method?: string;
  readonly routes?: readonly string[];
  /** The field it concerns (a name in a report's path), when it is one field. */
  readonly field?: string;
  /** What differs, for the docs and the report (Markdown-free text). */
  readonly text: string;
  /** Whether it depends on the deployment's plan rather than on the emulator's choice. */
  readonly plan?: boolean;
}

/** The two task lists: standalone and under a legacy agent. */
const TASK_LISTS = ['tasks/browser-use/', 'agents/browser-use/*/tasks/'];

export const KNOWN_DIFFERENCES: readonly KnownDifference[] = [
  {
    id: 'browsable-api',
    text: "`?format=api` and `Accept: text/html` get a small HTML page holding the JSON answer, not DRF's browsable API template.",
  },
  {
    id: 'options-actions',
    rule: 'field-missing',
    method: 'OPTIONS',
    routes: ['**'],
    field: 'actions',
    text: "OPTIONS gives `name`, `description`, `renders` and `parses` but not `actions` (the serializers' field descriptions).",
  },
  {
    id: 'ping-allow-order',
    text: "`/ping/`'s `Allow` is always `GET, OPTIONS` (the service's order follows a Python set's and may change between its processes).",
  },
  {
    id: 'relative-timestamp-months',
    text: "`relativeTimestamp` past a month counts 30-day months, as Django 3.2's timesince did (Django 6, the service's, counts calendar months).",
  },
  {
    id: 'cancel-is-final',
    text: "A cancel is final: the service's worker, if it already runs the task, saves its own outcome over the cancel and sends a second webhook (docs/service-behaviour.md, Tasks), so a `wait` that a cancel ends answers `cancelled` at once here.",
  },
  {
    id: 'output-schema-message',
    rule: 'error-text',
    method: 'POST',
    routes: TASK_LISTS,
    field: 'output_schema',
    text: "An output schema the meta-schema refuses is 400 `Invalid JSON Schema: ...` as at the service, but the rest of the message is Ajv's (`/required must be array`), not Python's repr of the meta-schema's fragment. A regular expression in it is read with Python's grammar, except that a look-behind's width is not checked (Python refuses `(?<=a+)b`, the emulator takes it) and `\\N{...}` names are not looked up.",
  },
  {
    id: 'task-credits',
    rule: 'status',
    method: 'POST',
    routes: TASK_LISTS,
    plan: true,
    text: 'Credit limits: the service refuses a task create (402) once the plan\'s task credits are spent; the emulator never does, unless `--task-credits N` (or the `[no-credits]` prompt marker).',
  },
  {
    id: 'agent-limit',
    rule: 'status',
    method: 'POST',
    routes: ['agents/'],
    plan: true,
    text: 'Agent limits: the plan caps the persistent agents alive at once (400 "Agent limit reached for this user."); the emulator has no cap, unless `--agent-limit N`.',
  },
  {
    id: 'tier-clamping',
    rule: 'default',
    routes: ['agents/', 'agents/*/'],
    field: 'preferred_llm_tier',
    plan: true,
    text: "Tier clamping: an agent's `preferred_llm_tier` above what the plan allows is lowered by the service; the emulator keeps the tier as sent.",
  },
  {
    id: 'tier-multiplier',
    rule: 'default',
    routes: [...TASK_LISTS, ...TASK_LISTS.map((list) => `${list}*/`)],
    field: 'credits_cost',
    plan: true,
    text: "Tier multipliers: the service multiplies a task's `credits_cost` by its tier's multiplier; the emulator's `credits_cost` is the plain default.",
  },
  {
    id: 'daily-credit-limit',
    plan: true,
    text: "Daily credit limits on an agent (`daily_credit_limit`) are stored, never enforced.",
  },
];

export const KNOWN_DIFFERENCE_IDS: ReadonlySet<string> = new Set(KNOWN_DIFFERENCES.map((known) => known.id));

/** Whether `path` (below the base URL, no leading slash needed) matches a route pattern of this list. */
export function routeMatches(pattern: string, path: string): boolean {
  const parts = (text: string) => text.replace(/^\/+/, '').split('/');
  const want = parts(pattern);
  const have = parts(path);
  const match = (i: number, j: number): boolean => {
    if (i === want.length) return j === have.length;
    if (want[i] === '**') return Array.from({ length: have.length - j + 1 }, (_, k) => j + k).some((next) => match(i + 1, next));
    return j < have.length && (want[i] === '*' ? have[j] !== '' : want[i] === have[j]) && match(i + 1, j + 1);
  };
  return match(0, 0);
}

/** The known difference a reported one is, if any: same rule, method, route and field. */
export function knownDifferenceFor(rule: RuleId, method: string, path: string, field: string): KnownDifference | undefined {
  const names = field.split(/[.[\]]/).filter(Boolean);
  return KNOWN_DIFFERENCES.find(
    (known) =>
      known.rule === rule &&
      (known.method === undefined || known.method === method) &&
      (known.routes === undefined || known.routes.some((route) => routeMatches(route, path))) &&
      (known.field === undefined || names.includes(known.field)),
  );
}

/** The Markdown table docs/emulator.md shows between its known-differences markers. */
export function renderKnownDifferences(): string {
  const rows = KNOWN_DIFFERENCES.map((known) => {
    const seen = known.rule === undefined ? 'not compared' : `\`${known.rule}\``;
    return `| \`${known.id}\` | ${seen} | ${known.plan ? 'plan: ' : ''}${known.text.replaceAll('|', '\\|')} |`;
  });
  return ['| id | `check` sees it as | what differs |', '|---|---|---|', ...rows].join('\n');
}

/** The Markdown table of the rules (docs/conformance.md). */
export function renderRules(): string {
  return ['| rule | compares |', '|---|---|', ...RULES.map((rule) => `| \`${rule.id}\` | ${rule.compares} |`)].join('\n');
}

export const KNOWN_DIFFERENCES_START = '<!-- known-differences: generated from src/conformance/rules.ts by npm run docs -->';
export const KNOWN_DIFFERENCES_END = '<!-- /known-differences -->';
export const RULES_START = '<!-- rules: generated from src/conformance/rules.ts by npm run docs -->';
export const RULES_END = '<!-- /rules -->';

/** `page` with the text between `start` and `end` replaced by `table` (the markers stay). */
export function replaceBetween(page: string, start: string, end: string, table: string): string {
  const from = page.indexOf(start);
  const to = page.indexOf(end);
  if (from === -1 || to < from) throw new Error(`the page has no ${start} ... ${end} markers`);
  return `${page.slice(0, from + start.length)}\n${table}\n${page.slice(to)}`;
}

/** The first of `names` that is neither a rule nor a known difference's id (what an ignore list takes), if any. */
export function notARule(names: Iterable<string>): string | undefined {
  for (const name of names) if (!RULE_IDS.has(name) && !KNOWN_DIFFERENCE_IDS.has(name)) return name;
  return undefined;
}
