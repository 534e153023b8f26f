// One wait for a task, three faces (src/core/wait.ts): against a service whose first poll answers and
// whose later polls hang, the command line, the MCP server and the library each end at their limit,
// with their own outcome, and the hanging poll is aborted rather than left to the request limit.
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { WaitTimeoutError, createClient } from '../../src/client/index.js';
import { agentctl } from '../helpers/cli.js';
import { connectMcp, data } from '../helpers/mcp.js';
import { sendJson, stubServer } from '../helpers/stub-server.js';

const KEY = 'one-wait-test-key-0123';
const ID = '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f';

type Stub = Awaited<ReturnType<typeof stubServer>>;
const stubs: Stub[] = [];
afterEach(async () => {
  await Promise.all(stubs.splice(0).map((server) => server.close()));
});

/** A service that answers the first GET (pending) and never answers a later one; `aborted` settles when a hanging poll is given up. */
async function hangingService() {
  let abandon: () => void = () => undefined;
  const aborted = new Promise<void>((resolve) => (abandon = resolve));
  const hang = (response: ServerResponse) => response.on('close', () => !response.writableEnded && abandon());
  const server = await stubServer((_request, response, index) => (index === 0 ? sendJson(response, 200, { id: ID, status: 'pending' }) : hang(response)));
  stubs.push(server);
  return { ...server, aborted };
}

describe('a wait whose polls hang ends at its own limit', () => {
  it('the command line: exit 7 with the resume command, no outage claimed, the hanging poll aborted', async () => {
    const service = await hangingService();
    const result = await agentctl(['tasks', 'wait', ID, '--timeout', '0.3'], { env: { AGENTCTL_BASE_URL: service.baseUrl, AGENTCTL_API_KEY: KEY } });
    await service.aborted;
    expect(result.exitCode).toBe(7);
    expect(result.stdout).toBe(`${ID}\n`);
    // The deadline cut the poll short: the service was never shown as unreachable.
    expect(result.stderr).toMatch(new RegExp(`^Task ${ID} is still pending after [\\d.]+ m?s \\(--timeout\\)\\. Resume with:\n  agentctl tasks wait ${ID}\n$`));
  });

  it('MCP tasks_wait: "still pending" with the call that goes on, not a network error after the request limit', async () => {
    const service = await hangingService();
    // The server's request limit (5 s in mcpDeps) is far past the wait's.
    const mcp = await connectMcp({ baseUrl: service.baseUrl, apiKey: KEY, listTools: false });
    try {
      const answer = await mcp.call('tasks_wait', { id: ID, timeout_seconds: 0.3 });
      await service.aborted;
      expect(answer.isError).toBeFalsy();
      expect(data(answer)).toMatchObject({ id: ID, status: 'pending', finished: false, next: { tool: 'tasks_wait', arguments: { id: ID } } });
      expect(service.requests.length).toBeGreaterThanOrEqual(2);
    } finally {
      await mcp.close();
    }
  });

  it('the library: WaitTimeoutError with the task as last seen, the hanging poll aborted', async () => {
    const service = await hangingService();
    const client = createClient({ baseUrl: service.baseUrl, apiKey: KEY, timeoutMs: 60_000 });
    const statuses: string[] = [];
    const error = await client.tasks.wait(ID, { timeoutMs: 300, onStatus: (task) => statuses.push(task.status) }).catch((e: unknown) => e);
    await service.aborted;
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect(error).toMatchObject({ taskId: ID, task: { status: 'pending' }, timeoutMs: 300 });
    expect(statuses).toEqual(['pending']);
  });
});
