// Asking the person at the client to confirm a destructive call (MCP elicitation), where the client
// offers it: a delete that takes more along, a cancel of many tasks. A client that cannot ask gets
// 'unavailable' and the call goes on: such clients confirm destructive tools themselves, by their
// destructiveHint annotation, before calling.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';

export type Confirmation = 'confirmed' | 'declined' | 'unavailable';

/** Asks `message` as a yes/no form; accept (without unticking the box) is a yes, decline or cancel a no. */
export async function askToConfirm(server: Server, message: string, request: { signal: AbortSignal; requestId: RequestId }): Promise<Confirmation> {
  if (!server.getClientCapabilities()?.elicitation?.form) return 'unavailable';
  const answer = await server.elicitInput(
    {
      mode: 'form',
      message,
      requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean', title: 'Go ahead', default: true } } },
    },
    // Related to the call, so that over HTTP the question travels on the call's own stream.
    { signal: request.signal, relatedRequestId: request.requestId },
  );
  return answer.action === 'accept' && answer.content?.confirm !== false ? 'confirmed' : 'declined';
}
