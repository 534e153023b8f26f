// A secrets file a caller names, read from the folder the person running agentctl allowed and from
// nowhere else. Who lays out that folder's contents is not known (a model told by a web page to
// write there, another program): a hard link to a file outside it, a name swapped between a file
// and a link while it is checked and read, a FIFO that holds a thread of the pool for ever. So the
// name must be a file directly in the folder (a subfolder's path could be swapped for a link while
// the file is opened), it is opened once, without following a link or waiting on a FIFO, and the
// open file itself is checked (a regular file whose one name is the one in the folder, at most
// 256 KiB) and read from that handle.
import { constants } from 'node:fs';
import { lstat, open, realpath, type FileHandle } from 'node:fs/promises';
import { isAbsolute, join, normalize, relative, sep } from 'node:path';
import type { Secrets } from '../api/schemas/task.js';
import { fileKind } from '../contract/file-kind.js';
import { describeJsonError } from '../contract/json-error.js';
import { checkSecrets } from '../contract/validate.js';
import { InputError } from '../errors.js';
import { inField } from './fields.js';

/** The largest secrets file read (the service's limit on all secrets is 100 KB). */
const MAX_SECRETS_FILE_BYTES = 256 * 1024;
/** Read-only, never through a link, never waiting for a FIFO's writer. Windows has neither flag (0): the checks of the open file stand alone there. */
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

const refuse = (problem: string) => new InputError('secrets_file', problem);

/** The secrets of `file` (a name in `folder`, or its path), read under the rules above; errors never quote the file. */
export async function readSecretsFile(file: string, folder: string | undefined): Promise<Secrets> {
  const text = await readOnce(await pathInFolder(file, folder), file);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // Where the fault is, never the text: a wrong file may hold another secret.
    throw refuse(`the file is not valid JSON: ${describeJsonError(text, error)}`);
  }
  return inField('secrets_file', () => checkSecrets(value, 'the file'));
}

/** The path of the file named, directly in the folder's real path; nothing outside it is looked at. */
async function pathInFolder(file: string, folder: string | undefined): Promise<string> {
  if (folder === undefined) throw refuse('secrets files are not allowed here: the person who starts agentctl can allow a folder of them');
  const real = await realpath(folder).catch(() => {
    throw refuse('the folder allowed for secrets files cannot be read');
  });
  // `..` is resolved in the name, never by the system, so no link in the name is followed.
  const rests = isAbsolute(file) ? [relative(folder, file), relative(real, file)] : [normalize(file)];
  const outside = (rest: string) => rest === '..' || rest.startsWith(`..${sep}`) || isAbsolute(rest);
  const name = rests.find((rest) => !outside(rest) && !rest.includes(sep) && !rest.includes('/'));
  if (name !== undefined) return join(real, name);
  if (!rests.every(outside)) {
    throw refuse(`${file} is in a subfolder: secrets files are read from the allowed folder itself only, not from its subfolders`);
  }
  // Outside the folder, whether the file exists is not said either.
  throw refuse(`${file} is not in the folder allowed for secrets files; name a file in it (relative names are read from it)`);
}

async function readOnce(path: string, file: string): Promise<string> {
  let handle: FileHandle;
  try {
    handle = await open(path, OPEN_FLAGS);
  } catch (error) {
    throw openError(error as NodeJS.ErrnoException, file);
  }
  try {
    await checkOpened(handle, path, file);
    return await readAtMost(handle, MAX_SECRETS_FILE_BYTES);
  } finally {
    await handle.close();
  }
}

function openError(error: NodeJS.ErrnoException, file: string): InputError {
  if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return refuse(`there is no file ${file} in the folder allowed for secrets files`);
  // ELOOP: a link opened with O_NOFOLLOW (EMLINK on FreeBSD).
  if (error.code === 'ELOOP' || error.code === 'EMLINK') return refuse(`${file} is a symbolic link: a secrets file must lie in the allowed folder itself, not be a link`);
  if (error.code === 'EISDIR') return refuse(`${file} is a folder, not a regular file`);
  return refuse(`the file cannot be read (${error.code ?? 'unreadable'})`);
}

/** The open file is a regular file of one name, still the one at `path`, and small enough. */
async function checkOpened(handle: FileHandle, path: string, file: string): Promise<void> {
  const opened = await handle.stat({ bigint: true });
  if (!opened.isFile()) throw refuse(`${file} is ${fileKind(opened)}, not a regular file`);
  if (opened.nlink !== 1n) {
    throw refuse(`${file} has ${opened.nlink} names (hard links): a secrets file has one, so that no file outside the allowed folder is read through it`);
  }
  // Where a link cannot be refused as it is opened (Windows), the name is looked at after: it must
  // be the file opened, and its only name (a hard link made meanwhile would not be).
  const named = await lstat(path, { bigint: true }).catch(() => undefined);
  if (named?.isFile() !== true || named.ino !== opened.ino || named.dev !== opened.dev || named.nlink !== 1n) {
    throw refuse(`${file} was replaced while it was opened; secrets files must not change while agentctl reads them`);
  }
  if (opened.size > MAX_SECRETS_FILE_BYTES) throw refuse(`the file is ${opened.size} bytes; a secrets file is at most ${MAX_SECRETS_FILE_BYTES / 1024} KiB`);
}

/** The file's text, from the handle; refused when it grew past `max` bytes after it was checked. */
async function readAtMost(handle: FileHandle, max: number): Promise<string> {
  const buffer = Buffer.alloc(max + 1);
  let length = 0;
  for (;;) {
    const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
    length += bytesRead;
    if (bytesRead === 0 || length === buffer.length) break;
  }
  if (length > max) throw refuse(`the file is more than ${max / 1024} KiB; a secrets file is at most that`);
  return buffer.toString('utf8', 0, length);
}
