// Reads a ZIP the way the service's importer does (Python's zipfile: the central directory decides),
// with every bound checked on the directory's declared numbers BEFORE anything is inflated, and the
// actual bytes held to those numbers while inflating (yauzl stops a stream that outgrows its
// declared size, so a lying header costs at most that size). yauzl reads from the file descriptor,
// one entry at a time: a large export is never held in memory whole. It does not check CRC-32, so
// this file does (zlib.crc32, as Python's zipfile does on every read).
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import yauzl from 'yauzl';
import { PortableExportError, quoted } from './errors.js';

export interface ZipLimits {
  /** The ZIP file's own size (the service: PORTABLE_AGENT_IMPORT_MAX_ARCHIVE_BYTES, 5 GiB). */
  maxArchiveBytes: number;
  /** Entries in the central directory (the service: PORTABLE_AGENT_IMPORT_MAX_ENTRIES, 100,000). */
  maxEntries: number;
  /** All entries' declared uncompressed sizes together (the service: the archive limit again). */
  maxTotalBytes: number;
  /** Declared uncompressed / compressed, for an entry larger than ratioFloorBytes (agentctl's own). */
  maxRatio: number;
  ratioFloorBytes: number;
}

const GIB = 1024 ** 3;
export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxArchiveBytes: 5 * GIB,
  maxEntries: 100_000,
  maxTotalBytes: 5 * GIB,
  // DEFLATE cannot do better than ~1032:1; honest JSON, text and SQLite pages stay far below 500:1.
  maxRatio: 500,
  ratioFloorBytes: 1024 * 1024,
};

export interface ZipMember {
  /** The path as stored, checked safe (see safeArchivePath). */
  name: string;
  size: number;
  compressedSize: number;
  entry: yauzl.Entry;
}

/**
 * An archive path that stays inside: relative, `/`-separated, no empty, `.` or `..` part, no
 * backslash, NUL, drive letter or other control character. The service's _safe_archive_path, plus
 * drive letters and control characters (a name that is a file name on one system and not on another).
 */
export function safeArchivePath(raw: string): string {
  const unsafe =
    raw === '' ||
    raw.includes('\\') ||
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f\u007f]/.test(raw) ||
    raw.startsWith('/') ||
    /^[A-Za-z]:/.test(raw) ||
    raw.split('/').some((part) => part === '' || part === '.' || part === '..');
  if (unsafe) throw new PortableExportError('unsafe_path', `the archive holds an unsafe file path, ${quoted(raw)}`);
  return raw;
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

function checkEntry(entry: yauzl.Entry, limits: ZipLimits): string {
  const raw = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileName as unknown as Buffer, entry.extraFields, true);
  const name = safeArchivePath(raw.endsWith('/') ? raw.slice(0, -1) : raw);
  const mode = (entry.externalFileAttributes >>> 16) & 0xffff;
  if (mode && (mode & S_IFMT) === S_IFLNK) throw new PortableExportError('symlink', `symbolic links are not allowed (${quoted(name)})`);
  if (entry.generalPurposeBitFlag & 0x1) throw new PortableExportError('encrypted_archive', `encrypted ZIP entries are not supported (${quoted(name)})`);
  if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
    throw new PortableExportError('unsupported_compression', `${quoted(name)} uses compression method ${entry.compressionMethod} (only stored and deflated are read)`);
  }
  const { uncompressedSize: size, compressedSize } = entry;
  if (size > limits.ratioFloorBytes && size > limits.maxRatio * Math.max(compressedSize, 1)) {
    throw new PortableExportError(
      'compression_ratio',
      `${quoted(name)} declares ${size} bytes from ${compressedSize} compressed (more than ${limits.maxRatio}:1): a ZIP bomb is not inflated`,
    );
  }
  return raw.endsWith('/') ? `${name}/` : name;
}

/** An open archive whose directory has passed every bound; members are files (directories dropped). */
export class ZipArchive {
  private constructor(
    private readonly zip: yauzl.ZipFile,
    readonly members: ReadonlyMap<string, ZipMember>,
  ) {}

  static async open(path: string, limits: ZipLimits = DEFAULT_ZIP_LIMITS): Promise<ZipArchive> {
    const size = await stat(path).then(
      (stats) => stats.size,
      (error: NodeJS.ErrnoException) => {
        throw new PortableExportError('bad_zip', `${quoted(path)} cannot be read (${error.code ?? error.message})`);
      },
    );
    if (size > limits.maxArchiveBytes) throw new PortableExportError('archive_too_large', `the ZIP is ${size} bytes, over the limit of ${limits.maxArchiveBytes}`);
    let zip: yauzl.ZipFile;
    try {
      zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true, strictFileNames: true });
    } catch (error) {
      throw new PortableExportError('bad_zip', `not a ZIP file (${(error as Error).message})`);
    }
    try {
      return new ZipArchive(zip, await readDirectory(zip, limits));
    } catch (error) {
      zip.close();
      throw error;
    }
  }

  close(): void {
    this.zip.close();
  }

  /** A member's bytes, at most `limit` (a larger declared size is refused before reading). */
  async bytes(name: string, limit: number, what: PortableExportError['code'] = 'metadata_too_large'): Promise<Buffer> {
    const member = this.member(name);
    if (member.size > limit) throw new PortableExportError(what, `${quoted(name)} is ${member.size} bytes, over the limit of ${limit}`);
    const chunks: Buffer[] = [];
    await this.stream(member, (chunk) => void chunks.push(chunk));
    return Buffer.concat(chunks);
  }

  /** A member's SHA-256, hex, streamed. */
  async sha256(name: string): Promise<string> {
    const hash = createHash('sha256');
    await this.stream(this.member(name), (chunk) => void hash.update(chunk));
    return hash.digest('hex');
  }

  /** Feeds a member's bytes to `sink`, then checks its CRC-32 (a changed byte is refused). */
  async stream(member: ZipMember, sink: (chunk: Buffer) => void | Promise<void>): Promise<void> {
    let crc = 0;
    try {
      const source = await this.zip.openReadStreamPromise(member.entry);
      for await (const chunk of source as AsyncIterable<Buffer>) {
        crc = crc32(chunk, crc);
        await sink(chunk);
      }
    } catch (error) {
      if (error instanceof PortableExportError) throw error;
      throw new PortableExportError('entry_size_mismatch', `${quoted(member.name)} could not be read as declared (${(error as Error).message})`);
    }
    if (crc !== member.entry.crc32) throw new PortableExportError('checksum_mismatch', `${quoted(member.name)} fails its CRC-32 check`);
  }

  member(name: string): ZipMember {
    const member = this.members.get(name);
    if (!member) throw new PortableExportError('missing_file', `the archive is missing ${quoted(name)}`);
    return member;
  }
}

/** Walks the central directory once: count, names, duplicates (any case), kinds and sizes. */
async function readDirectory(zip: yauzl.ZipFile, limits: ZipLimits): Promise<Map<string, ZipMember>> {
  if (zip.entryCount > limits.maxEntries) {
    throw new PortableExportError('too_many_entries', `the archive holds ${zip.entryCount} entries, over the limit of ${limits.maxEntries}`);
  }
  const members = new Map<string, ZipMember>();
  const seen = new Set<string>();
  let total = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      const name = checkEntry(entry, limits);
      const folded = name.replace(/\/$/, '').toLowerCase();
      if (seen.has(folded)) throw new PortableExportError('duplicate_path', `the archive holds ${quoted(name)} twice (names are compared in any case)`);
      seen.add(folded);
      if (name.endsWith('/')) continue;
      total += entry.uncompressedSize;
      if (total > limits.maxTotalBytes) throw new PortableExportError('archive_too_large', `the archive expands beyond ${limits.maxTotalBytes} bytes`);
      members.set(name, { name, size: entry.uncompressedSize, compressedSize: entry.compressedSize, entry });
    }
  } catch (error) {
    if (error instanceof PortableExportError) throw error;
    throw new PortableExportError('bad_zip', `the ZIP's directory is damaged (${(error as Error).message})`);
  }
  return members;
}
