// Issue 48, round 2 (smaller items): a base URL that would send the API key in clear text, ids a
// batch's creates are answered with that differ only in case, and a batch line whose text holds a
// lone surrogate. Each attack is a stub service in this process, a base URL or a batch file; each
// checks what a user would notice: the exit code, what stderr and stdout say, what was sent.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { against, tempDir } from '../helpers/cli.js';
import { jsonLines } from '../helpers/json-lines.js';
import { sendJson, stubServer, type StubRequest } from '../helpers/stub-server.js';

const TASK_ID = '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f';
const task = (id: string, status = 'completed') => ({ id, prompt: 'p', status, created_at: '2026-05-01T08:00:00Z', updated_at: '2026-05-01T08:00:00Z' });
const isCreate = (request: StubRequest) => request.method === 'POST' && /\/tasks\/browser-use\/$/.test(request.url);

function inputFile(lines: string[]): string {
  const path = join(tempDir(), 'tasks.jsonl');
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

/** A stub that answers creates with `idFor(n)` (n from 1) and every result with the task completed. */
async function creatingStub(idFor: (n: number) => string) {
  let creates = 0;
  return stubServer((request, response) => {
    if (isCreate(request)) return sendJson(response, 201, task(idFor(++creates), 'pending'));
    const id = /\/tasks\/browser-use\/([^/]+)\/result\/$/.exec(request.url)?.[1] ?? TASK_ID;
    sendJson(response, 200, { id: decodeURIComponent(id), status: 'completed', result: 'ok' });
  });
}

describe('run-batch: ids that differ only in case', () => {
  it('are one id: the second line is unknown, naming the first, and the task is followed once', async () => {
    const stub = await creatingStub((n) => (n === 1 ? TASK_ID.toUpperCase() : TASK_ID));
    try {
      const result = await against(stub.baseUrl)(['tasks', 'run-batch', inputFile(['one', 'two']), '--follow', '--concurrency', '1', '--interval', '0.05']);
      expect(result.exitCode, result.stderr).toBe(1);
      const lines = jsonLines(result.stdout).sort((a, b) => Number(a.line) - Number(b.line));
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatchObject({ line: 1, status: 'completed' });
      expect(lines[1]).toMatchObject({ line: 2, id: TASK_ID, status: 'unknown' });
      expect(String(lines[1]?.error)).toContain(`which it gave line 1 too (as ${TASK_ID.toUpperCase()})`);
      expect(result.stderr).toMatch(/line 2: unknown: .*which it gave line 1 too/);
      // Polled for one line only.
      const polled = new Set(stub.requests.filter((request) => request.url.includes('/result/')).map((request) => request.url.toLowerCase()));
      expect(polled.size).toBe(1);
    } finally {
      await stub.close();
    }
  });
});

describe('run-batch: a lone surrogate in a line', () => {
  it.each([
    ['prompt', '{"prompt": "Book a table \\ud800 for two"}'],
    ['output_schema', '{"prompt": "p", "output_schema": {"type": "object", "properties": {"na\\udc00me": {"type": "string"}}}}'],
    ['secrets', '{"prompt": "p", "secrets": {"https://shop.example": {"PASSWORD": "hunter2\\ud83d"}}}'],
    ['key', '{"prompt": "p", "key": "k\\ud800"}'],
  ])('in %s is refused before any request, naming the line and the field', async (field, line) => {
    const stub = await creatingStub(() => TASK_ID);
    try {
      const result = await against(stub.baseUrl)(['tasks', 'run-batch', inputFile(['{"prompt": "fine"}', line])]);
      expect(result.exitCode, result.stderr).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`line 2: "${field}" holds a lone surrogate \\(U\\+D[0-9A-F]{3}\\)`));
      expect(result.stderr).toContain('nothing was sent');
      expect(result.stderr).not.toContain('hunter2');
      expect(stub.requests).toHaveLength(0);
    } finally {
      await stub.close();
    }
  });

  it('a pair of escapes (one character) passes', async () => {
    const stub = await creatingStub(() => TASK_ID);
    try {
      const result = await against(stub.baseUrl)(['tasks', 'run-batch', inputFile(['{"prompt": "Book a table \\ud83d\\ude00"}'])]);
      expect(result.exitCode, result.stderr).toBe(0);
      expect(JSON.parse(stub.requests[0]?.body ?? '{}')).toMatchObject({ prompt: 'Book a table 😀' });
    } finally {
      await stub.close();
    }
  });
});
