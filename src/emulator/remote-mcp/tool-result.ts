import type { Args } from './args.js';
import type { McpServices } from './context.js';

// What a tool answers (remote_mcp.py MCPToolResponse, make_tool_result, _with_resource_links): the
// result's text is the structured content as Python's json.dumps(indent=2) writes it, followed by
// any content of its own (resource links, a file).

/** MCPToolResponse: structured content with extra content items after the text. */
export class ToolResponse {
  constructor(
    readonly structured: Record<string, unknown>,
    readonly content: Record<string, unknown>[] = [],
  ) {}
}

export type ToolOutput = Record<string, unknown> | ToolResponse;
export type ToolHandler = (services: McpServices, args: Args, url: URL) => ToolOutput | Promise<ToolOutput>;

/** make_tool_result. */
export function toolResult(output: ToolOutput, isError = false): Record<string, unknown> {
  const structured = output instanceof ToolResponse ? output.structured : output;
  const extra = output instanceof ToolResponse ? output.content : [];
  return { content: [{ type: 'text', text: pythonIndented(structured) }, ...extra], structuredContent: structured, isError };
}

/** json.dumps(value, indent=2): JSON.stringify's layout, with ensure_ascii's \uXXXX escapes. */
export function pythonIndented(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * _with_resource_links: every distinct `resource_uri` in the payload becomes a resource_link item,
 * named by its filename, name or path, with its MIME type and size when known.
 */
export function withResourceLinks(payload: Record<string, unknown>): ToolResponse {
  const links: Record<string, unknown>[] = [];
  const seen = new Set<string>();
  for (const item of walkObjects(payload)) {
    const uri = item.resource_uri;
    if (typeof uri !== 'string' || uri === '' || seen.has(uri)) continue;
    seen.add(uri);
    const name = [item.filename, item.name, item.path].find((value) => typeof value === 'string' && value !== '') ?? 'Gobii agent file';
    const link: Record<string, unknown> = { type: 'resource_link', uri, name };
    if (typeof item.mime_type === 'string' && item.mime_type !== '') link.mimeType = item.mime_type;
    if (Number.isInteger(item.size_bytes) && (item.size_bytes as number) >= 0) link.size = item.size_bytes;
    links.push(link);
  }
  return new ToolResponse(payload, links);
}

function* walkObjects(value: unknown): Generator<Record<string, unknown>> {
  if (Array.isArray(value)) for (const child of value) yield* walkObjects(child);
  else if (value !== null && typeof value === 'object') {
    yield value as Record<string, unknown>;
    for (const child of Object.values(value)) yield* walkObjects(child);
  }
}
