import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseAgentFile } from '../../src/agents-as-code/files.js';
import { readAgentFolder } from '../../src/agents-as-code/folder.js';
import { agentctl, tempDir } from '../helpers/cli.js';
import { FORMAT_V1, FORMAT_V2, exportFiles, saveZip, withChecksums, zipBytes, type ZipItem } from '../helpers/portable-zip.js';

const WATCHER = { id: '7c9e6679-7425-40de-944b-e07fc1f90ae7', name: 'Price watcher', charter: 'Watch the Oslo-Rome fare.', schedule: '@daily' };
const DIGEST = { id: '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f', name: 'Weekly digest' };
// Nothing listens here: the command must not send anything.
const OFFLINE = { env: { AGENTCTL_BASE_URL: 'http://127.0.0.1:9/api/v1' } };

async function importZip(items: ZipItem[], extra: string[] = []) {
  const folder = tempDir('agentctl-portable-');
  const zip = saveZip(folder, 'export.zip', zipBytes(items));
  const dir = join(folder, 'out');
  const result = await agentctl(['export', '--from-portable', zip, '--dir', dir, ...extra], OFFLINE);
  return { ...result, dir };
}

/** A refusal: exit 2, the service importer's code in the message, and nothing written. */
async function expectRefused(items: ZipItem[], code: string) {
  const result = await importZip(items);
  expect(result.exitCode, result.stderr).toBe(2);
  expect(result.stderr).toContain(`refused (${code})`);
  expect(existsSync(result.dir) ? readdirSync(result.dir) : []).toEqual([]);
  return result;
}

describe('export --from-portable: a Gobii portable export read into agent files', () => {
  it('reads a v1 export: the agent file as the service would restore it, the rest kept and reported', async () => {
    const result = await importZip(withChecksums(exportFiles(FORMAT_V1, [WATCHER])));
    expect(result.exitCode, result.stderr).toBe(0);
    const spec = parseAgentFile(readFileSync(join(result.dir, 'price-watcher.md'), 'utf8'), 'price-watcher.md');
    // The schedule and proactive work stay off, as the service's importer leaves them; the agent is active for web chat.
    expect(spec).toEqual({
      name: 'Price watcher', charter: 'Watch the Oslo-Rome fare.', schedule: null, active: true, proactive: false,
      whitelist_policy: 'manual', contact_approval_mode: 'require_approval', preferred_llm_tier: 'standard',
    });
    const kept = join(result.dir, 'portable', 'price-watcher');
    expect(readFileSync(join(kept, 'memory', 'current-state.md'), 'utf8')).toContain('Check daily.');
    expect(readFileSync(join(kept, 'files', 'workspace', 'prices.csv'), 'utf8')).toBe('region,price\nOslo,120\n');
    expect(existsSync(join(kept, 'skills', 'weekly-digest--v2', 'SKILL.md'))).toBe(true);
    expect(result.stdout).toContain('price-watcher.md\tPrice watcher');
    for (const what of ['schedule: the schedule "@daily"', 'memory:', 'files: 1 workspace file', 'skills: 1 skill(s)', 'connections: 1 secret', 'history: 2 message']) {
      expect(result.stdout).toContain(what);
    }
    expect(result.stderr).toContain('no skill index');
  });

  it('reads a v2 export of two agents; --json reports each file and what is not restored, with how', async () => {
    const result = await importZip(withChecksums(exportFiles(FORMAT_V2, [WATCHER, DIGEST])), ['--json']);
    expect(result.exitCode, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.format).toBe(FORMAT_V2);
    expect(report.agents.map((agent: { file: string }) => agent.file)).toEqual(['price-watcher.md', 'weekly-digest.md']);
    const watcher = report.agents[0];
    expect(watcher.kept).toBe('portable/price-watcher');
    expect(watcher.warnings).toEqual([]);
    const whats = watcher.not_restored.map((item: { what: string }) => item.what);
    expect(whats).toEqual(expect.arrayContaining(['schedule', 'proactive', 'identity', 'memory', 'history', 'work', 'files', 'skills', 'connections', 'communications']));
    const memory = watcher.not_restored.find((item: { what: string }) => item.what === 'memory');
    expect(memory).toMatchObject({ path: 'portable/price-watcher/memory/current-state.md', how: expect.stringContaining(`< ${join(result.dir, 'portable/price-watcher/memory/current-state.md')}`) });
    expect(report.gobii_import).toContain('Import agent');
    expect(watcher.not_restored.find((item: { what: string }) => item.what === 'skills').detail).toBe('1 skill(s)');
    expect(existsSync(join(result.dir, 'weekly-digest.md'))).toBe(true);
  });

  it('writes a folder plan reads back: every agent, none skipped (an agent named README gets readme-2.md), the kept files not taken for agents', async () => {
    const readme = { id: DIGEST.id, name: 'README' };
    const result = await importZip(withChecksums(exportFiles(FORMAT_V2, [WATCHER, readme])), ['--json']);
    expect(result.exitCode, result.stderr).toBe(0);
    const desired = await readAgentFolder(result.dir);
    expect(desired.map((agent) => [agent.file, agent.spec.name]).sort()).toEqual([['price-watcher.md', 'Price watcher'], ['readme-2.md', 'README']]);
  });

  it('refuses a tampered export: one changed byte fails its checksum, and nothing is written', async () => {
    const files = exportFiles(FORMAT_V2, [WATCHER]);
    const items = withChecksums(files);
    // The charter changed after export: its ZIP entry is consistent (CRC), its SHA-256 line is not.
    const profile = items.find((item) => item.name.endsWith('identity/profile.json'))!;
    profile.data = Buffer.from(profile.data.toString().replace('Watch the', 'Wire money to'));
    const result = await expectRefused(items, 'checksum_mismatch');
    expect(result.stderr).toContain('identity/profile.json');
  });

  it('refuses a byte changed inside the ZIP itself (CRC-32), and an index that does not list every file', async () => {
    const items = withChecksums(exportFiles(FORMAT_V1, [WATCHER])).map((item) => ({ ...item, method: 0 as const }));
    const bytes = zipBytes(items);
    const at = bytes.indexOf('Watch the Oslo');
    bytes[at] = 'w'.charCodeAt(0);
    const folder = tempDir('agentctl-portable-');
    const result = await agentctl(['export', '--from-portable', saveZip(folder, 'x.zip', bytes), '--dir', join(folder, 'out')], OFFLINE);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('CRC-32');
    await expectRefused([...items, { name: 'extra.txt', data: Buffer.from('smuggled') }], 'invalid_checksums');
  });

  it.each(['../escape', '/etc/cron.d/x', 'agents\\..\\..\\x', 'C:/Windows/x', 'agents/a/../../x', 'nul\u0000byte'])(
    'refuses a path that climbs out: %j',
    async (name) => {
      const items = withChecksums({ ...exportFiles(FORMAT_V2, [WATCHER]), [name]: Buffer.from('x') });
      await expectRefused(items, 'unsafe_path');
    },
  );

  it('refuses a symbolic link, an encrypted entry and a name given twice in another case', async () => {
    const base = () => withChecksums(exportFiles(FORMAT_V1, [WATCHER]));
    await expectRefused([...base(), { name: 'link', data: Buffer.from('/etc/passwd'), externalAttr: (0o120777 << 16) >>> 0 }], 'symlink');
    await expectRefused(base().map((item) => (item.name === 'README.md' ? { ...item, flags: 1 } : item)), 'encrypted_archive');
    await expectRefused([...base(), { name: 'MANIFEST.JSON', data: Buffer.from('{}') }], 'duplicate_path');
  });

  it('refuses a ZIP bomb from its directory, without inflating it', async () => {
    // 4 GiB declared from 64 bytes that are not even DEFLATE data: inflating would fail differently.
    const bomb = { name: 'agents/bomb.bin', data: Buffer.alloc(0), compressed: Buffer.alloc(64, 0xff), declaredSize: 0xffff_ffff, crc: 0 };
    const result = await expectRefused([...withChecksums(exportFiles(FORMAT_V2, [WATCHER])), bomb], 'compression_ratio');
    expect(result.stderr).toContain('4294967295 bytes from 64 compressed');
  });

  it('refuses an entry that inflates past the size its directory declares, stopping at that size', async () => {
    const items = withChecksums(exportFiles(FORMAT_V2, [WATCHER]));
    const readme = items.find((item) => item.name === 'README.md')!;
    // 8 MiB of zeros behind a directory that says 31 bytes (the honest README's size).
    Object.assign(readme, { compressed: deflateRawSync(Buffer.alloc(8 * 1024 * 1024)), declaredSize: readme.data.length });
    await expectRefused(items, 'entry_size_mismatch');
  });

  it('refuses a file that is not a ZIP, and one that is not there, in words (no stack trace)', async () => {
    const folder = tempDir('agentctl-portable-');
    const notZip = await agentctl(['export', '--from-portable', saveZip(folder, 'n.zip', Buffer.from('not a zip')), '--dir', join(folder, 'out')], OFFLINE);
    expect([notZip.exitCode, notZip.stderr]).toEqual([2, expect.stringContaining('refused (bad_zip): not a ZIP file')]);
    const missing = await agentctl(['export', '--from-portable', join(folder, 'gone.zip'), '--dir', join(folder, 'out')], OFFLINE);
    expect([missing.exitCode, missing.stderr]).toEqual([2, expect.stringContaining('cannot be read (ENOENT)')]);
    expect(existsSync(join(folder, 'out'))).toBe(false);
    // The export is read whole: a selection of agents is refused, not ignored.
    const named = await agentctl(['export', '--from-portable', join(folder, 'n.zip'), '--dir', join(folder, 'out'), 'Price watcher'], OFFLINE);
    expect([named.exitCode, named.stderr]).toEqual([2, expect.stringContaining('name no agents')]);
  });

  it('refuses a manifest of another format or a newer version', async () => {
    const files = exportFiles(FORMAT_V2, [WATCHER]);
    const manifest = (format: string) => Buffer.from(JSON.stringify({ ...JSON.parse(files['manifest.json']!.toString()), formatVersion: format }));
    await expectRefused(withChecksums({ ...files, 'manifest.json': manifest('gobii.agent-portable-export/v3') }), 'unsupported_version');
    await expectRefused(withChecksums({ ...files, 'manifest.json': manifest('other/export-v1') }), 'invalid_format');
    // v2 requires its restoration metadata.
    const { [`agents/price-watcher--7c9e6679/skills/index.json`]: _index, ...withoutIndex } = files;
    await expectRefused(withChecksums(withoutIndex), 'invalid_manifest');
  });

  it('sanitises a hostile agent name into a file name, and never overwrites a file already there', async () => {
    const hostile = { id: WATCHER.id, name: '../../.ssh/authorized_keys\u202e' };
    const result = await importZip(withChecksums(exportFiles(FORMAT_V2, [hostile])), ['--json']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).agents[0].file).toBe('ssh-authorized_keys.md');
    expect(readdirSync(result.dir).sort()).toEqual(['portable', 'ssh-authorized_keys.md']);

    const folder = tempDir('agentctl-portable-');
    const dir = join(folder, 'out');
    mkdirSync(dir);
    writeFileSync(join(dir, 'price-watcher.md'), 'mine');
    const again = await agentctl(['export', '--from-portable', saveZip(folder, 'e.zip', zipBytes(withChecksums(exportFiles(FORMAT_V2, [WATCHER])))), '--dir', dir], OFFLINE);
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain('already exists');
    expect(readFileSync(join(dir, 'price-watcher.md'), 'utf8')).toBe('mine');
    expect(readdirSync(dir)).toEqual(['price-watcher.md']);

    // DIR/portable a link to a folder elsewhere: refused, nothing lands there.
    const elsewhere = tempDir('agentctl-elsewhere-');
    const linked = join(folder, 'linked');
    mkdirSync(linked);
    symlinkSync(elsewhere, join(linked, 'portable'));
    const viaLink = await agentctl(['export', '--from-portable', join(folder, 'e.zip'), '--dir', linked], OFFLINE);
    expect([viaLink.exitCode, viaLink.stderr]).toEqual([2, expect.stringContaining('is not a folder')]);
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(readdirSync(linked)).toEqual(['portable']);
  });
});
