import type { ApiClient } from '../../api/client.js';
import { SHAPES } from '../../api/schemas/shapes.js';

/** `GET /ping/`: the cheapest authenticated request, answering with the key's user. */
export async function ping(client: ApiClient): Promise<string | undefined> {
  const answer = await client.get('/ping/', { shape: SHAPES.ping });
  return answer.user;
}
