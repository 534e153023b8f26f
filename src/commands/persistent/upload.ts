import { basename } from 'node:path';
import { readStdinBytes } from '../../cli/input.js';
import { defineCommand } from '../../cli/define.js';
import { checkUuid } from '../../contract/validate.js';
import { MAX_AGENT_FILE_BYTES, checkFileSize, megabytes, uploadAgentFile, uploadArguments, type UploadDraft } from '../../core/agent-files.js';
import { UsageError } from '../../errors.js';
import { AGENT_ID_ARG, ID } from './options.js';
import { inFlagWords } from './tool-flags.js';
import { uploadRows } from './tool-views.js';

const WORDS = { file: 'FILE', path: '--path', mime_type: '--mime-type' };

/** The local file's bytes (or stdin's), its size checked before it is read. */
async function readLocal(file: string, stdin: NodeJS.ReadableStream): Promise<Uint8Array> {
  const { readFile, stat } = await import('node:fs/promises');
  try {
    if (file === '-') {
      const bytes = await readStdinBytes(stdin, MAX_AGENT_FILE_BYTES);
      inFlagWords({ file: 'stdin' }, () => checkFileSize(bytes.byteLength));
      return bytes;
    }
    const info = await stat(file);
    if (info.isDirectory()) throw new UsageError(`${file} is a folder: name a file`);
    inFlagWords({ file }, () => checkFileSize(info.size));
    return await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === undefined) throw error;
    throw new UsageError(`cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : code}`);
  }
}

export const command = defineCommand({
  name: 'upload',
  summary: "store a local file in the agent's filespace",
  args: [AGENT_ID_ARG, { name: '<file>', description: 'the local file (- for stdin, with --path)' }],
  options: [
    { flags: '--path <path>', description: 'where in the filespace (default /uploads/ and the file\'s name)' },
    { flags: '--mime-type <type>', description: 'its type (default: from the extension, else application/octet-stream)' },
    { flags: '--overwrite', description: 'replace a file already at that path (without, the service stores it under a new name beside it)' },
  ],
  notes:
    `Files of at most ${MAX_AGENT_FILE_BYTES} bytes (${megabytes(MAX_AGENT_FILE_BYTES)}, the service's default limit): a larger one is refused before it is read. ` +
    "Sent once, never repeated after a failure: list the files to see whether it arrived. Through the service's MCP endpoint (gobii-platform 2.20.0 or later).",
  examples: [`agentctl persistent upload ${ID} charter.md`, `agentctl persistent upload ${ID} prompt.txt --path /uploads/brief.txt --overwrite --json | jq -r .resource_uri`],
  parse(input) {
    const file = input.arg(1) ?? '';
    const draft: UploadDraft = { path: input.string('path'), name: file === '-' ? undefined : basename(file), mime_type: input.string('mimeType'), overwrite: input.flag('overwrite') };
    if (file === '-' && draft.path === undefined) throw new UsageError('--path is needed when the file comes from stdin', `e.g. agentctl persistent upload ${ID} - --path /uploads/notes.txt`);
    const agentId = checkUuid(input.arg(0) ?? '', 'agent id');
    // Path and type are checked before anything is read.
    inFlagWords(WORDS, () => uploadArguments(agentId, new Uint8Array(), draft));
    return { agentId, file, draft };
  },
  async run({ agentId, file, draft }, ctx) {
    const bytes = await readLocal(file, ctx.io.stdin);
    const args = uploadArguments(agentId, bytes, draft);
    const uploaded = await uploadAgentFile(await ctx.client(), agentId, bytes, draft);
    if (!ctx.out.machine) ctx.out.success(`Uploaded ${bytes.byteLength} bytes to ${uploaded.path}.`);
    if (uploaded.path !== args.path) ctx.out.warn(`a file was at ${String(args.path)} already: the service stored this one as ${uploaded.path} (--overwrite replaces it)`);
    ctx.out.record(uploaded, uploadRows(uploaded));
  },
});
