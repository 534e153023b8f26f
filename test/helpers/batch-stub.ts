// A stub service for run-batch attacks, shared by the fault tests: creates answered with ids a test
// chooses, every result completed, and the batch input files they read.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './cli.js';
import { sendJson, stubServer, type StubRequest } from './stub-server.js';

export const TASK_ID = '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f';

/** A task record as the service answers it. */
export const task = (id: string, status = 'completed') => ({ id, prompt: 'p', status, created_at: '2026-05-01T08:00:00Z', updated_at: '2026-05-01T08:00:00Z' });

export const isCreate = (request: StubRequest) => request.method === 'POST' && /\/tasks\/browser-use\/$/.test(request.url);

/** A batch input file of these lines, in a folder of its own. */
export function inputFile(lines: string[], name = 'tasks.jsonl'): string {
  const path = join(tempDir(), name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

/** A stub that answers creates with `idFor(n)` (n from 1) and every result with the task completed. */
export async function creatingStub(idFor: (n: number) => string) {
  let creates = 0;
  return stubServer((request, response) => {
    if (isCreate(request)) return sendJson(response, 201, task(idFor(++creates), 'pending'));
    const id = /\/tasks\/browser-use\/([^/]+)\/result\/$/.exec(request.url)?.[1] ?? TASK_ID;
    sendJson(response, 200, { id: decodeURIComponent(id), status: 'completed', result: 'ok' });
  });
}
