import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/emulator/clock.js';
import type { PersistentAgentRecord } from '../../src/emulator/persistent-state.js';
import { MAX_FILE_BYTES, writeBytes } from '../../src/emulator/remote-mcp/filespace.js';
import { State } from '../../src/emulator/state.js';

// An agent's filespace as the service's write_bytes_to_dir keeps it
// (api/agent/files/filespace_service.py: _normalize_write_path, dedupe_name, MAX_FILE_SIZE).

const state = new State(new ManualClock(), 1);
const agent = () => ({ id: state.newId(), events: [] }) as unknown as PersistentAgentRecord;
const write = (target: PersistentAgentRecord, path: string, content = 'hi', overwrite = false) => writeBytes(state, target, Buffer.from(content), path, 'text/plain', overwrite);
const pathOf = (result: ReturnType<typeof writeBytes>) => (result.status === 'ok' ? result.node.path : result.message);

describe('write_bytes_to_dir', () => {
  it('normalizes the path: a leading / added, `..` resolved, spaces to _ and unsafe characters dropped', () => {
    const target = agent();
    expect(pathOf(write(target, 'reports/q1 plan.txt'))).toBe('/reports/q1_plan.txt');
    expect(pathOf(write(target, '/a/../b/c$!.md'))).toBe('/b/c.md');
    expect(target.files?.filter((node) => node.node_type === 'dir').map((node) => node.path)).toEqual(['/reports', '/b']);
  });

  it('refuses a path without a file name, a file in the way of a folder, and a folder in the way of a file', () => {
    const target = agent();
    expect(pathOf(write(target, '/uploads/'))).toBe('path must include a filename.');
    expect(pathOf(write(target, '  '))).toBe('path must include a filename.');
    write(target, '/x');
    expect(pathOf(write(target, '/x/y.txt'))).toBe('Failed to access the x directory.');
    write(target, '/p/q');
    expect(pathOf(write(target, '/p/q/r.txt'))).toBe('Path conflicts with an existing file.');
    write(target, '/d/e.txt');
    expect(pathOf(write(target, '/d'))).toBe('Path points to a directory, not a file.');
  });

  it('keeps a taken name beside the old file unless overwrite is asked (dedupe_name)', () => {
    const target = agent();
    write(target, '/n.txt');
    expect(pathOf(write(target, '/n.txt'))).toBe('/n (2).txt');
    expect(pathOf(write(target, '/n.txt'))).toBe('/n (3).txt');
    const replaced = write(target, '/n.txt', 'new', true);
    expect(replaced.status === 'ok' && [replaced.node.path, replaced.node.size_bytes]).toEqual(['/n.txt', 3]);
  });

  it('refuses more than MAX_FILE_SIZE (10 MB) with the service words', () => {
    const result = writeBytes(state, agent(), Buffer.alloc(MAX_FILE_BYTES + 1), '/big.bin', 'application/octet-stream', false);
    expect(result).toEqual({ status: 'error', message: 'File exceeds maximum allowed size (10485761 bytes > 10485760 bytes).' });
  });
});
