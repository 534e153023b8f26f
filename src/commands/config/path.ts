import type { CommandRun } from '../../cli/lazy.js';

export const run: CommandRun = async (ctx) => {
  const path = (await ctx.openConfig()).path;
  if (ctx.out.machine) ctx.out.json({ path });
  else ctx.out.line(path);
};
