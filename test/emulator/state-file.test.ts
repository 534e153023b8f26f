import { linkSync, lstatSync, readdirSync, readFileSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock, startEmulator, StateFileError, type RunningEmulator } from '../../src/emulator/index.js';
import { tempDir } from '../helpers/cli.js';

// The state file while the emulator runs (issue 33, item 8): saved on an interval whenever anything
// changed, so a kill loses at most that interval; one emulator per file (a lock beside it); no
// temporary file left beside it, even after a save cut off by a kill.

const post = async (emulator: RunningEmulator, path: string, body: unknown) =>
  (await (await fetch(`${emulator.baseUrl}${path}`, { method: 'POST', headers: { 'x-api-key': 'emulator-key', 'content-type': 'application/json' }, body: JSON.stringify(body) })).json()) as {
    id: string;
  };

/** Waits (on real I/O, no clock involved) until the file says what `done` wants. */
async function fileWhere(file: string, done: (text: string) => boolean): Promise<string> {
  for (;;) {
    const text = (() => {
      try {
        return readFileSync(file, 'utf8');
      } catch {
        return '';
      }
    })();
    if (done(text)) return text;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('emulator state file', () => {
  it('saves while running, on the interval, once something changed: a kill loses at most the interval', async () => {
    const file = join(tempDir('agentctl-state-'), 'state.json');
    const clock = new ManualClock(new Date('2026-03-02T10:00:00.000Z'));
    const emulator = await startEmulator({ port: 0, clock, stateFile: file, saveIntervalMs: 1000 });
    const task = await post(emulator, '/tasks/browser-use/', { prompt: 'saved before any stop' });
    emulator.advance(1000);
    expect(await fileWhere(file, (text) => text.includes(task.id))).toContain('saved before any stop');
    const persistent = await post(emulator, '/agents/', { name: 'saved agent' });
    emulator.advance(1000);
    await fileWhere(file, (text) => text.includes(persistent.id));
    await emulator.close();
  });

  it('refuses a file another emulator holds, and takes it once that one stopped', async () => {
    const file = join(tempDir('agentctl-state-'), 'state.json');
    const first = await startEmulator({ port: 0, stateFile: file });
    const second = startEmulator({ port: 0, stateFile: file });
    await expect(second).rejects.toThrow(StateFileError);
    await expect(second).rejects.toThrow(/is in use by another emulator of this process/);
    await first.close();
    const third = await startEmulator({ port: 0, stateFile: file });
    await third.close();
  });

  it('judges a lock by its holder: a live pid refuses, a gone one is taken over; without a pid, its heartbeat', async () => {
    const folder = tempDir('agentctl-state-');
    const file = join(folder, 'state.json');
    const lock = `${file}.lock`;
    writeFileSync(lock, JSON.stringify({ pid: 4242, pidSpace: 'boot-1', host: hostname(), token: 'theirs' }));
    const running = { pid: 1, pidSpace: 'boot-1', isRunning: (pid: number) => pid === 4242 };
    await expect(startEmulator({ port: 0, stateFile: file, process: running })).rejects.toThrow(/in use by the emulator with pid 4242/);
    const gone = await startEmulator({ port: 0, stateFile: file, process: { ...running, isRunning: () => false } });
    expect(JSON.parse(readFileSync(lock, 'utf8'))).toMatchObject({ pid: 1 });
    await gone.close();
    expect(readdirSync(folder)).toEqual(['state.json']);

    writeFileSync(lock, JSON.stringify({ host: 'elsewhere', token: 'theirs' }));
    await expect(startEmulator({ port: 0, stateFile: file })).rejects.toThrow(/in use by an emulator on elsewhere/);
    const minuteAgo = new Date(Date.now() - 60_000);
    utimesSync(lock, minuteAgo, minuteAgo);
    const after = await startEmulator({ port: 0, stateFile: file });
    await after.close();
  });

  it('leaves no temporary file beside the state file, and removes one a killed save left', async () => {
    const folder = tempDir('agentctl-state-');
    const file = join(folder, 'state.json');
    writeFileSync(join(folder, 'state.json.0123456789ab.tmp'), '{"half": ');
    writeFileSync(join(folder, 'other.json.0123456789ab.tmp'), 'not ours');
    const emulator = await startEmulator({ port: 0, stateFile: file });
    expect(readdirSync(folder).sort()).toEqual(['other.json.0123456789ab.tmp', 'state.json.lock']);
    await post(emulator, '/tasks/browser-use/', { prompt: 'x' });
    await emulator.save();
    await emulator.close();
    expect(readdirSync(folder).sort()).toEqual(['other.json.0123456789ab.tmp', 'state.json']);
  });

  it('a state file that is not the emulator\'s is refused and left as it was, and the file is free again', async () => {
    const folder = tempDir('agentctl-state-');
    const file = join(folder, 'state.json');
    writeFileSync(file, 'not json');
    await expect(startEmulator({ port: 0, stateFile: file })).rejects.toThrow(StateFileError);
    expect(readFileSync(file, 'utf8')).toBe('not json');
    expect(readdirSync(folder)).toEqual(['state.json']);
  });
});

describe('emulator state file: one file under several names (issue 48)', () => {
  it('a symbolic link meets the lock of the real file, a hard link is refused, and saves keep the link a link', async () => {
    const folder = tempDir('agentctl-state-');
    const file = join(folder, 'state.json');
    const alias = join(folder, 'alias.json');
    const hard = join(folder, 'hard.json');
    symlinkSync('state.json', alias);
    const first = await startEmulator({ port: 0, stateFile: file });
    const task = await post(first, '/tasks/browser-use/', { prompt: 'in the one file' });
    await first.save();
    await expect(startEmulator({ port: 0, stateFile: alias })).rejects.toThrow(/alias\.json is in use by another emulator of this process/);
    linkSync(file, hard);
    await expect(startEmulator({ port: 0, stateFile: hard })).rejects.toThrow(/hard\.json has 2 names \(hard links\)/);
    await first.close();
    unlinkSync(hard);

    // Another process's emulator under the real name: its lock, beside the real file, refuses the link too.
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: 4242, pidSpace: 'boot-1', host: hostname(), token: 'theirs' }));
    const running = { pid: 1, pidSpace: 'boot-1', isRunning: (pid: number) => pid === 4242 };
    await expect(startEmulator({ port: 0, stateFile: alias, process: running })).rejects.toThrow(/in use by the emulator with pid 4242/);
    unlinkSync(`${file}.lock`);

    const viaLink = await startEmulator({ port: 0, stateFile: alias });
    const more = await post(viaLink, '/tasks/browser-use/', { prompt: 'saved through the link' });
    expect(readdirSync(folder).sort()).toEqual(['alias.json', 'state.json', 'state.json.lock']);
    await viaLink.close();
    expect(lstatSync(alias).isSymbolicLink()).toBe(true);
    const saved = readFileSync(file, 'utf8');
    expect(saved).toContain(task.id);
    expect(saved).toContain(more.id);
  });
});
