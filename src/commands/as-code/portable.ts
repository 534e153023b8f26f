// `agentctl export --from-portable ZIP`: a Gobii portable export (the ZIP the hosted service handed
// out) written as agent files instead of a live service's agents, with the report of what the v1
// API cannot restore. The reading and its checks are the engine's (src/agents-as-code/portable/).
import { join } from 'node:path';
import type { PortableReport } from '../../agents-as-code/portable/index.js';
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../errors.js';

export const FROM_PORTABLE_NOTES = `
With --from-portable ZIP, the agents come from a Gobii portable export (gobii.agent-portable-export
v1 or v2) instead of the service, and nothing is sent. Every check of the service's own importer
runs before anything is written: the manifest's format, every SHA-256 of checksums.sha256 and every
CRC-32, paths that climb out (.., absolute, backslashes, drive letters, NUL), links, encrypted
entries, and size bounds read from the ZIP's directory before inflating (entries, total size,
compression ratio); a refused ZIP exits 2 with the reason and writes nothing. Each agent becomes
DIR/<name>.md as the service's importer would restore it (the schedule left out, proactive work
off), its verified files are kept under DIR/portable/<name>/, and the report lists what the v1 API
cannot restore (memory, history, files, skills, tools, connections, ...) and how. An existing file
is never overwritten. See docs/portable-export.md.`;

export async function exportFromPortable(ctx: Context, zip: string, dir: string, select: readonly string[]): Promise<void> {
  if (select.length > 0) throw new UsageError('--from-portable reads every agent of the export: name no agents', `agentctl export --from-portable ${zip} --dir ${dir}`);
  // Loaded only here: the ZIP reader (yauzl) costs a service export nothing.
  const { importPortableExport } = await import('../../agents-as-code/portable/index.js');
  const report = await importPortableExport(zip, dir);
  ctx.out.answer(report, () => printReport(ctx, report));
}

function printReport(ctx: Context, report: PortableReport): void {
  ctx.out.success(`read ${report.agents.length} agent(s) from a ${report.format} export into ${report.dir}`);
  for (const agent of report.agents) {
    ctx.out.line(`${agent.file}\t${agent.name}`);
    for (const warning of agent.warnings) ctx.out.warn(warning);
    if (agent.not_restored.length === 0) continue;
    ctx.out.line(`  not restored by the API (verified copies under ${join(report.dir, agent.kept)}):`);
    for (const item of agent.not_restored) {
      ctx.out.line(`  - ${item.what}: ${item.detail}${item.path ? ` [${item.path}]` : ''}`);
      ctx.out.line(`      how: ${item.how}`);
    }
  }
  ctx.out.info(report.gobii_import);
  for (const skipped of report.skipped) ctx.out.warn(`not exported, skipped: ${skipped.name} (${skipped.id}): ${skipped.error}`);
}
