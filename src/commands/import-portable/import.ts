import { importPortableExport, type PortableReport } from '../../agents-as-code/portable/index.js';
import { defineCommand } from '../../cli/define.js';
import { join } from 'node:path';
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../errors.js';

export const command = defineCommand({
  name: 'import-portable',
  summary: 'read a Gobii portable export ZIP into agent files, and report what the API cannot restore',
  args: [{ name: '<zip>', description: 'the export ZIP (gobii.agent-portable-export v1 or v2)' }],
  options: [{ flags: '--dir <dir>', description: 'folder to write the agent files into (created; existing files are never overwritten)', required: true }],
  notes:
    'Every check of the service\'s own importer runs before anything is written: the manifest\'s format\n' +
    '(v1 or v2), every SHA-256 of checksums.sha256 and every CRC-32, paths that climb out (.., absolute,\n' +
    'backslashes, drive letters, NUL), symbolic links, encrypted entries, and size bounds read from the\n' +
    'ZIP\'s directory before inflating (entries, total size, compression ratio). A refused ZIP exits 2\n' +
    'with the reason and writes nothing.\n\n' +
    'Each exported agent becomes DIR/<name>.md (name, charter, tier, contact policy; the schedule left\n' +
    'out and proactive work off, as the service\'s importer does), and its verified files are kept under\n' +
    'DIR/portable/<name>/. The report lists what the v1 API cannot restore (memory, history, files,\n' +
    'skills, tools, connections, ...), where its copy is, and how to restore it. Nothing is sent.',
  exitCodes: { 0: 'the agent files were written', 2: 'the ZIP is refused, or a target already exists (nothing written)' },
  examples: ['agentctl import-portable export.zip --dir agents', 'agentctl import-portable export.zip --dir imported --json | jq ".agents[].not_restored[].what"'],
  parse: (input) => {
    const zip = input.arg(0) ?? '';
    if (zip === '') throw new UsageError('name the export ZIP', 'agentctl import-portable export.zip --dir agents');
    return { zip, dir: input.string('dir') ?? '' };
  },
  async run({ zip, dir }, ctx) {
    const report = await importPortableExport(zip, dir);
    ctx.out.answer(report, () => printReport(ctx, report));
  },
});

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
