// An agent's files (its default filespace, through the service's MCP tools): what every face checks
// before an upload, how a file the user names becomes the resource read, and what a read must prove
// before its bytes go anywhere. Nothing the service says about a file (its name, its path, its URI)
// ever becomes a local path: the bytes go where the user said, or to stdout.
import { createHash } from 'node:crypto';
import type { AgentFileContent } from '../api/agent-tool-records.js';
import { agentTools, type UploadedFile } from '../api/agent-tools.js';
import type { ApiClient } from '../api/client.js';
import { MissingFileError, ResponseShapeError } from '../api/errors.js';
import type { ToolOptions } from '../api/service-mcp.js';
import { SERVICE_LIMITS } from '../contract/limits.js';
import { isUuid } from '../contract/validate.js';
import { InputError } from '../errors.js';

/** The largest file the service stores or serves through its MCP endpoint (its default MAX_FILE_SIZE). */
export const MAX_AGENT_FILE_BYTES = SERVICE_LIMITS.agentFileBytes;

/** The service's own test of a MIME type (remote_mcp_resources._MIME_TYPE_RE). */
const MIME_TYPE = /^[a-zA-Z0-9][a-zA-Z0-9!#$&^_.+-]*\/[a-zA-Z0-9][a-zA-Z0-9!#$&^_.+-]*$/;

/** Common types by extension: the service stores what it is told (application/octet-stream when not). */
const MIME_BY_EXTENSION: Record<string, string> = {
  txt: 'text/plain', md: 'text/markdown', csv: 'text/csv', html: 'text/html', htm: 'text/html', json: 'application/json',
  xml: 'application/xml', pdf: 'application/pdf', png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif',
  webp: 'image/webp', svg: 'image/svg+xml', zip: 'application/zip',
};

export const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MiB`;

/** A file of this many bytes may be sent: checked before it is read, so a large one costs nothing. */
export function checkFileSize(bytes: number, field = 'file'): void {
  if (bytes > MAX_AGENT_FILE_BYTES) {
    throw new InputError(field, `is ${bytes} bytes (${megabytes(bytes)}); the service takes files of at most ${MAX_AGENT_FILE_BYTES} bytes (${megabytes(MAX_AGENT_FILE_BYTES)})`);
  }
}

/** What an upload names besides the bytes. */
export interface UploadDraft {
  /** Where in the filespace, e.g. /uploads/report.pdf (default: /uploads/ and `name`). */
  path?: string;
  /** The local file's own name, for the default path. */
  name?: string;
  mime_type?: string;
  /** Replace a file already at that path (without, the service stores it under a new name beside it). */
  overwrite?: boolean;
}

/** A filespace path: absolute, one line, no `.` or `..` segment (the service normalises and refuses more). */
function filespacePath(path: string): string {
  // eslint-disable-next-line no-control-regex
  if (!path.startsWith('/') || /[\u0000-\u001f\u007f]/.test(path) || path.split('/').some((part) => part === '.' || part === '..')) {
    throw new InputError('path', `"${path}" is not a filespace path: start with / and name the file, e.g. /uploads/report.pdf`);
  }
  if (path.endsWith('/')) throw new InputError('path', `"${path}" names a folder: end it with the file's name`);
  return path;
}

/** The arguments of gobii_upload_agent_file, checked: size first, then path and type. */
export function uploadArguments(agentId: string, bytes: Uint8Array, draft: UploadDraft): Record<string, unknown> {
  checkFileSize(bytes.byteLength);
  if (draft.path === undefined && (draft.name === undefined || draft.name === '')) throw new InputError('path', 'is needed: where in the filespace, e.g. /uploads/report.pdf');
  const path = filespacePath(draft.path ?? `/uploads/${draft.name}`);
  const mime = draft.mime_type ?? MIME_BY_EXTENSION[/\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase() ?? ''] ?? 'application/octet-stream';
  if (!MIME_TYPE.test(mime)) throw new InputError('mime_type', `"${mime}" is not a MIME type such as text/plain`);
  return { agent_id: agentId, path, content_base64: Buffer.from(bytes).toString('base64'), mime_type: mime, overwrite: draft.overwrite === true };
}

/** A resource of an agent: a file of its filespace or an attachment of a message. */
const RESOURCE_URI = /^gobii:\/\/agents\/([0-9a-fA-F-]{36})\/(files|attachments)\/([0-9a-fA-F-]{36})$/;

export const fileUri = (agentId: string, nodeId: string) => `gobii://agents/${agentId.toLowerCase()}/files/${nodeId.toLowerCase()}`;

/** How the user named a file: its resource (built here, never taken from the service) or its path, to look up. */
export type FileRef = { uri: string } | { path: string };

/** A file named by its filespace path (/uploads/a.pdf), its id (a UUID) or its gobii:// URI. */
export function fileRef(agentId: string, file: string): FileRef {
  const uri = RESOURCE_URI.exec(file);
  if (uri) {
    const [, agent, kind, id] = uri as unknown as [string, string, string, string];
    if (!isUuid(agent) || !isUuid(id)) throw new InputError('file', `"${file}" is not a gobii:// resource URI`);
    if (agent.toLowerCase() !== agentId.toLowerCase()) throw new InputError('file', `${file} is a resource of agent ${agent.toLowerCase()}, not of ${agentId}`);
    return { uri: `gobii://agents/${agent.toLowerCase()}/${kind}/${id.toLowerCase()}` };
  }
  if (isUuid(file)) return { uri: fileUri(agentId, file) };
  if (file.startsWith('/')) return { path: file };
  throw new InputError('file', `"${file}" is not a filespace path (/uploads/report.pdf), a file id (UUID) or a gobii:// URI`);
}

/** A file's node as the service lists it (only what a lookup needs). */
export interface FileNode {
  id: string;
  path: string;
  node_type: string;
  size_bytes?: number | null;
}

/** The resource of the file at `path`, from the agent's listing; its id must be one (it becomes part of a URI). */
export function nodeAtPath(agentId: string, nodes: readonly FileNode[], path: string): { uri: string; size?: number } {
  const node = nodes.find((item) => item.path === path && item.node_type === 'file');
  if (!node) throw new MissingFileError(`agent ${agentId} has no file at ${path}`, 'list its files with the files command');
  if (!isUuid(node.id)) throw new ResponseShapeError(`the service lists the file ${path} with an id that is not a UUID`);
  return { uri: fileUri(agentId, node.id), size: typeof node.size_bytes === 'number' ? node.size_bytes : undefined };
}

/** What a read answered, the bytes proven to be the file's: its size and checksum as the service declared them. */
export type AgentFile = AgentFileContent;

/** Refuses a file the listing declares over the limit, before it is read. */
export function checkDeclaredSize(size: number | undefined, what: string): void {
  if (size !== undefined && size > MAX_AGENT_FILE_BYTES) {
    throw new InputError('file', `${what} is ${size} bytes (${megabytes(size)}); files are read up to ${MAX_AGENT_FILE_BYTES} bytes (${megabytes(MAX_AGENT_FILE_BYTES)})`);
  }
}

/** The bytes of a read, checked against the size and checksum the service declared with them. */
export function provenFile(meta: Omit<AgentFile, 'content'>, content: Uint8Array): AgentFile {
  if (content.byteLength > MAX_AGENT_FILE_BYTES) throw new ResponseShapeError(`the service sent ${content.byteLength} bytes for ${meta.uri}, over the ${MAX_AGENT_FILE_BYTES}-byte limit`);
  if (content.byteLength !== meta.size_bytes) throw new ResponseShapeError(`the service sent ${content.byteLength} bytes for ${meta.uri} but declared ${meta.size_bytes}`);
  const checksum = createHash('sha256').update(content).digest('hex');
  if (checksum !== meta.checksum_sha256.toLowerCase()) throw new ResponseShapeError(`the bytes the service sent for ${meta.uri} do not match the checksum it declared (their sha256 is ${checksum})`);
  return { ...meta, content };
}

/**
 * Reads the file the user named (a path, an id or a URI) of this agent: the resource read is built
 * here from checked ids, a file the listing declares over the limit is refused before it is read,
 * and the bytes are proven against the size and checksum the service declared.
 */
export async function readAgentFile(api: ApiClient, agentId: string, file: string, options: ToolOptions = {}): Promise<AgentFile> {
  const ref = fileRef(agentId, file);
  let uri: string;
  if ('path' in ref) {
    const found = nodeAtPath(agentId, (await agentTools.files(api, agentId, options)).nodes, ref.path);
    checkDeclaredSize(found.size, ref.path);
    uri = found.uri;
  } else uri = ref.uri;
  const read = await agentTools.read(api, uri, options);
  checkDeclaredSize(read.resource.size_bytes, file);
  const { name, mime_type, size_bytes, checksum_sha256 } = read.resource;
  return provenFile({ uri, name, mime_type, size_bytes, checksum_sha256 }, read.content);
}

/** Uploads bytes to the agent's filespace, checked first (size, path, type). Sent once. */
export function uploadAgentFile(api: ApiClient, agentId: string, bytes: Uint8Array, draft: UploadDraft, options: ToolOptions = {}): Promise<UploadedFile> {
  return agentTools.upload(api, uploadArguments(agentId, bytes, draft), options);
}
