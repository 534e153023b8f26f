// Issue 34: untrusted text and aliased files. Each attack is a stub service in this process, or a
// file laid out as an attacker (or an accident) would: ids that climb out of /api/v1, error details
// that carry CI workflow commands, Markdown that fetches a tracking pixel, a ledger reached under two
// names, locks that are FIFOs or dated in the future, lines without end, files quoted in messages.
// Each checks what a user would notice: the exit code, what stderr and stdout say, what was sent.
import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, readFileSync, symlinkSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startEmulator, StateFileError } from '../../src/emulator/index.js';
import { against, agentctl, tempDir, type CliResult } from '../helpers/cli.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { apiRequest } from '../helpers/api.js';
import { creatingStub, inputFile, isCreate, task, TASK_ID } from '../helpers/batch-stub.js';
import { jsonLines } from '../helpers/json-lines.js';
import { sendJson, stubServer } from '../helpers/stub-server.js';

/** An id that climbs out of /api/v1 when put in a URL as it is (`../` four times, then agents/browser-use). */
const CLIMBING_ID = `${'../'.repeat(4)}agents/browser-use`;
/** Text that starts workflow commands on lines of its own, in every way a line can break. */
const INJECTED = 'bad\n::add-mask::hunter2\r\n::stop-commands::pause\r::error::all good\u2028::warning::x\u0085::notice::y';

/** No line of `text` starts a GitHub workflow command, whatever counts as a line break. */
function noWorkflowCommand(text: string): void {
  for (const line of text.split(/\r\n|[\n\r\u2028\u2029\u0085\v\f]/)) expect(line, text).not.toMatch(/^\s*::/);
}

describe('1. a ledger reached under two names', () => {
  /** A run whose creates wait until `release()`: it holds its ledger meanwhile. */
  async function heldRun(lines: number) {
    const waiting: ServerResponse[] = [];
    let held = true;
    let creates = 0;
    let firstCreate!: () => void;
    const started = new Promise<void>((resolve) => (firstCreate = resolve));
    const stub = await stubServer((request, response) => {
      if (!isCreate(request)) return sendJson(response, 404, { detail: 'Not found.' });
      creates++;
      const id = `${String(creates).padStart(8, '0')}-5d4a-4c7b-9e2f-1a2b3c4d5e6f`;
      if (held) {
        waiting.push(response);
        firstCreate();
        return;
      }
      sendJson(response, 201, task(id, 'pending'));
    });
    const file = inputFile(Array.from({ length: lines }, (_, i) => `prompt ${i}`));
    const run = against(stub.baseUrl)(['tasks', 'run-batch', file, '--concurrency', '1']);
    await started;
    const release = async (): Promise<CliResult> => {
      held = false;
      waiting.forEach((response, i) => sendJson(response, 201, task(`${String(1000 + i).padStart(8, '0')}-5d4a-4c7b-9e2f-1a2b3c4d5e6f`, 'pending')));
      const result = await run;
      await stub.close();
      return result;
    };
    return { stub, file, ledger: `${file}.ledger`, release, creates: () => creates };
  }

  it('a symbolic link to the ledger meets the same lock: the second run sends nothing', async () => {
    const first = await heldRun(20);
    const alias = join(tempDir(), 'alias.ledger');
    symlinkSync(first.ledger, alias);
    const second = await against(first.stub.baseUrl)(['tasks', 'run-batch', first.file, '--ledger', alias]);
    const sentBySecond = first.creates() - 1;
    const done = await first.release();
    expect(second.exitCode, second.stderr).toBe(2);
    expect(second.stderr).toContain('is in use by another run');
    expect(sentBySecond).toBe(0);
    expect(done.exitCode, done.stderr).toBe(0);
    expect(first.creates()).toBe(20); // each line once
  });

  it('a hard link to the ledger is refused before any request, naming the cause', async () => {
    const first = await heldRun(20);
    const alias = join(tempDir(), 'alias.ledger');
    linkSync(first.ledger, alias);
    const second = await against(first.stub.baseUrl)(['tasks', 'run-batch', first.file, '--ledger', alias]);
    const sentBySecond = first.creates() - 1;
    await first.release();
    expect(second.exitCode, second.stderr).toBe(2);
    expect(second.stderr).toMatch(/the ledger .*alias\.ledger has 2 names \(hard links\)/);
    expect(sentBySecond).toBe(0);
  });
});

describe('2. line breaks in service text never start a line of their own', () => {
  it('a 400 whose detail, keys and values hold line breaks: one line per field in the human error', async () => {
    const stub = await stubServer((_request, response) => sendJson(response, 400, { detail: INJECTED, [`field${INJECTED}`]: [INJECTED], error_id: INJECTED }));
    try {
      const result = await against(stub.baseUrl)(['tasks', 'get', TASK_ID]);
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toContain('error: the service answered 400 (invalid request):');
      expect(result.stderr).toContain('bad ::add-mask::hunter2 ::stop-commands::pause');
      noWorkflowCommand(result.stderr);
    } finally {
      await stub.close();
    }
  });

  it("a failed task's error_message in tasks wait's error line", async () => {
    const stub = await stubServer((_request, response) => sendJson(response, 200, { id: TASK_ID, status: 'failed', error_message: INJECTED }));
    try {
      const result = await against(stub.baseUrl)(['tasks', 'wait', TASK_ID]);
      expect(result.exitCode).toBe(5);
      expect(result.stderr).toContain(`Task ${TASK_ID} failed: bad ::add-mask::hunter2`);
      noWorkflowCommand(result.stderr);
    } finally {
      await stub.close();
    }
  });

  it("run-batch's summary folds a 400's and a 500's detail", async () => {
    const stub = await stubServer((_request, response, index) => sendJson(response, index === 0 ? 400 : 500, { detail: INJECTED }));
    try {
      const result = await against(stub.baseUrl)(['tasks', 'run-batch', inputFile(['one', 'two']), '--concurrency', '1']);
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toMatch(/line 1: rejected: the service answered 400 \(invalid request\): bad ::add-mask::hunter2/);
      noWorkflowCommand(result.stderr);
      expect(jsonLines(result.stdout)[0]?.error).toContain('bad ::add-mask::hunter2');
    } finally {
      await stub.close();
    }
  });

  it('batch-report folds the statuses, keys, ids and errors it reads back from a report file', async () => {
    const report = inputFile(
      [
        JSON.stringify({ line: 1, key: INJECTED, id: INJECTED, status: 'unknown', result: null, error: INJECTED }),
        JSON.stringify({ line: 2, key: null, id: INJECTED, status: `failed${INJECTED}`, result: null, error: null }),
      ],
      'shard.jsonl',
    );
    const result = await agentctl(['tasks', 'batch-report', report]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('line 1: unknown: bad ::add-mask::hunter2');
    expect(result.stderr).toContain('1 failedbad ::add-mask::hunter2');
    noWorkflowCommand(result.stderr);
  });

  it("the ledger's own records (a user file) are folded too", async () => {
    const file = inputFile(['one']);
    const hash = (await import('../../src/batch/input.js')).lineHash('one');
    writeFileSync(`${file}.ledger`, `${JSON.stringify({ line: 1, hash, state: 'unknown', error: INJECTED, code: 1 })}\n`);
    const result = await against('http://127.0.0.1:9/api/v1')(['tasks', 'run-batch', file]);
    expect(result.exitCode).toBe(1);
    noWorkflowCommand(result.stderr);
  });
});

describe('3. ids from the service', () => {
  it('a create answered with an id that climbs out of /api/v1 is not followed: the line is unknown, nothing leaves the route', async () => {
    const stub = await creatingStub(() => CLIMBING_ID);
    try {
      const result = await against(stub.baseUrl)(['tasks', 'run-batch', inputFile(['one']), '--follow', '--interval', '0.05']);
      expect(result.exitCode, result.stderr).toBe(1);
      const [line] = jsonLines(result.stdout);
      expect(line).toMatchObject({ line: 1, id: null, status: 'unknown' });
      expect(String(line?.error)).toContain(`the service answered the create with the id "${CLIMBING_ID}", which is not a UUID`);
      expect(stub.requests.every((request) => request.url.startsWith('/api/v1/tasks/browser-use/'))).toBe(true);
    } finally {
      await stub.close();
    }
  });

  it('tasks create --follow puts the id in its polls as one path segment', async () => {
    const stub = await creatingStub(() => CLIMBING_ID);
    try {
      await against(stub.baseUrl)(['tasks', 'create', 'p', '--follow', '--interval', '0.05', '--timeout', '2']);
      expect(stub.requests.length).toBeGreaterThan(1);
      for (const request of stub.requests) expect(request.url).toMatch(/^\/api\/v1\/tasks\/browser-use\/([^/]*\/(result\/)?)?(\?.*)?$/);
    } finally {
      await stub.close();
    }
  });

  it('two creates answered with one id: both lines are reported, the second as unknown naming the first', async () => {
    const stub = await creatingStub(() => TASK_ID);
    try {
      const result = await against(stub.baseUrl)(['tasks', 'run-batch', inputFile(['one', 'two']), '--follow', '--concurrency', '1', '--interval', '0.05']);
      expect(result.exitCode, result.stderr).toBe(1);
      const lines = jsonLines(result.stdout).sort((a, b) => Number(a.line) - Number(b.line));
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatchObject({ line: 1, id: TASK_ID, status: 'completed' });
      expect(lines[1]).toMatchObject({ line: 2, id: TASK_ID, status: 'unknown' });
      expect(String(lines[1]?.error)).toContain(`which it gave line 1 too`);
      expect(result.stderr).toMatch(/2\/2 tasks/);
      expect(result.stderr).toMatch(/line 2: unknown: .*which it gave line 1 too/);
    } finally {
      await stub.close();
    }
  });
});

/** Markdown with its code spans taken out: what GitHub would render as Markdown or HTML. */
const outsideCode = (markdown: string) => markdown.replace(/(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, '');

describe("4. the step summary shows the service's text as code", () => {
  it('images, links, tags and fake text are code spans, backticks and pipes included', async () => {
    const hostile = '![pixel](https://tracker.example/p.png) <img src=https://tracker.example/i.png> [click](https://evil.example) **all 100 passed** `tick` | cell';
    const report = inputFile([JSON.stringify({ line: 1, key: hostile, id: hostile, status: 'failed', result: null, error: hostile }), JSON.stringify({ line: 2, key: null, id: TASK_ID, status: `<b>${hostile}</b>`, result: null, error: null })], 'shard.jsonl');
    const summary = join(tempDir(), 'summary.md');
    const result = await agentctl(['tasks', 'batch-report', report, '--annotations', 'github'], { env: { GITHUB_STEP_SUMMARY: summary } });
    expect(result.exitCode).toBe(1);
    const markdown = readFileSync(summary, 'utf8');
    const rendered = outsideCode(markdown);
    for (const attack of ['![', '](', '<img', '<b>', '**all', 'tracker.example']) expect(rendered).not.toContain(attack);
    expect(markdown).toContain('``![pixel](https://tracker.example/p.png)');
    // A table row stays a row of four cells: its pipes are escaped.
    const row = markdown.split('\n').find((line) => line.includes('line 1'));
    expect(row?.replace(/\\\|/g, '').split('|')).toHaveLength(6);
  });
});

describe('5. smaller', () => {
  it('a lock that is a FIFO is refused at once (it would block the run for ever), with how to remove it', async () => {
    const file = inputFile(['one']);
    execFileSync('mkfifo', [`${file}.ledger.lock`]);
    const result = await against('http://127.0.0.1:9/api/v1')(['tasks', 'run-batch', file]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`the lock of the ledger ${file}.ledger, ${file}.ledger.lock, is a FIFO, not a lock a run wrote`);
    expect(result.stderr).toContain(`hint: remove it (rm ${file}.ledger.lock), then rerun`);
  });

  it('a lock that is a folder gets a hint that removes it', async () => {
    const file = inputFile(['one']);
    mkdirSync(`${file}.ledger.lock`);
    writeFileSync(join(`${file}.ledger.lock`, 'x'), '');
    const result = await against('http://127.0.0.1:9/api/v1')(['tasks', 'run-batch', file]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`is a folder, not a lock a run wrote`);
    expect(result.stderr).toContain(`rm -r ${file}.ledger.lock`);
  });

  it('a foreign lock dated in the future is watched and taken over once it stays untouched', async () => {
    const stub = await creatingStub(() => TASK_ID);
    try {
      const file = inputFile(['one']);
      const lock = `${file}.ledger.lock`;
      writeFileSync(lock, JSON.stringify({ pid: 4242, host: 'ci-runner-7', started: '2026-11-25T22:00:00.000Z', token: 'theirs' }));
      const future = new Date(Date.now() + 365 * 24 * 3600 * 1000);
      utimesSync(lock, future, future);
      const result = await against(stub.baseUrl)(['tasks', 'run-batch', file], { clock: new FakeClock(Date.now()) });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stderr).toMatch(/was last touched \d+s ahead of this host's clock: checking for 15s whether its run is alive/);
      expect(result.stderr).toContain('Took over the lock');
    } finally {
      await stub.close();
    }
  });

  it('batch-report refuses a line without end (/dev/zero) instead of growing until killed', async () => {
    const result = await agentctl(['tasks', 'batch-report', '/dev/zero'], { timeoutMs: 60_000 });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('/dev/zero: line 1 is longer than 128 MiB');
  }, 60_000);

  it('run-batch refuses a line without end too', async () => {
    const result = await against('http://127.0.0.1:9/api/v1')(['tasks', 'run-batch', '/dev/zero', '--ledger', join(tempDir(), 'l.ledger')]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('/dev/zero: line 1 is longer than 16 MiB');
  });

  it.each([-1, 1.5, 0])('batch-report refuses "line": %s in a report file', async (line) => {
    const report = inputFile([JSON.stringify({ line, key: null, id: TASK_ID, status: 'completed', result: null, error: null })], 'shard.jsonl');
    const result = await agentctl(['tasks', 'batch-report', report]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`"line" must be a line number (1 or more), got ${line}`);
  });

  it('a step summary or JUnit file that cannot be written is warned about; the exit code stays the batch\'s', async () => {
    const report = inputFile([JSON.stringify({ line: 1, key: null, id: TASK_ID, status: 'completed', result: null, error: null })], 'shard.jsonl');
    const folder = tempDir();
    const result = await agentctl(['tasks', 'batch-report', report, '--junit', folder, '--annotations', 'github'], { env: { GITHUB_STEP_SUMMARY: join(folder, 'gone', 'summary.md') } });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/cannot write .*: EISDIR/);
    expect(result.stderr).toMatch(/cannot write .*summary\.md: ENOENT/);
    expect(jsonLines(result.stdout)).toHaveLength(1);
  });

  it.each([
    [{ CI_NODE_INDEX: '1', CI_NODE_TOTAL: '100000000000000000000000' }, 'more than 100000 jobs'],
    [{ AGENTCTL_SHARD: '1/100000000000000000000000' }, 'more than 100000 jobs'],
  ])('--shard auto refuses a count past what can be counted exactly: %j', async (env, says) => {
    const result = await against('http://127.0.0.1:9/api/v1')(['tasks', 'run-batch', inputFile(['one']), '--shard', 'auto'], { env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(says);
  });

  it('--shard I/N refuses a count past what can be counted exactly', async () => {
    const result = await against('http://127.0.0.1:9/api/v1')(['tasks', 'run-batch', inputFile(['one']), '--shard', '1/100000000000000000000000']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--shard must be I/N with 1 <= I <= N <= 100000');
  });

  it('a secrets file that is another file (a config) is refused without quoting it', async () => {
    const file = join(tempDir(), 'config.json');
    writeFileSync(file, JSON.stringify({ profiles: { default: { 'api-key': 'sk-live-0123' } } }));
    const result = await against('http://127.0.0.1:9/api/v1')(['tasks', 'create', 'p', '--secrets-file', file]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--secrets-file: the value of key 1 of 1 of domain 1 of 1 must be a string');
    for (const quoted of ['profiles', 'default', 'api-key', 'sk-live']) expect(result.stderr).not.toContain(quoted);
  });

  it('a state file that is another file is refused without quoting it', async () => {
    const file = join(tempDir(), 'passwd');
    writeFileSync(file, 'root:x:0:0:root:/root:/bin/bash\n');
    const started = startEmulator({ port: 0, stateFile: file });
    await expect(started).rejects.toThrow(StateFileError);
    const message = await started.catch((error: Error) => error.message);
    expect(message).toContain(`${file} is not a state file the emulator wrote`);
    expect(message).not.toContain('root');
  });

  it('a 600 MB state file is refused from its size, without reading it', async () => {
    const file = join(tempDir(), 'state.json');
    writeFileSync(file, '');
    truncateSync(file, 600 * 1024 * 1024); // sparse: no disk used
    const started = startEmulator({ port: 0, stateFile: file });
    await expect(started).rejects.toThrow('(it is 600 MB; the emulator loads at most 512 MB)');
  });

  it('a 300 MB file that is not a state is refused from its start, without reading it whole', async () => {
    const file = join(tempDir(), 'state.json');
    writeFileSync(file, '');
    truncateSync(file, 300 * 1024 * 1024);
    const before = process.memoryUsage().rss;
    const started = startEmulator({ port: 0, stateFile: file });
    await expect(started).rejects.toThrow('(it does not start with {"version": ...})');
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
  });

  describe('an edited state file is checked as the service\'s records', () => {
    async function savedState() {
      const file = join(tempDir(), 'state.json');
      const emulator = await startEmulator({ port: 0, stateFile: file });
      for (const prompt of ['a', 'b']) {
        await apiRequest(emulator.baseUrl, 'POST', '/tasks/browser-use/', { prompt });
      }
      await emulator.close();
      return { file, state: JSON.parse(readFileSync(file, 'utf8')) as { tasks: Array<Record<string, unknown>> } };
    }

    it.each([
      ['a status the service does not have', (state: { tasks: Array<Record<string, unknown>> }) => void ((state.tasks[1] as Record<string, unknown>).status = 'bogus'), 'task 2 of 2: "status" is not one the service could hold'],
      ['a task twice', (state: { tasks: Array<Record<string, unknown>> }) => void state.tasks.push({ ...state.tasks[0] }), 'task 3 of 3 has the id of an earlier task'],
      ['an id that is not a UUID', (state: { tasks: Array<Record<string, unknown>> }) => void ((state.tasks[0] as Record<string, unknown>).id = '../x'), 'task 1 of 2: "id" is not a UUID'],
    ])('%s is refused at start, saying where', async (_name, edit, says) => {
      const { file, state } = await savedState();
      edit(state);
      writeFileSync(file, JSON.stringify(state));
      await expect(startEmulator({ port: 0, stateFile: file })).rejects.toThrow(says);
    });
  });

  it('a 50 KB --api-key-file is refused before any request', async () => {
    const stub = await stubServer((_request, response) => sendJson(response, 200, task(TASK_ID)));
    try {
      const keyFile = join(tempDir(), 'key');
      writeFileSync(keyFile, 'k'.repeat(50 * 1024));
      const result = await agentctl(['tasks', 'get', TASK_ID, '--api-key-file', keyFile, '--base-url', stub.baseUrl]);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain(`the API key from file ${keyFile} is over 4 KB`);
      expect(stub.requests).toHaveLength(0);
    } finally {
      await stub.close();
    }
  });

  it('a page that links back to page 1 (A-B-A) says how far the walk got, not "page 1 of 5"', async () => {
    const ids = ['a', 'b', 'c', 'd', 'e'];
    const stub = await stubServer((request, response) => {
      const page = Number(new URL(request.url, 'http://stub').searchParams.get('page') ?? 1);
      const next = `http://${request.headers.host}${new URL(request.url, 'http://stub').pathname}?page=${page === 5 ? 1 : page + 1}&page_size=1`;
      sendJson(response, 200, { count: 5, next, previous: null, results: [task(ids[page - 1] ?? 'z')] });
    });
    try {
      const result = await against(stub.baseUrl)(['tasks', 'list', '--all', '--page-size', '1', '--jsonl']);
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toContain('the list is partial: it stopped at page 1 again (a link back, after 5 pages), after 5 items');
      expect(result.stderr).not.toContain('page 1 of 5');
    } finally {
      await stub.close();
    }
  });

  it('::error annotations carry no control characters (colour codes, cursor moves)', async () => {
    const report = inputFile([JSON.stringify({ line: 1, key: '\u001b[31mred', id: null, status: 'failed', result: null, error: '\u001b[2J\u001b[1;1Hcleared\u0007\u0000' })], 'shard.jsonl');
    const result = await agentctl(['tasks', 'batch-report', report, '--annotations', 'github']);
    const annotation = result.stderr.split('\n').find((line) => line.startsWith('::error'));
    expect(annotation).toBeDefined();
    // eslint-disable-next-line no-control-regex
    expect(annotation).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(annotation).toContain('cleared');
  });
});
