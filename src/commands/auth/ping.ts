import type { ApiClient } from '../../api/client.js';
import { PingSchema } from '../../api/schemas/common.js';

/** `GET /ping/`: the cheapest authenticated request, answering with the key's user. */
export async function ping(client: ApiClient): Promise<string | undefined> {
  const answer = await client.get('/ping/', { schema: PingSchema });
  return answer.user;
}
