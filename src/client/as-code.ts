// Agents as code in the library: client.agents.plan and client.agents.apply, over the same engine
// as `agentctl plan` and `apply` (src/agents-as-code). The library has no terminal to ask at: apply
// needs `yes: true` or a `confirm` callback that sees the plan first.
import { applyFolder, planFiles, planFolder, planRecord } from '../agents-as-code/index.js';
import { systemClock } from '../contract/clock.js';
import { InputError } from '../errors.js';
import type { ClientCore } from './core.js';
import { nonEmptyString } from './input.js';
import type { AgentsApplyInput, AgentsAsCodeApi, AgentsPlanSource, PruneInput } from './surface.js';

export function agentsAsCodeApi(core: ClientCore): AgentsAsCodeApi {
  const { api, call } = core;
  return {
    plan: (source, options = {}) =>
      call(async () => {
        const signal = options.signal ?? core.signal;
        if (Array.isArray((source as { files?: unknown })?.files)) return planRecord(await planFiles(api, checkFiles(source), signal));
        return planRecord(await planFolder(api, { dir: nonEmptyString('dir', (source as { dir?: unknown })?.dir), prune: prune(options.prune), signal }));
      }),
    apply: (input, options = {}) =>
      call(async () => {
        const confirm = confirmOf(input);
        const signal = options.signal ?? core.signal;
        const result = await applyFolder(api, {
          dir: nonEmptyString('dir', input?.dir),
          prune: prune(input.prune),
          signal,
          // No process facts to trust here: a lock left behind is taken over once it stays untouched.
          owner: { process: { pid: 0, isRunning: () => true }, clock: core.clock ?? systemClock, signal, say: () => undefined },
          confirm: async (plan) => confirm(planRecord(plan)),
        });
        return { ...planRecord(result.plan), applied: result.outcomes ?? [] };
      }),
  };
}

function checkFiles(source: AgentsPlanSource): Array<{ file: string; text: string }> {
  const files = (source as { files: unknown[] }).files;
  return files.map((item, index) => {
    const { file, text } = (item ?? {}) as { file?: unknown; text?: unknown };
    if (typeof file !== 'string' || typeof text !== 'string') throw new InputError(`files[${index}]`, 'must be { file: string, text: string }');
    return { file, text };
  });
}

function prune(input: PruneInput | undefined) {
  if (input === undefined) return undefined;
  const names = input.names ?? [];
  if (!Array.isArray(names) || names.some((name) => typeof name !== 'string')) throw new InputError('prune.names', 'must be a list of agent names');
  return { created: input.created === true, names };
}

function confirmOf(input: AgentsApplyInput) {
  if (typeof input?.confirm === 'function') return input.confirm;
  if (input?.yes === true) return () => true;
  throw new InputError('yes', 'must be true (or give confirm: a function that sees the plan and answers): apply changes the service');
}
