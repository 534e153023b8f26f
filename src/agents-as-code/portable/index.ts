// Reads a Gobii portable export (the ZIP the hosted service handed its customers) into
// agents-as-code files, with a report of what the v1 API cannot restore.
import { readPortableExport } from './archive.js';
import { writePortableExport, type PortableReport } from './write.js';
import { DEFAULT_ZIP_LIMITS, type ZipLimits } from './zip.js';

export { FORMAT_V1, FORMAT_V2 } from './archive.js';
export { PortableExportError, type PortableRefusal } from './errors.js';
export type { NotRestored } from './agent.js';
export type { PortableReport, WrittenAgent } from './write.js';
export { DEFAULT_ZIP_LIMITS, type ZipLimits } from './zip.js';

/** Verifies the whole archive, then writes it into `dir`. Throws PortableExportError (nothing written). */
export async function importPortableExport(zipPath: string, dir: string, limits: ZipLimits = DEFAULT_ZIP_LIMITS): Promise<PortableReport> {
  const bundle = await readPortableExport(zipPath, limits);
  try {
    return await writePortableExport(bundle, dir);
  } finally {
    bundle.archive.close();
  }
}
