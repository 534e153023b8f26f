import { legacyAgents } from '../api/legacy-agents.js';
import { LIMITS } from '../contract/validate.js';
import { agentsAsCodeApi } from './as-code.js';
import type { ClientCore } from './core.js';
import type { LegacyAgentsApi, ListOptions } from './surface.js';
import { legacyAgentBody } from '../core/legacy-agent-body.js';
import { integer, uuid } from './input.js';
import { flatten } from './walk.js';

export function legacyAgentsApi(core: ClientCore): LegacyAgentsApi {
  const { api, call } = core;
  return {
    create: (input, options = {}) => call(async () => await legacyAgents.create(api, legacyAgentBody(input, 'create'), options)),
    get: (id, options = {}) => call(async () => await legacyAgents.get(api, uuid('id', id), options)),
    list(options = {}) {
      const pageSize = pageSizeOf(options);
      return core.iterate(() => flatten(legacyAgents.listAll(api, { pageSize, signal: options.signal })));
    },
    update: (id, input, options = {}) => call(async () => await legacyAgents.update(api, uuid('id', id), legacyAgentBody(input, 'update'), options)),
    delete: (id, options = {}) => call(async () => void (await legacyAgents.delete(api, uuid('id', id), options))),
    ...agentsAsCodeApi(core),
  };
}

export function pageSizeOf(options: ListOptions): number | undefined {
  return options.pageSize === undefined ? undefined : integer('pageSize', options.pageSize, 1, LIMITS.pageSize);
}
