import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, stubServer } from '../helpers/stub-server.js';
import { spawnAgentctl } from '../helpers/cli.js';

// --jq runs jq compiled to WebAssembly (jq-wasm). As published, that package feeds jq its input and
// collects its output one byte at a time by copying everything so far: a 500 KB answer took 17 s to
// filter and a 2 MB one minutes. The build reads and writes through buffers instead
// (scripts/esbuild-plugins.mjs, splitJqLoader); this runs the built CLI on a 2 MB answer, which
// without that change would not finish within the test's time.
describe('--jq on a large answer (built CLI)', () => {
  const items = Array.from({ length: 16_000 }, (_, index) => ({ id: `item-${index}`, text: `${'x'.repeat(100)} é ${index}` }));
  let service: Awaited<ReturnType<typeof stubServer>>;
  beforeAll(async () => {
    service = await stubServer((_request, response) => sendJson(response, 200, { results: items }));
  });
  afterAll(() => service.close());

  it('filters and prints a 2 MB answer whole, non-ASCII text intact', async () => {
    const env = { AGENTCTL_BASE_URL: service.baseUrl, AGENTCTL_API_KEY: 'stub-key' };
    const counted = await spawnAgentctl(['api', 'GET', '/big/', '--jq', '.results | length'], { env });
    expect(counted.exitCode).toBe(0);
    expect(counted.stdout).toBe('16000\n');

    const printed = await spawnAgentctl(['api', 'GET', '/big/', '--jq', '.results[] | tojson'], { env });
    expect(printed.exitCode).toBe(0);
    const lines = printed.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(16_000);
    expect(JSON.parse(lines[15_999] as string)).toEqual(items[15_999]);
  });
});
