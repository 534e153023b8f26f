import { SHAPES } from '../api/schemas/shapes.js';
import type { RecordKind, Side } from './side.js';

// The conformance suite's operations, in the order they run. Each sends the same requests to the
// deployment and to a fresh emulator; what each answer must be is what the service's code answers
// (gobii-platform 2.31, api/views.py and api/serializers.py, as docs/service-behaviour.md cites).
//
// The read-only ones change nothing: lists, gets, ids that do not exist, and bad input that the
// service refuses in the serializer's is_valid(), before perform_create() saves anything (a task
// create checks the task credits first: 402, nothing saved either). The ones that write run only
// with --allow-writes; their records carry the run's marker in their names (and tasks in their
// prompts), so a run that was stopped is cleaned up by the next.

/** What an operation knows of the run. */
export interface RunFacts {
  /** This run's marker (`agentctl-conformance-<random>`): every name and task prompt holds it. */
  marker: string;
  /** An id that names nothing on either side. */
  unknownId: string;
}

export interface Operation {
  /** `tasks.get-unknown`: the report's and JUnit's name of it. */
  name: string;
  summary: string;
  /** Creates, changes or deletes records: runs only with --allow-writes. */
  writes: boolean;
  /** The creates it sends at most, by kind (the cap is their sum). */
  creates?: Partial<Record<RecordKind, number>>;
  /**
   * Finds (on the deployment) or makes (on the emulator) a record the operation reads, under the
   * role its paths name; false when the deployment has none (the operation is then skipped).
   */
  prepare?: (side: Side, facts: RunFacts) => Promise<boolean>;
  run(side: Side, facts: RunFacts): Promise<void>;
}

/**
 * A prompt that asks for no work: a task a real deployment starts ends at once or is cancelled. Its
 * `[pending]` keeps an emulator's task queued until cancelled (the emulator's prompt marker), so a
 * run against an emulator of fast tasks cancels a task that is still running, as on a deployment.
 */
export const taskPrompt = (marker: string) => `${marker}: a conformance check of agentctl [pending]. Do nothing; answer "ok".`;

const LEGACY = '/agents/browser-use/';
const TASKS = '/tasks/browser-use/';
const PERSISTENT = '/agents/';
const AGENT_TASKS = '/agents/browser-use/{agent}/tasks/';

const READ_ONLY: Operation[] = [
  {
    name: 'ping',
    summary: 'GET /ping/ answers who the key belongs to',
    writes: false,
    run: async (side) => void (await side.send('GET', '/ping/', { expect: 200, shape: SHAPES.ping })),
  },
  {
    name: 'legacy-agents.list',
    summary: 'a page of browser-use agents',
    writes: false,
    run: async (side) => void (await side.send('GET', LEGACY, { query: { page_size: '5' }, expect: 200, shape: SHAPES.legacyAgentPage })),
  },
  {
    name: 'legacy-agents.get-unknown',
    summary: 'a browser-use agent that does not exist is 404',
    writes: false,
    run: async (side, { unknownId }) => void (await side.send('GET', `${LEGACY}${unknownId}/`, { expect: 404 })),
  },
  {
    name: 'legacy-agents.create-refused',
    summary: 'a blank name is refused (400) before anything is saved',
    writes: false,
    run: async (side) => void (await side.send('POST', LEGACY, { body: { name: '' }, expect: 400, refusedCreate: 'legacy-agent' })),
  },
  {
    name: 'tasks.list',
    summary: 'a page of tasks',
    writes: false,
    run: async (side) => void (await side.send('GET', TASKS, { query: { page_size: '5' }, expect: 200, shape: SHAPES.taskPage })),
  },
  {
    name: 'tasks.page-past-end',
    summary: 'a page past the last is 404 "Invalid page."',
    writes: false,
    run: async (side) => void (await side.send('GET', TASKS, { query: { page: '100000' }, expect: 404 })),
  },
  {
    name: 'tasks.get-unknown',
    summary: 'a task that does not exist is 404, and so is its result',
    writes: false,
    run: async (side, { unknownId }) => {
      await side.send('GET', `${TASKS}${unknownId}/`, { expect: 404 });
      await side.send('GET', `${TASKS}${unknownId}/result/`, { expect: 404 });
    },
  },
  {
    name: 'tasks.cancel-unknown',
    summary: 'cancelling a task that does not exist is 404',
    writes: false,
    run: async (side, { unknownId }) => void (await side.send('POST', `${TASKS}${unknownId}/cancel/`, { expect: 404 })),
  },
  {
    name: 'tasks.create-refused',
    summary: 'a negative wait, a webhook that is not http(s) and a schema that is no JSON Schema are refused (400)',
    writes: false,
    run: async (side, { marker }) => {
      const prompt = taskPrompt(marker);
      await side.send('POST', TASKS, { body: { prompt, wait: -1 }, expect: 400, refusedCreate: 'task' });
      await side.send('POST', TASKS, { body: { prompt, webhook: 'ftp://example.com/hook' }, expect: 400, refusedCreate: 'task' });
      await side.send('POST', TASKS, { body: { prompt, output_schema: { type: 'no-such-type' } }, expect: 400, refusedCreate: 'task' });
    },
  },
  {
    name: 'persistent.list',
    summary: 'a page of persistent agents',
    writes: false,
    run: async (side) => void (await side.send('GET', PERSISTENT, { query: { page_size: '5' }, expect: 200, shape: SHAPES.persistentAgentPage })),
  },
  {
    name: 'persistent.get-unknown',
    summary: 'a persistent agent that does not exist is 404, and so is its schedule preview',
    writes: false,
    run: async (side, { unknownId }) => {
      await side.send('GET', `${PERSISTENT}${unknownId}/`, { expect: 404 });
      await side.send('POST', `${PERSISTENT}${unknownId}/schedule/preview/`, { body: { schedule: '@daily' }, expect: 404 });
    },
  },
  {
    name: 'persistent.create-refused',
    summary: 'a whitelist policy that is no choice is refused (400) before anything is saved',
    writes: false,
    run: async (side, { marker }) =>
      void (await side.send('POST', PERSISTENT, { body: { name: `${marker}-refused`, charter: 'never saved', whitelist_policy: 'no-such-policy' }, expect: 400, refusedCreate: 'persistent-agent' })),
  },
  {
    name: 'persistent.schedule-preview',
    summary: "an existing agent's schedule preview: a valid schedule, a blank one, a bad one (400); nothing is saved",
    writes: false,
    prepare: existingPersistentAgent,
    run: async (side) => {
      const path = `${PERSISTENT}{existing}/schedule/preview/`;
      await side.send('POST', path, { body: { schedule: '@daily' }, expect: 200, shape: SHAPES.schedulePreview });
      await side.send('POST', path, { body: { schedule: '' }, expect: 200, shape: SHAPES.schedulePreview });
      await side.send('POST', path, { body: { schedule: 'every blue moon' }, expect: 400 });
    },
  },
];

/**
 * The deployment's first persistent agent (read, never changed), or on the emulator one made for
 * the comparison (the emulator is this run's own).
 */
async function existingPersistentAgent(side: Side, { marker }: RunFacts): Promise<boolean> {
  if (side.name === 'emulator') {
    const answer = await side.client.post<{ id: string }>(PERSISTENT, { name: `${marker}-existing`, charter: 'compared against' });
    side.ids.set('existing', answer.id);
    return true;
  }
  const page = await side.client.get<{ results?: Array<{ id?: unknown }> }>(PERSISTENT, { query: { page_size: 1 } });
  const id = page.results?.[0]?.id;
  if (typeof id !== 'string') return false;
  side.ids.set('existing', id);
  return true;
}

const WRITES: Operation[] = [
  {
    name: 'legacy-agents.create',
    summary: 'create a browser-use agent (named with the marker)',
    writes: true,
    creates: { 'legacy-agent': 1 },
    run: async (side, { marker }) =>
      void (await side.send('POST', LEGACY, { body: { name: `${marker}-legacy` }, expect: 201, shape: SHAPES.legacyAgent, creates: 'legacy-agent', as: 'agent' })),
  },
  {
    name: 'legacy-agents.get',
    summary: 'read it back, and rename it',
    writes: true,
    run: async (side, { marker }) => {
      await side.send('GET', `${LEGACY}{agent}/`, { expect: 200, shape: SHAPES.legacyAgent });
      await side.send('PATCH', `${LEGACY}{agent}/`, { body: { name: `${marker}-legacy-renamed` }, expect: 200, shape: SHAPES.legacyAgent });
    },
  },
  {
    name: 'tasks.create',
    summary: "create two tasks below the agent and one of the user's own (no wait)",
    writes: true,
    creates: { task: 3 },
    run: async (side, { marker }) => {
      // No `wait`: the service's `wait: 0` waits without end (Celery's AsyncResult.wait(timeout=0)).
      const body = { prompt: taskPrompt(marker) };
      for (const as of ['task1', 'task2']) {
        await side.send('POST', AGENT_TASKS, { body, expect: 201, shape: SHAPES.task, creates: 'task', as, agentRole: 'agent' });
      }
      await side.send('POST', TASKS, { body, expect: 201, shape: SHAPES.task, creates: 'task', as: 'task3' });
    },
  },
  {
    name: 'tasks.get',
    summary: "read the tasks back: one by one and as the agent's page",
    writes: true,
    run: async (side) => {
      await side.send('GET', `${AGENT_TASKS}{task1}/`, { expect: 200, shape: SHAPES.task });
      await side.send('GET', `${TASKS}{task3}/`, { expect: 200, shape: SHAPES.task });
      await side.send('GET', AGENT_TASKS, { expect: 200, shape: SHAPES.taskPage });
    },
  },
  {
    name: 'tasks.cancel',
    summary: 'cancel each task, then once more (409)',
    writes: true,
    run: async (side) => {
      await side.send('POST', `${AGENT_TASKS}{task1}/cancel/`, { expect: 200, shape: SHAPES.cancel });
      await side.send('POST', `${AGENT_TASKS}{task2}/cancel/`, { expect: 200, shape: SHAPES.cancel });
      await side.send('POST', `${TASKS}{task3}/cancel/`, { expect: 200, shape: SHAPES.cancel });
      await side.send('POST', `${TASKS}{task3}/cancel/`, { expect: 409 });
    },
  },
  {
    name: 'tasks.delete',
    summary: 'delete each task; a deleted one is 404',
    writes: true,
    run: async (side) => {
      await side.send('DELETE', `${AGENT_TASKS}{task1}/`, { expect: 204, deletes: 'task1' });
      await side.send('DELETE', `${AGENT_TASKS}{task2}/`, { expect: 204, deletes: 'task2' });
      await side.send('DELETE', `${TASKS}{task3}/`, { expect: 204, deletes: 'task3' });
      await side.send('GET', `${TASKS}{task3}/`, { expect: 404 });
    },
  },
  {
    name: 'persistent.create',
    summary: 'create an inactive persistent agent (named with the marker)',
    writes: true,
    creates: { 'persistent-agent': 1 },
    run: async (side, { marker }) => {
      const body = { name: `${marker}-persistent`, charter: `${marker}: a throw-away agent of a conformance check; do nothing.`, is_active: false };
      await side.send('POST', PERSISTENT, { body, expect: 201, shape: SHAPES.persistentAgent, creates: 'persistent-agent', as: 'persistent' });
    },
  },
  {
    name: 'persistent.get',
    summary: "read it back and preview a schedule on it",
    writes: true,
    run: async (side) => {
      await side.send('GET', `${PERSISTENT}{persistent}/`, { expect: 200, shape: SHAPES.persistentAgent });
      await side.send('POST', `${PERSISTENT}{persistent}/schedule/preview/`, { body: { schedule: '0 9 * * 1-5' }, expect: 200, shape: SHAPES.schedulePreview });
    },
  },
  {
    name: 'persistent.delete',
    summary: 'delete it; a deleted one is 404',
    writes: true,
    run: async (side) => {
      await side.send('DELETE', `${PERSISTENT}{persistent}/`, { expect: 204, deletes: 'persistent' });
      await side.send('GET', `${PERSISTENT}{persistent}/`, { expect: 404 });
    },
  },
  {
    name: 'legacy-agents.delete',
    summary: 'delete the browser-use agent; a deleted one is 404',
    writes: true,
    run: async (side) => {
      await side.send('DELETE', `${LEGACY}{agent}/`, { expect: 204, deletes: 'agent' });
      await side.send('GET', `${LEGACY}{agent}/`, { expect: 404 });
    },
  },
];

/** Every operation, read-only first. */
export const OPERATIONS: readonly Operation[] = [...READ_ONLY, ...WRITES];

/** The creates a run with writes sends at most: the cap, printed before the first. */
export function plannedCreates(operations: readonly Operation[]): Record<RecordKind, number> {
  const planned: Record<RecordKind, number> = { 'legacy-agent': 0, 'persistent-agent': 0, task: 0 };
  for (const operation of operations) {
    for (const [kind, count] of Object.entries(operation.creates ?? {})) planned[kind as RecordKind] += count;
  }
  return planned;
}
