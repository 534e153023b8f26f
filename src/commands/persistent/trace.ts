import { agentTools } from '../../api/agent-tools.js';
import type { Context } from '../../cli/context.js';
import { defineCommand } from '../../cli/define.js';
import { TRACE_DETAILS, TRACE_SECTIONS } from '../../contract/enums.js';
import { SERVICE_LIMITS } from '../../contract/limits.js';
import { checkUuid } from '../../contract/validate.js';
import { traceArguments, type TraceQuery } from '../../core/agent-trace.js';
import type { DetailRow } from '../../output/output.js';
import { AGENT_ID_ARG, ID } from './options.js';
import { inFlagWords, wholeNumber } from './tool-flags.js';

type Json = Record<string, unknown>;
const object = (value: unknown): Json => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {});
const events = (value: unknown): Json[] => (Array.isArray(value) ? value.map(object) : []);

const WORDS = { limit: '--limit', cursor: '--cursor', recent_minutes: '--recent-minutes', since: '--since', until: '--until', include: '--include', detail: '--detail', eval_run_id: '--eval-run' };

function rows(trace: Json): DetailRow[] {
  const [agent, scope, timeline, audit] = [object(trace.agent), object(trace.scope), object(trace.timeline), object(trace.audit)];
  const window = scope.recent_minutes ? `the last ${String(scope.recent_minutes)} minutes` : `${String(scope.since ?? 'the start')} to ${String(scope.until ?? 'now')}`;
  const more = audit.has_more ? `; older with --cursor ${String(audit.next_cursor)}` : '';
  const all: DetailRow[] = [
    { label: 'agent', value: `${String(agent.id)} (${String(agent.name)})` },
    { label: 'window', value: window },
    { label: 'sections', value: Array.isArray(scope.include) ? scope.include.join(', ') : undefined },
    { label: 'detail', value: scope.detail },
    { label: 'timeline', value: 'timeline' in trace ? `${events(timeline.events).length} events${timeline.processing_active ? ', processing now' : ''}` : undefined },
    { label: 'audit', value: 'audit_events' in trace ? `${events(trace.audit_events).length} events${more}` : undefined },
    ...(Array.isArray(trace.warnings) ? trace.warnings.map((warning) => ({ label: 'warning', value: warning })) : []),
  ];
  return all.filter((row) => row.value !== undefined && row.value !== '');
}

function show(ctx: Context, trace: Json): void {
  if (ctx.out.machine) return ctx.out.json(trace);
  ctx.out.record(trace, rows(trace));
  const audit = events(trace.audit_events);
  if (audit.length === 0 || ctx.out.settings.format !== 'table') return;
  ctx.out.line('');
  ctx.out.list(audit, [{ key: 'timestamp' }, { key: 'kind' }, { key: 'id', optional: true }]);
  ctx.out.tableNote('The whole trace (completions, eval artifacts, diagnostics): --json.');
}

export const command = defineCommand({
  name: 'trace',
  summary: "the agent's debug trace: recent timeline and audit events, tool calls, completions, diagnostics",
  args: [AGENT_ID_ARG],
  options: [
    { flags: '--limit <n>', description: `items per section, 1..${SERVICE_LIMITS.traceLimit} (service default 20)` },
    { flags: '--recent-minutes <m>', description: `the window: this many minutes back, 1..${SERVICE_LIMITS.traceMinutes} (service default 60)` },
    { flags: '--since <time>', description: 'the window from this ISO 8601 time (not with --recent-minutes)' },
    { flags: '--until <time>', description: 'the window up to this ISO 8601 time (default now; at most 7 days after --since)' },
    { flags: '--cursor <cursor>', description: 'older audit events: audit.next_cursor of a trace' },
    { flags: '--include <sections>', description: `only these sections, comma-separated: ${TRACE_SECTIONS.join(', ')}` },
    { flags: '--detail <level>', description: 'how long the previews are (secrets are redacted at every level)', choices: TRACE_DETAILS },
    { flags: '--eval-run <id>', description: "only this eval run's debug artifacts (UUID)" },
  ],
  notes: "A sanitised view the service builds: raw prompts and secret-like values are left out. Through the service's MCP endpoint (gobii-platform 2.21.0 or later).",
  examples: [`agentctl persistent trace ${ID}`, `agentctl persistent trace ${ID} --recent-minutes 15 --include audit_events --json | jq '.audit_events | length'`],
  parse(input) {
    const agentId = checkUuid(input.arg(0) ?? '', 'agent id');
    const include = input.string('include');
    const query: TraceQuery = {
      limit: wholeNumber(input.string('limit'), '--limit'),
      recent_minutes: wholeNumber(input.string('recentMinutes'), '--recent-minutes'),
      since: input.string('since'),
      until: input.string('until'),
      cursor: input.string('cursor'),
      include: include === undefined ? undefined : include.split(',').map((section) => section.trim()).filter(Boolean),
      detail: input.string('detail'),
      eval_run_id: input.string('evalRun'),
    };
    return { args: inFlagWords(WORDS, () => traceArguments(agentId, query)) };
  },
  async run({ args }, ctx) {
    show(ctx, await agentTools.trace(await ctx.client(), args, { signal: ctx.signal }));
  },
});
