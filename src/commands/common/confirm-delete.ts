import type { Context } from '../../cli/context.js';
import type { OptionSpec } from '../../cli/define.js';

export const YES_OPTION: OptionSpec = { flags: '-y, --yes', description: 'do not ask for confirmation (required without a terminal)' };

/** The help note of every `delete`: what each answer at its prompt does. */
export const DELETE_NOTES =
  'On a terminal it asks "[y/N]": only y or yes deletes. Any other answer, or Ctrl-D, prints\n' +
  '"Cancelled: nothing was deleted." and exits 2 (nothing was done); Ctrl-C the same, exit 130.';

/** Asks (or requires --yes), deletes, and says so: the same for every `delete`. */
export async function confirmAndDelete(
  ctx: Context,
  id: string,
  what: string,
  yes: boolean,
  remove: () => Promise<unknown>,
): Promise<void> {
  await ctx.confirm(`Delete ${what}?`, yes);
  await remove();
  ctx.out.answer({ id, deleted: true }, () => ctx.out.success(`Deleted ${what}.`));
}
