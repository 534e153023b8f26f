import type { CommandRun } from '../../cli/lazy.js';
import { setActive } from './activation.js';

export const run: CommandRun = (ctx, [id]) => setActive(ctx, id, true);
