// What a tool's answer may carry for the revision of the protocol its client negotiated. Content
// blocks are a closed set in each revision: a client of an older one refuses the whole answer when
// a block has a type its revision does not know (the SDK's 1.11 Client refused tasks_create's for
// its resource_link). Fields an older revision lacks (structuredContent) stay: its results allow
// fields they do not name, and a client reads past them.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** resource_link blocks arrived in 2025-06-18; audio in 2025-03-26. */
const RESOURCE_LINKS_SINCE = '2025-06-18';
const AUDIO_SINCE = '2025-03-26';

type Block = CallToolResult['content'][number];

/** The answer as a client of `revision` may read it (revisions are dates: they compare as strings). */
export function forRevision(result: CallToolResult, revision: string): CallToolResult {
  if (revision >= RESOURCE_LINKS_SINCE) return result;
  return { ...result, content: result.content.flatMap((block) => downgrade(block, revision)) };
}

/** Whether answers for `revision` need forRevision (none do for the current revisions). */
export const needsDowngrade = (revision: string): boolean => revision < RESOURCE_LINKS_SINCE;

/** A block of a type `revision` lacks: a link becomes a line of text naming its URI; anything else is left out. */
function downgrade(block: Block, revision: string): Block[] {
  if (block.type === 'resource_link') {
    const about = block.description ? ` (${block.description})` : '';
    return [{ type: 'text', text: `${block.name}: ${block.uri}${about}; read it with resources/read.` }];
  }
  if (block.type === 'audio' && revision < AUDIO_SINCE) return [];
  return [block];
}
