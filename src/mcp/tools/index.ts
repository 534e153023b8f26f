// Every tool of `agentctl mcp`, in the order tools/list shows them.
import type { Tool } from '../tool.js';
import { AGENT_TOOL_TOOLS } from './agent-tools.js';
import { AGENT_TOOLS } from './agents.js';
import { AS_CODE_TOOLS } from './as-code.js';
import { PERSISTENT_TOOLS } from './persistent.js';
import { SCHEDULE_TOOLS } from './schedule.js';
import { TASK_TOOLS } from './tasks.js';

export const TOOLS: Tool[] = [...TASK_TOOLS, ...AGENT_TOOLS, ...PERSISTENT_TOOLS, ...SCHEDULE_TOOLS, ...AGENT_TOOL_TOOLS, ...AS_CODE_TOOLS] as unknown as Tool[];
