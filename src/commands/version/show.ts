import { defineCommand } from '../../cli/define.js';
import { LOCAL_EXITS } from '../../cli/exit-codes.js';
import { VERSION } from '../../contract/version.js';

export const command = defineCommand({
  name: 'version',
  summary: 'print the version of agentctl and of the Node.js it runs on (--version prints the bare number)',
  exitCodes: LOCAL_EXITS,
  examples: ['agentctl version', 'agentctl --version            # the bare number, for scripts', 'agentctl version --json'],
  parse: () => ({}),
  async run(_options, ctx) {
    const answer = { version: VERSION, runtime: ctx.io.runtime };
    ctx.out.answer(answer, () => ctx.out.line(`agentctl version ${VERSION} (${ctx.io.runtime})`));
  },
});
