// Which tools a server offers (--read-only, --toolsets, --tools, --exclude-tools) under which names
// (--tool-prefix), and how a client sees each: its input schema, its output schema, annotations.
import type { Tool as ToolDefinition } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { TOOLS } from './tools/index.js';
import type { Tool, ToolSettings, Toolset } from './tool.js';

export interface Selection {
  /** Only tools that change nothing. */
  readOnly: boolean;
  /** Only the tools of these groups. */
  toolsets?: readonly Toolset[];
  /** Only these tools (after the rest). */
  allow?: readonly string[];
  /** Never these tools. */
  exclude?: readonly string[];
}

export const TOOL_NAMES = (): string[] => TOOLS.map((tool) => tool.name);

/** The tools a server with this selection offers. */
export function selectTools(selection: Selection): Tool[] {
  return TOOLS.filter(
    (tool) =>
      (!selection.readOnly || tool.kind === 'read') &&
      (selection.toolsets === undefined || selection.toolsets.includes(tool.toolset)) &&
      (selection.allow === undefined || selection.allow.includes(tool.name)) &&
      !selection.exclude?.includes(tool.name),
  );
}

/** What every failed call's structuredContent holds. */
const ERROR_SCHEMA = {
  type: 'object',
  properties: {
    error: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        exit_code: { type: 'integer' },
        meaning: { type: 'string' },
        message: { type: 'string' },
        hint: { type: 'string' },
        field: { type: 'string' },
        next_tool: { type: 'string' },
        status: { type: 'integer' },
        retry_after_seconds: { type: 'number' },
        retry_at: { type: 'string' },
      },
      required: ['name', 'exit_code', 'meaning', 'message'],
    },
  },
  required: ['error'],
};

/** What an answer too large to return holds instead. */
const TRUNCATED_SCHEMA = {
  type: 'object',
  properties: { truncated: { const: true }, size_chars: { type: 'integer' }, hint: { type: 'string' } },
  required: ['truncated', 'size_chars', 'hint'],
};

const outputSchemas = new Map<Tool, ToolDefinition['outputSchema']>();

/**
 * A tool's outputSchema: its data's schema (the zod schema its answers are built from, often the one
 * the client checks the service's answer with), or an error, or a note that the answer was too large.
 * Draft-07 without $schema: what the clients' validators (ajv's default) read. Built once per tool.
 */
function outputSchema(tool: Tool): ToolDefinition['outputSchema'] {
  let schema = outputSchemas.get(tool);
  if (!schema) {
    const { $schema: _, ...data } = z.toJSONSchema(tool.output as z.ZodType, { io: 'output', target: 'draft-7', unrepresentable: 'any' }) as Record<string, unknown>;
    schema = { type: 'object', anyOf: [data, ERROR_SCHEMA, TRUNCATED_SCHEMA] } as ToolDefinition['outputSchema'];
    outputSchemas.set(tool, schema);
  }
  return schema;
}

const inputSchemas = new Map<Tool, ToolDefinition['inputSchema']>();

function inputSchema(tool: Tool): ToolDefinition['inputSchema'] {
  let schema = inputSchemas.get(tool);
  if (!schema) {
    schema = z.toJSONSchema(tool.input, { io: 'input' }) as ToolDefinition['inputSchema'];
    inputSchemas.set(tool, schema);
  }
  return schema;
}

/** How a client sees a tool, under the name it is offered by. */
export function definition(tool: Tool, name: string, settings: ToolSettings): ToolDefinition {
  const readOnly = tool.kind === 'read';
  return {
    name,
    title: tool.title,
    description: typeof tool.description === 'string' ? tool.description : tool.description(settings),
    inputSchema: inputSchema(tool),
    outputSchema: outputSchema(tool),
    annotations: {
      title: tool.title,
      readOnlyHint: readOnly,
      destructiveHint: tool.kind === 'destructive',
      idempotentHint: readOnly || Boolean(tool.idempotent),
      openWorldHint: tool.openWorld ?? true,
    },
  };
}
