// A live service's agents written as files, so that a plan right after shows nothing to do, and
// the folder applied to another service copies them. The service's texts are hostile: a name
// becomes a file name only through fileStem (letters, digits, - and _), files are written only
// directly in the folder, and each file is read back before it is kept (what export writes, plan reads).
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApiClient } from '../api/client.js';
import type { LockOwner } from '../batch/lock.js';
import { writeFileAtomically } from '../contract/atomic-write.js';
import { isUuid } from '../contract/ids.js';
import { realPath } from '../contract/real-path.js';
import { UsageError } from '../errors.js';
import { pyStrip } from '../schedule/py.js';
import { AgentFileError, parseAgentFile, serializeAgentFile, uniqueFileName, type AgentSpec } from './files.js';
import { IdentityFile, serviceKey } from './identity.js';
import { lockFolder } from './index.js';
import { listLive, readDetails, type LiveAgent } from './service.js';

export interface ExportRequest {
  dir: string;
  /** Agents by name or id; empty: every agent. */
  select: readonly string[];
  owner: LockOwner;
  signal?: AbortSignal;
}

export interface ExportedFile {
  file: string;
  name: string;
  id: string;
  /** The file was there and is written again (the lock file names it for this agent). */
  replaced: boolean;
}

/** Writes the agents as files of `dir` (made if missing) and records them in its lock file. */
export async function exportFolder(client: ApiClient, request: ExportRequest): Promise<ExportedFile[]> {
  await mkdir(request.dir, { recursive: true });
  const dir = await realPath(request.dir);
  const lock = await lockFolder(dir, request.owner);
  try {
    const live = await listLive(client, request.signal);
    const chosen = choose(live, request.select);
    await readDetails(client, live, chosen.map((agent) => agent.id), request.signal);
    const identities = await IdentityFile.read(dir);
    const service = serviceKey(client.baseUrl);
    const fileOf = new Map([...identities.entries(service)].flatMap(([file, entry]) => (entry.id ? [[entry.id, file] as const] : [])));
    const taken = new Set((await readdir(dir)).map((name) => name.toLowerCase()));
    const written: ExportedFile[] = [];
    for (const agent of chosen) {
      const known = fileOf.get(agent.id);
      const file = known ?? uniqueFileName(agent.name, taken);
      const text = fileText(live.get(agent.id)!, file);
      lock.confirm();
      await writeFileAtomically(join(dir, file), text);
      const entry = identities.entries(service).get(file);
      identities.set(service, file, { id: agent.id, created: entry?.created ?? false });
      written.push({ file, name: agent.name, id: agent.id, replaced: known !== undefined });
    }
    await identities.save(true);
    return written;
  } finally {
    lock.release();
  }
}

/** The agents asked for (each name or id must name one), or all of them, oldest first as listed. */
function choose(live: Map<string, LiveAgent>, select: readonly string[]): LiveAgent[] {
  const all = [...live.values()];
  if (select.length === 0) return all;
  const chosen = new Map<string, LiveAgent>();
  for (const wanted of select) {
    const found = isUuid(wanted) ? all.filter((agent) => agent.id === wanted.toLowerCase()) : all.filter((agent) => pyStrip(agent.name) === pyStrip(wanted));
    if (found.length === 0) throw new UsageError(`no agent on the service is named or has the id "${wanted}"`);
    if (found.length > 1) throw new UsageError(`${found.length} agents are named "${wanted}" (${found.map((agent) => agent.id).join(', ')})`, 'give their ids instead');
    chosen.set(found[0]!.id, found[0]!);
  }
  return [...chosen.values()];
}

/** An agent's file: every field the service showed, checked by reading it back. */
function fileText(agent: LiveAgent, file: string): string {
  const spec: AgentSpec = { name: pyStrip(agent.name), charter: pyStrip(agent.charter), schedule: agent.schedule };
  if (agent.is_active !== undefined) spec.active = agent.is_active;
  if (agent.whitelist_policy !== undefined) spec.whitelist_policy = agent.whitelist_policy as AgentSpec['whitelist_policy'];
  if (agent.contact_approval_mode !== undefined) spec.contact_approval_mode = agent.contact_approval_mode as AgentSpec['contact_approval_mode'];
  if (typeof agent.preferred_llm_tier === 'string') spec.preferred_llm_tier = agent.preferred_llm_tier;
  if (agent.daily_credit_limit !== undefined) spec.daily_credit_limit = agent.daily_credit_limit;
  if (agent.proactive_opt_in !== undefined) spec.proactive = agent.proactive_opt_in;
  // preferred_contact is left out: an endpoint id means nothing on another service.
  const text = serializeAgentFile(spec);
  try {
    parseAgentFile(text, file);
  } catch (error) {
    if (!(error instanceof AgentFileError)) throw error;
    throw new UsageError(`agent ${agent.id}: its ${error.field} as the service shows it cannot be written in an agent file (${error.problem}); nothing was written for it`);
  }
  return text;
}
