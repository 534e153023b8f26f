// The bounds of the portable-export reader, with limits small enough to reach cheaply (the defaults
// are the service's: 100,000 entries, 5 GiB). Each is checked from the ZIP's directory alone.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ZIP_LIMITS, PortableExportError, importPortableExport, type ZipLimits } from '../../src/agents-as-code/portable/index.js';
import { tempDir } from '../helpers/temp.js';
import { FORMAT_V2, exportFiles, saveZip, withChecksums, zipBytes } from '../helpers/portable-zip.js';

const AGENT = { id: '7c9e6679-7425-40de-944b-e07fc1f90ae7', name: 'Price watcher' };

async function refusal(limits: Partial<ZipLimits>): Promise<string> {
  const folder = tempDir('agentctl-portable-bounds-');
  const zip = saveZip(folder, 'export.zip', zipBytes(withChecksums(exportFiles(FORMAT_V2, [AGENT]))));
  const error = await importPortableExport(zip, join(folder, 'out'), { ...DEFAULT_ZIP_LIMITS, ...limits }).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(PortableExportError);
  expect(existsSync(join(folder, 'out'))).toBe(false);
  return `${(error as PortableExportError).code}: ${(error as Error).message}`;
}

describe('the portable reader refuses an archive over its bounds, writing nothing', () => {
  it('too many entries in the directory', async () => {
    expect(await refusal({ maxEntries: 10 })).toMatch(/^too_many_entries: .*holds \d+ entries, over the limit of 10/);
  });

  it('a ZIP file larger than the limit', async () => {
    expect(await refusal({ maxArchiveBytes: 1000 })).toMatch(/^archive_too_large: .*the ZIP is \d+ bytes, over the limit of 1000/);
  });

  it('entries that together expand past the limit', async () => {
    expect(await refusal({ maxTotalBytes: 2000 })).toMatch(/^archive_too_large: .*expands beyond 2000 bytes/);
  });

  it('an entry whose declared ratio is above the bound (the floor lowered to reach it)', async () => {
    expect(await refusal({ maxRatio: 1.5, ratioFloorBytes: 100 })).toMatch(/^compression_ratio: /);
  });
});
