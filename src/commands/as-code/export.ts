// `agentctl export`: the service's persistent agents written as agent files, one per agent.
import { exportFolder } from '../../agents-as-code/export.js';
import { defineCommand } from '../../cli/define.js';
import { FROM_PORTABLE_NOTES, exportFromPortable } from './portable.js';
import { DIR_OPTION } from './show.js';

export const command = defineCommand({
  name: 'export',
  summary: "write the service's persistent agents (all, or those named) as agent files in --dir",
  args: [{ name: '[agents...]', description: 'agent names or ids (default: every agent)' }],
  options: [DIR_OPTION, { flags: '--from-portable <zip>', description: 'write the agents of a Gobii portable export ZIP instead (nothing is sent)' }],
  notes: `Writes one Markdown file per agent (front matter with every setting, the charter as body) in
--dir (made if missing), and records in its agentctl.lock.json which file is which agent on this
service: \`agentctl plan\` right after shows nothing to do. A file name is made from the agent's name
(letters, digits, - and _ only; a second agent of the same name gets -2); an agent exported before
is written to its file again. preferred_contact is not written: an endpoint id belongs to one
service. Apply the folder to another service to copy the agents there. See docs/agents-as-code.md.
${FROM_PORTABLE_NOTES}`,
  examples: ['agentctl export --dir agents', "agentctl export --dir backup --json | jq -r '.[].file'", 'agentctl export --from-portable export.zip --dir imported'],
  parse: (input) => ({ dir: input.string('dir') ?? 'agents', select: input.args(0), fromPortable: input.string('fromPortable') }),
  async run({ dir, select, fromPortable }, ctx) {
    if (fromPortable !== undefined) return exportFromPortable(ctx, fromPortable, dir, select);
    const written = await exportFolder(await ctx.client(), {
      dir,
      select,
      signal: ctx.signal,
      owner: { process: ctx.io.process, clock: ctx.clock, signal: ctx.signal, say: (message) => ctx.out.info(message) },
    });
    if (ctx.out.machine) {
      ctx.out.json(written);
      return;
    }
    for (const file of written) ctx.out.line(`${file.file}\t${file.id}\t${JSON.stringify(file.name)}`);
    ctx.out.success(`Exported ${written.length} agent${written.length === 1 ? '' : 's'} to ${dir}.`);
  },
});
