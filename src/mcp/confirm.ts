// Asking the person at the client to confirm a destructive call (MCP elicitation), where the client
// offers it: a delete that takes more along, a cancel of many tasks. A client that cannot ask gets
// 'unavailable' and the call goes on: such clients confirm destructive tools themselves, by their
// destructiveHint annotation, before calling.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import { ExitCode, ExitError } from '../errors.js';

export type Confirmation = 'confirmed' | 'declined' | 'unavailable';

/** The yes/no form a confirmation asks. */
const FORM = { type: 'object' as const, properties: { confirm: { type: 'boolean' as const, title: 'Go ahead', default: true } } };

/** Asks `message` as a yes/no form; accept (without unticking the box) is a yes, decline or cancel a no. */
export async function askToConfirm(server: Server, message: string, request: { signal: AbortSignal; requestId: RequestId }): Promise<Confirmation> {
  if (!server.getClientCapabilities()?.elicitation?.form) return 'unavailable';
  // Related to the call, so that over HTTP the question travels on the call's own stream.
  const asking = server.elicitInput({ mode: 'form', message, requestedSchema: FORM }, { signal: request.signal, relatedRequestId: request.requestId });
  const answer = await asking.catch((error: unknown) => {
    if (request.signal.aborted) throw error;
    // Not a bug of ours, and not a yes: nothing is done without the answer.
    const why = error instanceof Error ? error.message : String(error);
    throw new ExitError(ExitCode.usage, `the client did not answer the confirmation, so nothing was done: ${why}`, 'ask the user, then call again');
  });
  return answer.action === 'accept' && answer.content?.confirm !== false ? 'confirmed' : 'declined';
}
