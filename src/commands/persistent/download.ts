import type { Context } from '../../cli/context.js';
import { defineCommand } from '../../cli/define.js';
import { SERVICE_EXITS } from '../../cli/exit-codes.js';
import { writeFileAtomically } from '../../contract/atomic-write.js';
import { checkUuid } from '../../contract/validate.js';
import { MAX_AGENT_FILE_BYTES, fileRef, megabytes, readAgentFile, type AgentFile } from '../../core/agent-files.js';
import { UsageError } from '../../errors.js';
import { sanitizeText } from '../../output/sanitize.js';
import { AGENT_ID_ARG, ID } from './options.js';
import { inFlagWords } from './tool-flags.js';

/** The file's description, as --json prints it and the MCP tool answers it: never its bytes. */
const described = (file: AgentFile, output: string | undefined) => ({
  uri: file.uri,
  name: file.name,
  mime_type: file.mime_type,
  size_bytes: file.size_bytes,
  checksum_sha256: file.checksum_sha256,
  ...(output === undefined ? {} : { written_to: output }),
});

/**
 * Writes the bytes to the path the user named, whole or not at all (a kill or a full disk midway
 * leaves no partial file there): never over a file there unless --clobber said so.
 */
async function save(path: string, file: AgentFile, clobber: boolean): Promise<void> {
  try {
    await writeFileAtomically(path, file.content, { exclusive: !clobber });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new UsageError(`--output ${path} exists already`, 'add --clobber to replace it, or name another file');
    if (code === undefined) throw error;
    throw new UsageError(`--output ${path}: cannot write it: ${code === 'ENOENT' ? 'no such folder' : code}`);
  }
}

/** The bytes on stdout: as they are when piped; on a terminal only text, its control characters escaped. */
function toStdout(ctx: Context, file: AgentFile): void {
  if (!ctx.terminal.stdoutIsTTY) {
    ctx.io.stdout.write(file.content);
    return;
  }
  const text = (() => {
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(file.content);
    } catch {
      return undefined;
    }
  })();
  if (text === undefined || text.includes('\u0000')) throw new UsageError(`the file is not text (${file.mime_type}, ${file.size_bytes} bytes): it is not shown on a terminal`, 'name where it goes with --output FILE, or pipe it');
  ctx.io.stdout.write(sanitizeText(text.endsWith('\n') ? text : `${text}\n`));
}

export const command = defineCommand({
  name: 'download',
  summary: "read a file of the agent's filespace, to a file you name or to stdout",
  args: [AGENT_ID_ARG, { name: '<file>', description: 'its path in the filespace (/uploads/report.pdf), its id, or its gobii:// URI' }],
  options: [
    { flags: '-o, --output <path>', description: 'write it here (- for stdout, the default); the name the service gives it is never used as a path' },
    { flags: '--clobber', description: 'replace the --output file if it exists' },
  ],
  exitCodes: { ...SERVICE_EXITS, 2: 'usage error, the --output file exists (without --clobber), or a file over the limit', 4: 'no such agent or file' },
  notes:
    `Files of at most ${MAX_AGENT_FILE_BYTES} bytes (${megabytes(MAX_AGENT_FILE_BYTES)}); the bytes are checked against the size and SHA-256 the service declares before any is written. ` +
    'On a terminal only text is shown, escaped; with --json, the file is described (its bytes go to --output). ' +
    "Through the service's MCP endpoint (gobii-platform 2.31.0 or later).",
  examples: [
    `agentctl persistent upload ${ID} prompt.txt && agentctl persistent download ${ID} /uploads/prompt.txt --output copy.txt`,
    `agentctl persistent download ${ID} /uploads/report.pdf --output report.pdf   # exit 4 when there is no such file`,
  ],
  parse(input) {
    const agentId = checkUuid(input.arg(0) ?? '', 'agent id');
    const file = input.arg(1) ?? '';
    inFlagWords({ file: 'FILE' }, () => fileRef(agentId, file));
    const given = input.string('output');
    const output = given === '-' ? undefined : given;
    if (output === undefined && (input.globals.json || input.globals.jq !== undefined)) throw new UsageError('--json describes the file: name where its bytes go with --output FILE');
    return { agentId, file, output, clobber: input.flag('clobber') };
  },
  async run({ agentId, file, output, clobber }, ctx) {
    const read = await inFlagWords({ file: 'FILE' }, async () => readAgentFile(await ctx.client(), agentId, file, { signal: ctx.signal }));
    if (output === undefined) return toStdout(ctx, read);
    await save(output, read, clobber);
    if (ctx.out.machine) return ctx.out.json(described(read, output));
    ctx.out.success(`Wrote ${read.size_bytes} bytes (${read.mime_type}) to ${output}.`);
  },
});
