import { persistentAgents } from '../api/persistent-agents.js';
import { namedAs } from '../core/fields.js';
import { previewRequest, previewSchedule, serviceScheduleBody } from '../core/schedule-preview.js';
import type { ClientCore } from './core.js';
import type { ScheduleApi } from './surface.js';
import type { SchedulePreview } from './types.js';

/** The library's options named otherwise than the core's fields. */
const FIELDS = { agent_id: 'agentId' } as const;

export function scheduleApi(core: ClientCore): ScheduleApi {
  return {
    preview: (expression, options = {}) =>
      core.call(async () => {
        const now = new Date(core.clock?.now() ?? Date.now());
        const request = namedAs(FIELDS, () => previewRequest({ expression, count: options.count, from: options.from, agent_id: options.agentId }, now));
        const preview: SchedulePreview = previewSchedule(request.expression, request.from, request.count);
        if (request.agentId) {
          const agent = await persistentAgents.get(core.api, request.agentId, { signal: options.signal });
          preview.service = await persistentAgents.previewSchedule(core.api, request.agentId, serviceScheduleBody(agent.name, expression), { signal: options.signal });
        }
        return preview;
      }),
  };
}
