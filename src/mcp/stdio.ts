// The stdio transport of `agentctl mcp`: one JSON-RPC message per line on stdin, one per line on
// stdout (the MCP stdio transport). It does what the SDK's StdioServerTransport does, minus a zod
// parse of every message against the union of all JSON-RPC shapes: the SDK checks each request
// again against its method's own schema, and the tool's arguments are checked by the tool's schema,
// so a cheap shape check here is enough (~5 us of a tool call, docs/performance.md).
import type { Readable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { OutStream } from '../cli/io.js';
import { describeJsonError } from '../contract/json-error.js';

const MIB = 1024 * 1024;
/** The longest line read (characters); a longer one is dropped, as the SDK's transport does past 10 MiB. */
const MAX_LINE = 10 * MIB;

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The start of a line whose end has not arrived yet. */
  private partial = '';
  /** Until the next newline: the rest of a line too long to read. */
  private skipping = false;
  private closed = false;

  constructor(
    private readonly input: Readable,
    private readonly output: OutStream,
  ) {}

  private readonly onData = (chunk: string) => {
    let start = 0;
    for (let end = chunk.indexOf('\n'); end !== -1; start = end + 1, end = chunk.indexOf('\n', start)) {
      const piece = chunk.slice(start, end);
      if (this.skipping) this.skipping = false; // the end of a line too long to read
      else if (this.partial === '') this.receive(piece);
      else {
        const line = this.partial + piece;
        this.partial = '';
        this.receive(line);
      }
    }
    if (start < chunk.length && !this.skipping) this.keep(chunk.slice(start));
  };

  /** A last line without its newline is a line too. */
  private readonly onEnd = () => {
    if (this.partial !== '' && !this.skipping) this.receive(this.partial);
    this.partial = '';
  };

  private readonly onError = (error: Error) => this.onerror?.(error);

  async start(): Promise<void> {
    this.input.setEncoding('utf8');
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('error', this.onError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.output.write(`${JSON.stringify(message)}\n`)) return Promise.resolve();
    return new Promise((resolve) => this.output.once('drain', resolve));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('error', this.onError);
    this.partial = '';
    this.skipping = false;
    this.onclose?.();
  }

  private keep(text: string): void {
    this.partial += text;
    if (this.partial.length > MAX_LINE) {
      this.partial = '';
      this.skipping = true;
      this.refuse(INVALID_REQUEST, `Invalid Request: a line of more than ${MAX_LINE / MIB} MiB was dropped`);
    }
  }

  private receive(line: string): void {
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (line.trim() === '') return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch (error) {
      return this.refuse(PARSE_ERROR, `Parse error: the line is not JSON: ${describeJsonError(line, error)}`);
    }
    if (Array.isArray(message)) return this.refuse(INVALID_REQUEST, 'Invalid Request: batches are not supported, send one message per line');
    if (!isMessage(message)) return this.refuse(INVALID_REQUEST, 'Invalid Request: not a JSON-RPC 2.0 message');
    this.onmessage?.(message);
  }

  /**
   * Answers a line that is no message as JSON-RPC says, and reports it. No id: none could be read
   * (JSON-RPC's id null is no MCP request id, and the SDK's clients refuse it; they take none).
   */
  private refuse(code: number, message: string): void {
    this.output.write(`${JSON.stringify({ jsonrpc: '2.0', error: { code, message } })}\n`);
    this.onerror?.(new Error(message));
  }
}

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

/** A JSON-RPC 2.0 request, notification or response, by its shape (the SDK checks each kind's fields). */
function isMessage(value: unknown): value is JSONRPCMessage {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== '2.0') return false;
  if (typeof message.method === 'string') return true;
  return ('result' in message && 'id' in message) || 'error' in message;
}
