import { describe, expect, it } from 'vitest';
import { useEmulator } from '../emulator/harness.js';

// The plan limits a user's test may need, off by default and turned on with `plan` (the emulator's
// --agent-limit and --task-credits): each as the service answers it (gobii-platform c9929bf).

const h = useEmulator({ plan: { agentLimit: 1, taskCredits: 2 } });

describe('plan limits (docs/emulator.md "Not simulated", --agent-limit, --task-credits)', () => {
  it('an agent past the limit is 400 non_field_errors (api/services/persistent_agents.py provision; api/serializers.py create)', async () => {
    const first = await h.api<{ id: string }>('POST', '/agents/', { name: 'plan one' });
    expect(await h.raw('POST', '/agents/', { name: 'plan two' })).toMatchObject({ status: 400, body: { non_field_errors: ['Agent limit reached for this user.'] } });
    // The limit counts agents alive: deleting one frees its place.
    await h.raw('DELETE', `/agents/${first.id}/`);
    expect((await h.raw('POST', '/agents/', { name: 'plan three' })).status).toBe(201);
  });

  it('task creates past the credits are 402 before the body is read (api/views.py BrowserUseAgentTaskViewSet.create)', async () => {
    for (let i = 0; i < 2; i++) expect((await h.raw('POST', '/tasks/browser-use/', { prompt: `paid ${i}` })).status).toBe(201);
    const refused = await h.raw('POST', '/tasks/browser-use/', undefined, { rawBody: '{not json' });
    expect(refused).toMatchObject({ status: 402, body: { message: 'User does not have enough task credits to create a new task.' } });
  });
});
