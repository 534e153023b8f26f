import { persistentAgents } from '../api/persistent-agents.js';
import { InputError } from '../errors.js';
import { previewSchedule } from '../core/schedule-preview.js';
import type { ClientCore } from './core.js';
import type { ScheduleApi } from './surface.js';
import { integer, optionalUuid } from './input.js';
import type { SchedulePreview } from './types.js';

export function scheduleApi(core: ClientCore): ScheduleApi {
  return {
    preview: (expression, options = {}) =>
      core.call(async () => {
        const count = options.count === undefined ? 5 : integer('count', options.count, 1, 1000);
        const from = options.from ?? new Date(core.clock?.now() ?? Date.now());
        if (!(from instanceof Date) || Number.isNaN(from.getTime())) throw new InputError('from', 'must be a valid Date');
        const agentId = optionalUuid('agentId', options.agentId);
        const preview = localPreview(expression, from, count);
        if (agentId) {
          const agent = await persistentAgents.get(core.api, agentId, { signal: options.signal });
          preview.service = await persistentAgents.previewSchedule(core.api, agentId, { name: agent.name, schedule: expression }, { signal: options.signal });
        }
        return preview;
      }),
  };
}

/** The core's offline preview; a non-string expression is refused as the core's other input errors are. */
function localPreview(expression: unknown, from: Date, count: number): SchedulePreview {
  if (typeof expression !== 'string') throw new InputError('expression', 'must be a string such as "@daily" or "0 9 * * mon-fri"');
  return previewSchedule(expression, from, count);
}
