import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { apiRequest, eventually } from '../helpers/api.js';
import { against } from '../helpers/cli.js';
import { sendJson, stubServer } from '../helpers/stub-server.js';

let emulator: RunningEmulator;
let cli: ReturnType<typeof against>;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, taskDurationMs: 50 });
  cli = against(emulator.baseUrl);
});
afterAll(() => emulator.close());

const SCHEMA = {
  type: 'object',
  properties: { price: { type: 'number' }, currency: { type: 'string', enum: ['EUR', 'NOK'] }, checked_at: { type: 'string', format: 'date-time' } },
  required: ['price', 'currency'],
  additionalProperties: false,
};
const TASK_ID = '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f';

/** A service whose task has SCHEMA and the given result. */
async function serviceWith(result: unknown, status = 'completed', schema: unknown = SCHEMA) {
  return stubServer((request, response) => {
    if (request.url.endsWith('/result/')) return sendJson(response, 200, { id: TASK_ID, status, result });
    sendJson(response, 200, { id: TASK_ID, status, output_schema: schema, prompt: 'x' });
  });
}

describe('tasks result --check-schema', () => {
  it('a result made for its schema passes: printed as usual, exit 0', async () => {
    const { id } = await apiRequest<{ id: string }>(emulator.baseUrl, 'POST', '/tasks/browser-use/', { prompt: 'price', output_schema: SCHEMA });
    await eventually(async () => (await apiRequest<{ status: string }>(emulator.baseUrl, 'GET', `/tasks/browser-use/${id}/`)).status === 'completed');
    const result = await cli(['tasks', 'result', id, '--check-schema', '--json']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'completed' });
  });

  it('a mismatch exits 10, prints nothing on stdout and says where on stderr', async () => {
    const service = await serviceWith({ price: 'cheap', currency: 'USD', extra: true, checked_at: 'yesterday' });
    try {
      const result = await against(service.baseUrl)(['tasks', 'result', TASK_ID, '--check-schema', '--json']);
      expect(result.exitCode).toBe(10);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('/price: must be number');
      expect(result.stderr).toContain('/currency: must be equal to one of the allowed values');
      expect(result.stderr).toContain('must NOT have additional properties "extra"');
      expect(result.stderr).toContain('/checked_at: must match format "date-time"');
    } finally {
      await service.close();
    }
  });

  it('checks a result sent as JSON text, and a 2020-12 schema', async () => {
    const schema = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', required: ['price'] };
    const service = await serviceWith(JSON.stringify({ currency: 'EUR' }), 'completed', schema);
    try {
      const result = await against(service.baseUrl)(['tasks', 'result', TASK_ID, '--check-schema']);
      expect(result.exitCode).toBe(10);
      expect(result.stderr).toContain("must have required property 'price'");
    } finally {
      await service.close();
    }
  });

  it('a failed task exits 5, a task without a schema exits 2', async () => {
    const failed = await serviceWith(null, 'failed');
    try {
      expect((await against(failed.baseUrl)(['tasks', 'result', TASK_ID, '--check-schema'])).exitCode).toBe(5);
    } finally {
      await failed.close();
    }
    const none = await serviceWith({ price: 1 }, 'completed', null);
    try {
      const result = await against(none.baseUrl)(['tasks', 'result', TASK_ID, '--check-schema']);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toMatch(/no output_schema/);
    } finally {
      await none.close();
    }
  });
});
