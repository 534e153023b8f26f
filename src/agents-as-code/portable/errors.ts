// Why a portable export was refused: one code per rule, the same codes as the service's importer
// (api/services/portable_agent_import_archive.py, PortableAgentImportArchiveError.code), so a user
// who saw the hosted service refuse an archive recognises the reason.
import { UsageError } from '../../errors.js';

export type PortableRefusal =
  | 'bad_zip'
  | 'archive_too_large'
  | 'too_many_entries'
  | 'compression_ratio'
  | 'entry_size_mismatch'
  | 'unsupported_compression'
  | 'unsafe_path'
  | 'duplicate_path'
  | 'symlink'
  | 'encrypted_archive'
  | 'missing_file'
  | 'metadata_too_large'
  | 'invalid_json'
  | 'invalid_checksums'
  | 'checksum_mismatch'
  | 'invalid_format'
  | 'unsupported_version'
  | 'invalid_manifest'
  | 'too_many_agents'
  | 'no_importable_agents';

/** A refused archive: nothing was written. An invalid file the user pointed us at, so exit 2. */
export class PortableExportError extends UsageError {
  constructor(
    readonly code: PortableRefusal,
    message: string,
  ) {
    super(`the portable export is refused (${code}): ${message}`);
    this.name = 'PortableExportError';
  }
}

/** A name from the archive, quoted for a message: escaped (no control character survives) and cut short. */
export function quoted(name: string): string {
  const text = JSON.stringify(name.length > 120 ? `${name.slice(0, 120)}…` : name);
  return text;
}
