// One exported agent, mapped to the agents-as-code file (what the v1 API can set) and to a list of
// what it cannot (memory, history, files, skills, tools, connections, ...), each with where its
// verified copy is and how to restore it. The mapping follows the service's own importer
// (api/services/portable_agent_import_restore.py, PortableAgentRestorer._restore_identity): the
// charter, tier and allowlist mode come over; the schedule and proactive work do not (it clears
// them, to be re-enabled after review); the agent is active for web chat (activate_for_web_chat).
import { join } from 'node:path';
import type { AgentSpec } from '../files.js';
import { CONTACT_APPROVAL_MODES, WHITELIST_POLICIES } from '../../contract/enums.js';
import { LIMITS } from '../../contract/limits.js';
import { isObject, readJson, type PortableAgentEntry, type PortableExport } from './archive.js';

/** One thing the v1 API cannot restore. `path`: its verified copy, relative to the output folder (`/`-separated). */
export interface NotRestored {
  what: 'schedule' | 'proactive' | 'identity' | 'memory' | 'history' | 'work' | 'files' | 'skills' | 'tools' | 'connections' | 'communications' | 'state';
  detail: string;
  path?: string;
  how: string;
}

/** Said once per report: what restores everything the v1 API cannot. */
export const GOBII_IMPORT = 'A Gobii installation restores all of it, credentials excepted: New agent → Import agent, upload the whole ZIP.';

type Reader = (relative: string) => Promise<Record<string, unknown>>;

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function readers(bundle: PortableExport, agent: PortableAgentEntry) {
  const prefix = `agents/${agent.folder}`;
  const has = (relative: string) => bundle.archive.members.has(`${prefix}/${relative}`);
  const read: Reader = async (relative) => (has(relative) ? readJson(bundle.archive, `${prefix}/${relative}`) : {});
  return { prefix, has, read };
}

/** The agent file's settings: what the v1 API can set. */
export async function agentSpec(bundle: PortableExport, agent: PortableAgentEntry): Promise<AgentSpec> {
  const { read } = readers(bundle, agent);
  return specOf(agent, await read('identity/profile.json'), await read('communications/allowlist.json'));
}

/**
 * What the v1 API cannot restore, each `path` under `kept` (the agent's folder of verified files,
 * relative to the output folder `dir`, which a `how` that names a file starts from).
 */
export async function notRestored(bundle: PortableExport, agent: PortableAgentEntry, spec: AgentSpec, kept: string, dir: string): Promise<NotRestored[]> {
  const { prefix, has, read } = readers(bundle, agent);
  const profile = await read('identity/profile.json');
  const items = [
    ...(await scheduleItems(read, profile)),
    ...identityItems(profile, spec, agent),
    ...(await contentItems(read, has, bundle, prefix)),
    ...(await capabilityItems(read, has, bundle, prefix)),
  ];
  for (const item of items) {
    if (item.path !== undefined) item.path = `${kept}/${item.path}`;
    item.how = item.how.replace('{path}', join(dir, item.path ?? ''));
  }
  return items;
}

function specOf(agent: PortableAgentEntry, profile: Record<string, unknown>, allowlist: Record<string, unknown>): AgentSpec {
  const spec: AgentSpec = {
    name: [...agent.name].slice(0, LIMITS.persistentAgentName).join(''),
    charter: text(profile.charter),
    schedule: null,
    active: true,
    proactive: false,
  };
  const policy = allowlist.policy;
  if ((WHITELIST_POLICIES as readonly unknown[]).includes(policy)) spec.whitelist_policy = policy as AgentSpec['whitelist_policy'];
  const mode = allowlist.contactApprovalMode;
  if ((CONTACT_APPROVAL_MODES as readonly unknown[]).includes(mode)) spec.contact_approval_mode = mode as AgentSpec['contact_approval_mode'];
  const tier = profile.preferredIntelligenceTier;
  if (typeof tier === 'string' && /^[a-z0-9_-]{1,64}$/i.test(tier)) spec.preferred_llm_tier = tier;
  return spec;
}

async function scheduleItems(read: Reader, profile: Record<string, unknown>): Promise<NotRestored[]> {
  const items: NotRestored[] = [];
  const schedules = list((await read('work/schedules.json')).schedules).filter(isObject);
  const primary = schedules.find((row) => row.kind === 'legacy' && typeof row.expression === 'string');
  const others = schedules.filter((row) => row !== primary);
  if (primary) {
    items.push({
      what: 'schedule',
      detail: `the schedule ${JSON.stringify(primary.expression)} is left out (schedule: null), as the service's importer leaves it disabled`,
      path: 'work/schedules.json',
      how: 'review it, then set it in the agent file\'s front matter (schedule: "...") and apply',
    });
  }
  if (others.length > 0) {
    items.push({
      what: 'schedule',
      detail: `${others.length} further schedule(s) (named schedules with their own instructions): the v1 API holds one schedule per agent`,
      path: 'work/schedules.json',
      how: 'recreate them in the web console',
    });
  }
  if (profile.proactiveOptIn === true) {
    items.push({ what: 'proactive', detail: 'proactive work was on at export; the file says proactive: false, as the service\'s importer does', how: 'set proactive: true after review' });
  }
  return items;
}

function identityItems(profile: Record<string, unknown>, spec: AgentSpec, agent: PortableAgentEntry): NotRestored[] {
  const extras = ['shortDescription', 'miniDescription', 'visualDescription', 'ownerInstructions'].filter((key) => text(profile[key]).trim() !== '');
  if (list(profile.tags).length > 0) extras.push('tags');
  if (isObject(profile.avatar) && profile.avatar.archivePath) extras.push('avatar');
  const items: NotRestored[] = [];
  if (extras.length > 0) {
    items.push({
      what: 'identity',
      detail: `${extras.join(', ')}: not fields of the v1 API`,
      path: 'identity/profile.json',
      how: 'set them in the web console; owner instructions belong to the new owner\'s settings',
    });
  }
  if (spec.name !== agent.name) items.push({ what: 'identity', detail: `the name was cut to ${LIMITS.persistentAgentName} characters`, how: 'choose a shorter name in the agent file' });
  return items;
}

async function countLines(bundle: PortableExport, name: string): Promise<number> {
  const member = bundle.archive.members.get(name);
  if (!member || member.size === 0) return 0;
  let count = 0;
  let last = 10;
  await bundle.archive.stream(member, (chunk) => {
    for (const byte of chunk) if (byte === 10) count++;
    last = chunk[chunk.length - 1] ?? last;
  });
  return last === 10 ? count : count + 1;
}

async function contentItems(read: Reader, has: (relative: string) => boolean, bundle: PortableExport, prefix: string): Promise<NotRestored[]> {
  const items: NotRestored[] = [];
  const snapshots = await countLines(bundle, `${prefix}/memory/snapshots.jsonl`);
  if (has('memory/current-state.md') || snapshots > 0) {
    items.push({
      what: 'memory',
      detail: `the current plan and compacted memory (memory/current-state.md), ${snapshots} memory snapshot(s)`,
      path: 'memory/current-state.md',
      how: 'the v1 API has no memory: once the agent exists, send it as its first message (agentctl persistent message ID - --channel web < {path}), or fold what matters into the charter',
    });
  }
  const messages = await countLines(bundle, `${prefix}/history/messages.jsonl`);
  const steps = await countLines(bundle, `${prefix}/history/steps.jsonl`);
  if (messages + steps > 0) {
    items.push({ what: 'history', detail: `${messages} message(s) and ${steps} step(s)`, path: 'history/transcript.md', how: 'kept for reference: no API writes history' });
  }
  const work = await read('work/tasks.json');
  const plan = await read('work/plan.json');
  const pending = await read('work/pending-inputs.json');
  const workCount = list(work.tasks).length + list(plan.deliverables).length + list(pending.requests).length;
  if (workCount > 0 || text(plan.plan) !== '') {
    items.push({ what: 'work', detail: `the plan, ${list(work.tasks).length} task card(s), ${list(pending.requests).length} pending question(s)`, path: 'work/', how: 'mention what is still open in the first message' });
  }
  const files = list((await read('files/index.json')).files).filter((row) => isObject(row) && row.archivePath);
  if (files.length > 0) {
    items.push({ what: 'files', detail: `${files.length} workspace file(s) and attachment(s)`, path: 'files/', how: 'the v1 API cannot upload files: add them in the web console\'s files' });
  }
  if (has('state/sqlite/state.sqlite3')) {
    items.push({ what: 'state', detail: 'the agent\'s SQLite database', path: 'state/sqlite/', how: 'no API restores it (kept for reference)' });
  }
  return items;
}

async function capabilityItems(read: Reader, has: (relative: string) => boolean, bundle: PortableExport, prefix: string): Promise<NotRestored[]> {
  const items: NotRestored[] = [];
  // A v1 export may have no index: its skills are the SKILL.md files (as _parse_v1_skill reads them).
  const skillFiles = [...bundle.archive.members.keys()].filter((name) => name.startsWith(`${prefix}/skills/`) && name.endsWith('/SKILL.md')).length;
  const skills = has('skills/index.json') ? list((await read('skills/index.json')).skills).length : skillFiles;
  if (skills > 0) {
    items.push({
      what: 'skills',
      detail: `${skills} skill(s)`,
      path: 'skills/',
      how: 'the v1 API has no skills: recreate each from its SKILL.md in the web console',
    });
  }
  const capabilities = await read('tools/capabilities.json');
  const servers = list((await read('tools/mcp-servers.json')).servers).length;
  const custom = list(capabilities.customTools).length;
  const enabled = list(capabilities.enabledTools).length + list(capabilities.systemSkills).length;
  if (custom + enabled + servers > 0) {
    items.push({
      what: 'tools',
      detail: `${enabled} enabled tool(s) and system skill(s), ${custom} custom tool(s), ${servers} MCP server(s)`,
      path: 'tools/',
      how: 'reconnect MCP servers and re-enable tools in the web console (or pick personal MCP servers with persistent update); custom tool sources are under tools/custom/',
    });
  }
  const secrets = list((await read('connections/requirements.json')).secretRequirements).length;
  if (secrets > 0) {
    items.push({ what: 'connections', detail: `${secrets} secret(s) by name; no value was exported`, path: 'connections/requirements.json', how: 'provide each secret again (web console, or a task\'s secrets)' });
  }
  const contacts = list((await read('communications/contacts.json')).contacts).length;
  const endpoints = list((await read('communications/endpoints.json')).endpoints).length;
  const hooks = await read('communications/webhooks.json');
  const webhooks = list(hooks.outbound).length + list(hooks.inbound).length;
  const peers = list((await read('communications/relationships.json')).peerAgents).length;
  if (contacts + endpoints + webhooks + peers > 0) {
    items.push({
      what: 'communications',
      detail: `${contacts} allowlisted contact(s), ${endpoints} address(es), ${webhooks} webhook(s), ${peers} peer agent link(s)`,
      path: 'communications/',
      how: 'addresses are the old service\'s; add contacts, channels, webhooks and peer links again in the web console',
    });
  }
  return items;
}
