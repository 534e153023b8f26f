// The ids a batch's creates were answered with are the service's text: one that is not a UUID is not
// followed (it would be put in the URLs of the polls), and one given to two lines is followed for one
// of them only (a task's outcome is reported once, so the other line would end without one). A UUID
// is one id in any case (`3F2B...` is `3f2b...`): ids are compared lower-cased.
import { isUuid } from '../contract/ids.js';
import { oneLine } from '../contract/text.js';

/** The most of an id that is not a UUID quoted in a message. */
const QUOTED = 80;

export class BatchIds {
  /** The line each id of this run was given to, by its lower-cased form. */
  private readonly lines = new Map<string, { line: number; id: string }>();

  /**
   * Why the task of `line` cannot be followed by `id` (undefined: it can, and the id is now the line's).
   * Said as the line's error: the create may exist, so the line is unknown, never sent again blindly.
   */
  problem(line: number, id: string): string | undefined {
    if (!isUuid(id)) {
      const shown = oneLine(id.length > QUOTED ? `${id.slice(0, QUOTED)}...` : id);
      return `the service answered the create with the id ${JSON.stringify(shown)}, which is not a UUID: the task may exist, but agentctl does not follow it; check \`agentctl tasks list\``;
    }
    const same = id.toLowerCase();
    const first = this.lines.get(same);
    if (first !== undefined && first.line !== line) {
      const as = first.id === id ? '' : ` (as ${first.id})`;
      return `the service answered the create with the id ${id}, which it gave line ${first.line} too${as}: that task is followed for line ${first.line}; check \`agentctl tasks list\` for this line's task`;
    }
    this.lines.set(same, { line, id });
    return undefined;
  }
}
