// `persistent links|link|unlink|files|upload|download|settings|trace` (issue 42): the service's
// MCP tools beyond conversation, from the command line, against the emulator's /api/v1/mcp/ (and a
// stub for what the emulator does not do: an older deployment, hostile names, a bad checksum).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { against, tempDir } from '../helpers/cli.js';
import { sendJson, stubServer, type StubRequest } from '../helpers/stub-server.js';

let emulator: RunningEmulator;
let cli: ReturnType<typeof against>;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, taskDurationMs: 100 });
  cli = against(emulator.baseUrl);
});
afterAll(() => emulator.close());

type Stub = Awaited<ReturnType<typeof stubServer>>;
const stubs: Stub[] = [];
afterEach(async () => {
  await Promise.all(stubs.splice(0).map((stub) => stub.close()));
});
async function stub(handler: Parameters<typeof stubServer>[0]): Promise<Stub> {
  const server = await stubServer(handler);
  stubs.push(server);
  return server;
}

let counter = 0;
async function agent(): Promise<string> {
  const made = await cli(['persistent', 'create', '--name', `tools-${++counter}`, '--charter', 'Coordinate', '--json']);
  expect(made.exitCode, made.stderr).toBe(0);
  return (JSON.parse(made.stdout) as { id: string }).id;
}
const mcpCalls = (from: number) => emulator.requests.slice(from).filter((request) => request.path.startsWith('/mcp/'));

describe('peer links', () => {
  it('links two agents, lists the link, enables it again with a new budget, and removes it', async () => {
    const [a, b] = [await agent(), await agent()];
    const linked = await cli(['persistent', 'link', a, b, '--json']);
    expect(linked.exitCode, linked.stderr).toBe(0);
    const made = JSON.parse(linked.stdout) as { created: boolean; link: { id: string; messages_per_window: number } };
    expect(made).toMatchObject({ created: true, link: { agent_a: { id: a }, agent_b: { id: b }, is_enabled: true, messages_per_window: 30, window_hours: 6 } });

    const listed = await cli(['persistent', 'links', b]);
    expect(listed.exitCode).toBe(0);
    expect(listed.stdout.split('\t').slice(0, 5)).toEqual([made.link.id, 'tools-1', 'tools-2', 'yes', '30 messages per 6 h']);

    const again = await cli(['persistent', 'link', b, a, '--messages-per-window', '10', '--window-hours', '24']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toContain('were linked already');
    expect(again.stdout).toContain('budget\t10 messages per 24 h');

    const removed = await cli(['persistent', 'unlink', a, b]);
    expect(removed.exitCode, removed.stderr).toBe(0);
    expect(removed.stderr).toContain('Removed the link.');
    expect((await cli(['persistent', 'links', a, '--json'])).stdout.trim()).toBe('[]');
    // Not linked any more: a missing record, exit 4.
    const gone = await cli(['persistent', 'unlink', a, b]);
    expect(gone.exitCode).toBe(4);
    expect(gone.stderr).toContain('Peer link not found or inaccessible.');
  });

  it('refuses a link to itself, a budget out of bounds, and no link named, before any request', async () => {
    const a = await agent();
    const from = emulator.requests.length;
    for (const [argv, said] of [
      [['link', a, a.toUpperCase()], 'peer is the agent itself'],
      [['link', a, 'not-an-id'], 'peer "not-an-id" is not a UUID'],
      [['link', a, '1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b', '--window-hours', '169'], '--window-hours must be a whole number from 1 to 168, got 169'],
      [['link', a, '1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b', '--messages-per-window', 'lots'], '--messages-per-window "lots" is not a whole number'],
      [['unlink'], 'name the link: the two agents, or --link ID'],
      [['unlink', a], 'peer is needed beside the agent'],
      [['unlink', a, '1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b', '--link', a], '--link names the link alone'],
    ] as const) {
      const result = await cli(['persistent', ...argv]);
      expect(result.exitCode, argv.join(' ')).toBe(2);
      expect(result.stderr).toContain(said);
    }
    expect(mcpCalls(from)).toEqual([]);
  });
});

describe('files', () => {
  it('uploads a file, lists it, and downloads it by path, id and URI to the file named or to stdout', async () => {
    const a = await agent();
    const dir = tempDir();
    const local = join(dir, 'notes.txt');
    writeFileSync(local, 'line one\nline two\n');
    const uploaded = await cli(['persistent', 'upload', a, local, '--json']);
    expect(uploaded.exitCode, uploaded.stderr).toBe(0);
    const file = JSON.parse(uploaded.stdout) as { path: string; node_id: string; resource_uri: string; mime_type: string };
    expect(file).toMatchObject({ path: '/uploads/notes.txt', mime_type: 'text/plain', size_bytes: 18 });

    const listed = await cli(['persistent', 'files', a]);
    expect(listed.stdout).toContain('/uploads/notes.txt\tfile\t18\ttext/plain');

    const out = join(dir, 'copy.txt');
    const saved = await cli(['persistent', 'download', a, '/uploads/notes.txt', '--output', out]);
    expect(saved.exitCode, saved.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe('line one\nline two\n');
    expect(saved.stderr).toContain(`Wrote 18 bytes (text/plain) to ${out}.`);
    // An existing file is kept unless --clobber says otherwise.
    const kept = await cli(['persistent', 'download', a, file.node_id, '--output', out]);
    expect(kept.exitCode).toBe(2);
    expect(kept.stderr).toContain(`--output ${out} exists already`);
    const replaced = await cli(['persistent', 'download', a, file.resource_uri, '--output', out, '--clobber', '--json']);
    expect(replaced.exitCode, replaced.stderr).toBe(0);
    expect(JSON.parse(replaced.stdout)).toMatchObject({ uri: file.resource_uri, name: 'notes.txt', size_bytes: 18, written_to: out, checksum_sha256: createHash('sha256').update('line one\nline two\n').digest('hex') });

    const piped = await cli(['persistent', 'download', a, '/uploads/notes.txt']);
    expect(piped).toMatchObject({ exitCode: 0, stdout: 'line one\nline two\n' });
    const missing = await cli(['persistent', 'download', a, '/uploads/none.txt']);
    expect(missing.exitCode).toBe(4);
    expect(missing.stderr).toContain(`agent ${a} has no file at /uploads/none.txt`);
  });

  it('uploads stdin to the path given, says so when the service stores it under another name, and overwrites when told', async () => {
    const a = await agent();
    const sent = await cli(['persistent', 'upload', a, '-', '--path', '/uploads/brief.md'], { input: '# Brief\n' });
    expect(sent.exitCode, sent.stderr).toBe(0);
    expect(sent.stdout).toContain('mime_type\ttext/markdown');
    const twice = await cli(['persistent', 'upload', a, '-', '--path', '/uploads/brief.md'], { input: 'again' });
    expect(twice.exitCode, twice.stderr).toBe(0);
    const stored = /^path\t(.*)$/m.exec(twice.stdout)?.[1];
    expect(stored).not.toBe('/uploads/brief.md');
    expect(twice.stderr).toContain(`a file was at /uploads/brief.md already: the service stored this one as ${stored} (--overwrite replaces it)`);
    const over = await cli(['persistent', 'upload', a, '-', '--path', '/uploads/brief.md', '--overwrite'], { input: 'again' });
    expect(over.exitCode, over.stderr).toBe(0);
    expect((await cli(['persistent', 'download', a, '/uploads/brief.md'])).stdout).toBe('again');
  });

  it('refuses a file over the limit before reading or sending it, and bad paths before any request', async () => {
    const a = await agent();
    const big = join(tempDir(), 'big.bin');
    writeFileSync(big, '');
    truncateSync(big, 10 * 1024 * 1024 + 1); // sparse: costs no disk
    const from = emulator.requests.length;
    const refused = await cli(['persistent', 'upload', a, big]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('is 10485761 bytes (10 MiB); the service takes files of at most 10485760 bytes (10 MiB)');
    const stdin = await cli(['persistent', 'upload', a, '-', '--path', '/uploads/big.txt'], { input: 'x'.repeat(10 * 1024 * 1024 + 1) });
    expect(stdin.exitCode).toBe(2);
    expect(stdin.stderr).toContain('stdin is');
    for (const [argv, said] of [
      [['upload', a, big, '--path', 'uploads/x.bin'], '--path "uploads/x.bin" is not a filespace path'],
      [['upload', a, big, '--path', '/uploads/../x.bin'], 'is not a filespace path'],
      [['upload', a, '-'], '--path is needed when the file comes from stdin'],
      [['upload', a, big, '--mime-type', 'not a type'], '--mime-type "not a type" is not a MIME type'],
      [['download', a, 'report.pdf'], 'FILE "report.pdf" is not a filespace path (/uploads/report.pdf), a file id (UUID) or a gobii:// URI'],
      [['download', a, `gobii://agents/${'1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b'}/files/${a}`], 'is a resource of agent 1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b'],
      [['download', a, '/uploads/x', '--json'], '--json describes the file'],
    ] as const) {
      const result = await cli(['persistent', ...argv]);
      expect(result.exitCode, argv.join(' ')).toBe(2);
      expect(result.stderr).toContain(said);
    }
    expect(mcpCalls(from)).toEqual([]);
  });
});

/** A stub of the service's MCP endpoint answering each tool with `answers[name]` (a function of the request). */
function mcpStub(answers: Record<string, (args: Record<string, unknown>) => { data: unknown; content?: unknown[]; isError?: boolean }>) {
  return stub((request: StubRequest, response) => {
    const { id, params } = JSON.parse(request.body) as { id: number; params: { name: string; arguments: Record<string, unknown> } };
    const answer = answers[params.name]?.(params.arguments) ?? { data: { status: 'error', message: `Unknown tool: ${params.name}` }, isError: true };
    sendJson(response, 200, { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: JSON.stringify(answer.data) }, ...(answer.content ?? [])], structuredContent: answer.data, isError: answer.isError ?? false } });
  });
}

describe('what the service says about a file', () => {
  const AGENT = '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f';
  const NODE = '9b2e4c1d-7a3f-4e5b-8c6d-0f1e2d3c4b5a';
  const bytes = Buffer.from('payload\n');
  const sha = createHash('sha256').update(bytes).digest('hex');
  const hostile = '../../.bashrc';
  const listing = () => ({ data: { filespace: { id: NODE, name: 'Default' }, nodes: [{ id: NODE, name: hostile, path: '/uploads/report.txt', node_type: 'file', size_bytes: 8, resource_uri: 'file:///etc/passwd' }] } });

  it('never becomes a local path: the bytes go to --output or stdout, and the read names the URI agentctl built', async () => {
    const service = await mcpStub({
      gobii_list_agent_files: listing,
      gobii_read_agent_resource: () => ({ data: { resource: { uri: 'file:///etc/passwd', name: hostile, mime_type: 'text/plain', size_bytes: 8, checksum_sha256: sha } }, content: [{ type: 'resource', resource: { uri: 'x', mimeType: 'text/plain', text: 'payload\n' } }] }),
    });
    const dir = tempDir();
    const run = against(service.baseUrl);
    const out = join(dir, 'mine.txt');
    const saved = await run(['persistent', 'download', AGENT, '/uploads/report.txt', '-o', out, '--json']);
    expect(saved.exitCode, saved.stderr).toBe(0);
    expect(readdirSync(dir)).toEqual(['mine.txt']);
    expect(readFileSync(out, 'utf8')).toBe('payload\n');
    expect(JSON.parse(saved.stdout)).toMatchObject({ uri: `gobii://agents/${AGENT}/files/${NODE}`, name: hostile, written_to: out });
    const reads = service.requests.map((request) => JSON.parse(request.body) as { params: { name: string; arguments: { uri?: string } } }).filter((call) => call.params.name === 'gobii_read_agent_resource');
    expect(reads.map((call) => call.params.arguments.uri)).toEqual([`gobii://agents/${AGENT}/files/${NODE}`]);
    const piped = await run(['persistent', 'download', AGENT, NODE]);
    expect(piped).toMatchObject({ exitCode: 0, stdout: 'payload\n' });
    expect(existsSync(join(process.cwd(), hostile))).toBe(false);
    expect(existsSync(join(dir, hostile))).toBe(false);
  });

  it('writes nothing when the bytes do not match the checksum, or the listing says the file is over the limit', async () => {
    const service = await mcpStub({
      gobii_list_agent_files: () => ({ data: { filespace: { id: NODE, name: 'Default' }, nodes: [{ id: NODE, name: 'big', path: '/uploads/big.bin', node_type: 'file', size_bytes: 11 * 1024 * 1024 }, { id: 'not-a-uuid', name: 'odd', path: '/uploads/odd.txt', node_type: 'file' }] } }),
      gobii_read_agent_resource: () => ({ data: { resource: { uri: 'u', name: 'n', mime_type: 'image/png', size_bytes: 8, checksum_sha256: '0'.repeat(64) } }, content: [{ type: 'image', data: bytes.toString('base64'), mimeType: 'image/png' }] }),
    });
    const dir = tempDir();
    const run = against(service.baseUrl);
    const tampered = await run(['persistent', 'download', AGENT, NODE, '-o', join(dir, 'x.png')]);
    expect(tampered.exitCode).toBe(1);
    expect(tampered.stderr).toContain('do not match the checksum it declared');
    const large = await run(['persistent', 'download', AGENT, '/uploads/big.bin', '-o', join(dir, 'big.bin')]);
    expect(large.exitCode).toBe(2);
    expect(large.stderr).toContain('/uploads/big.bin is 11534336 bytes (11 MiB); files are read up to 10485760 bytes');
    const odd = await run(['persistent', 'download', AGENT, '/uploads/odd.txt', '-o', join(dir, 'odd.txt')]);
    expect(odd.exitCode).toBe(1);
    expect(odd.stderr).toContain('with an id that is not a UUID');
    expect(readdirSync(dir)).toEqual([]);
    // Two reads of the listing and none of a file too large or named by a bad id: only the tampered one was read.
    expect(service.requests.filter((request) => request.body.includes('gobii_read_agent_resource'))).toHaveLength(1);
  });

  it('shows only text on a terminal, its control characters escaped', async () => {
    const service = await mcpStub({
      gobii_read_agent_resource: (args) => {
        const binary = String(args.uri).endsWith(NODE);
        const content = binary ? Buffer.from([0, 1, 2, 3]) : Buffer.from('\u001b]52;c;AAAA\u0007hi\n');
        return {
          data: { resource: { uri: 'u', name: 'n', mime_type: binary ? 'application/octet-stream' : 'text/plain', size_bytes: content.length, checksum_sha256: createHash('sha256').update(content).digest('hex') } },
          content: [{ type: 'resource', resource: { uri: 'u', mimeType: 'x', blob: content.toString('base64') } }],
        };
      },
    });
    const run = against(service.baseUrl);
    const terminal = { stdoutIsTTY: true, columns: 80 };
    const text = await run(['persistent', 'download', AGENT, AGENT.replace('3f2b', '4f2b')], { terminal });
    expect(text.exitCode, text.stderr).toBe(0);
    expect(text.stdout).toBe('\\x1b]52;c;AAAA\\x07hi\n');
    const binary = await run(['persistent', 'download', AGENT, NODE], { terminal });
    expect(binary.exitCode).toBe(2);
    expect(binary.stderr).toContain('the file is not text (application/octet-stream, 4 bytes)');
  });
});

describe('config options and the debug trace', () => {
  it('shows what the key may set, and an agent\'s current settings', async () => {
    const a = await agent();
    const shown = await cli(['persistent', 'settings', a]);
    expect(shown.exitCode, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`agent\t${a} (tools-`);
    expect(shown.stdout).toMatch(/^tiers\tstandard \(default\), /m);
    const json = await cli(['persistent', 'settings', '--jq', '.fields.preferred_llm_tier.options[0].key']);
    expect(json).toMatchObject({ exitCode: 0, stdout: 'standard\n' });
  });

  it("reads the agent's trace, and refuses a window the service would refuse before any request", async () => {
    const a = await agent();
    const trace = await cli(['persistent', 'trace', a, '--json']);
    expect(trace.exitCode, trace.stderr).toBe(0);
    expect(JSON.parse(trace.stdout)).toMatchObject({ agent: { id: a }, scope: { agent_id: a } });
    const from = emulator.requests.length;
    for (const [argv, said] of [
      [['--since', 'yesterday'], '--since "yesterday" is not an ISO 8601 date and time'],
      [['--since', '2026-05-01T09:00:00Z', '--recent-minutes', '5'], '--since cannot be combined with a recent-minutes window'],
      [['--since', '2026-05-01T09:00:00Z', '--until', '2026-05-09T09:00:00Z'], 'more than 7 days apart'],
      [['--since', '2026-05-02T09:00:00Z', '--until', '2026-05-01T09:00:00Z'], '--since must be earlier than until'],
      [['--limit', '51'], '--limit must be a whole number from 1 to 50, got 51'],
      [['--include', 'timeline,prompts'], '--include has no section prompts'],
      [['--eval-run', 'x'], '--eval-run "x" is not a UUID'],
    ] as const) {
      const result = await cli(['persistent', 'trace', a, ...argv]);
      expect(result.exitCode, argv.join(' ')).toBe(2);
      expect(result.stderr).toContain(said);
    }
    expect(mcpCalls(from)).toEqual([]);
  });
});

describe('an older deployment', () => {
  it('names the service version each command needs: no endpoint (404), or no such tool', async () => {
    const A = '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f';
    const old = await stub((_request, response) => sendJson(response, 404, { detail: 'Not found.' }));
    const run = against(old.baseUrl);
    for (const [argv, version] of [
      [['links'], '2.20.0'],
      [['files', A], '2.20.0'],
      [['settings'], '2.20.0'],
      [['trace', A], '2.21.0'],
      [['download', A, A, '-o', join(tempDir(), 'f')], '2.31.0'],
    ] as const) {
      const result = await run(['persistent', ...argv]);
      expect(result.exitCode, argv.join(' ')).toBe(1);
      expect(result.stderr).toContain(`gobii-platform ${version} or later has it`);
    }
    // 2.20 has the endpoint but not the trace: "Unknown tool".
    const older = await mcpStub({});
    const trace = await against(older.baseUrl)(['persistent', 'trace', A]);
    expect(trace.exitCode).toBe(1);
    expect(trace.stderr).toContain('has no gobii_get_agent_debug_trace tool on its MCP endpoint: gobii-platform 2.21.0 or later has it');
  });
});
