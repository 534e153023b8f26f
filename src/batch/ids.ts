// The ids a batch's creates were answered with are the service's text: one that is not a UUID is not
// followed (it would be put in the URLs of the polls), and one given to two lines is followed for one
// of them only (a task's outcome is reported once, so the other line would end without one).
import { isUuid } from '../contract/ids.js';
import { oneLine } from '../contract/text.js';

/** The most of an id that is not a UUID quoted in a message. */
const QUOTED = 80;

export class BatchIds {
  /** The line each id of this run was given to. */
  private readonly lines = new Map<string, number>();

  /**
   * Why the task of `line` cannot be followed by `id` (undefined: it can, and the id is now the line's).
   * Said as the line's error: the create may exist, so the line is unknown, never sent again blindly.
   */
  problem(line: number, id: string): string | undefined {
    if (!isUuid(id)) {
      const shown = oneLine(id.length > QUOTED ? `${id.slice(0, QUOTED)}...` : id);
      return `the service answered the create with the id ${JSON.stringify(shown)}, which is not a UUID: the task may exist, but agentctl does not follow it; check \`agentctl tasks list\``;
    }
    const first = this.lines.get(id);
    if (first !== undefined && first !== line) {
      return `the service answered the create with the id ${id}, which it gave line ${first} too: that task is followed for line ${first}; check \`agentctl tasks list\` for this line's task`;
    }
    this.lines.set(id, line);
    return undefined;
  }
}
