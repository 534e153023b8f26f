// Which tools a server offers (--read-only, --toolsets, --tools, --exclude-tools) under which names
// (--tool-prefix), and how a client sees each: its input schema, its output schema, annotations.
import type { Tool as ToolDefinition } from '@modelcontextprotocol/sdk/types.js';
import { inputJsonSchema, outputJsonSchema } from './schema.js';
import { TOOLS } from './tools/index.js';
import type { Tool, ToolSettings, Toolset } from './tool.js';
import { DEFAULT_TOOLSETS } from './options.js';

export interface Selection {
  /** Only tools that change nothing. */
  readOnly: boolean;
  /** Only the tools of these groups (without: DEFAULT_TOOLSETS, and any tool --tools names). */
  toolsets?: readonly Toolset[];
  /** Only these tools (after the rest). */
  allow?: readonly string[];
  /** Never these tools. */
  exclude?: readonly string[];
}

export const TOOL_NAMES = (): string[] => TOOLS.map((tool) => tool.name);

/** Whether the toolsets chosen hold the tool: those named, else the default ones and any tool --tools names. */
function inToolsets(tool: Tool, selection: Selection): boolean {
  if (selection.toolsets !== undefined) return selection.toolsets.includes(tool.toolset);
  return DEFAULT_TOOLSETS.includes(tool.toolset) || Boolean(selection.allow?.includes(tool.name));
}

/** The tools a server with this selection offers. */
export function selectTools(selection: Selection): Tool[] {
  return TOOLS.filter(
    (tool) =>
      (!selection.readOnly || tool.kind === 'read') &&
      inToolsets(tool, selection) &&
      (selection.allow === undefined || selection.allow.includes(tool.name)) &&
      !selection.exclude?.includes(tool.name),
  );
}

/**
 * What a failed call's structuredContent holds: { error: { name, exit_code, meaning, message, ... } }
 * (FailureDetails in failure.ts; the server's instructions and docs/mcp.md give the fields). Only its
 * shape is checked here: written out in full it was 29% of the tool list, the same ~480 characters
 * in every tool, for a validator that only needs to tell an error from the data.
 */
const ERROR_SCHEMA = { required: ['error'] };

const outputSchemas = new Map<Tool, ToolDefinition['outputSchema']>();

/**
 * A tool's outputSchema: its data's schema (the zod schema its answers are built from, often the one
 * the client checks the service's answer with), or an error. Built once per tool.
 */
function outputSchema(tool: Tool): ToolDefinition['outputSchema'] {
  let schema = outputSchemas.get(tool);
  if (!schema) {
    // The data's own type: 'object' is said once, at the top (every answer is an object).
    const { type: _, ...data } = outputJsonSchema(tool.output);
    schema = { type: 'object', anyOf: [data, ERROR_SCHEMA] } as ToolDefinition['outputSchema'];
    outputSchemas.set(tool, schema);
  }
  return schema;
}

const inputSchemas = new Map<Tool, ToolDefinition['inputSchema']>();

/** A tool's inputSchema: built once per tool, or per server when it depends on the settings. */
function inputSchema(tool: Tool, settings: ToolSettings): ToolDefinition['inputSchema'] {
  if (typeof tool.input === 'function') return inputJsonSchema(tool.input(settings)) as ToolDefinition['inputSchema'];
  let schema = inputSchemas.get(tool);
  if (!schema) {
    schema = inputJsonSchema(tool.input) as ToolDefinition['inputSchema'];
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
    inputSchema: inputSchema(tool, settings),
    outputSchema: outputSchema(tool),
    annotations: {
      title: tool.title,
      readOnlyHint: readOnly,
      destructiveHint: tool.kind === 'destructive',
      idempotentHint: readOnly || Boolean(tool.idempotent),
      // The specification's default is true (the service is the open world): said only for an offline tool.
      ...(tool.openWorld === false ? { openWorldHint: false } : {}),
    },
  };
}
