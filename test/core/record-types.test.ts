// The library's records (src/client/types.ts, plain interfaces: its users' type checks must not
// need zod) and the response schemas the client checks the service's answers with
// (src/api/schemas) describe the same records. Kept in step here at the type level: each pair must
// be assignable both ways, or `tsc --noEmit` (npm run lint) fails on this file. That is why the
// library hands the API layer's records on without a cast.
import { describe, expect, it } from 'vitest';
import type * as Legacy from '../../src/api/schemas/legacy-agent.js';
import type * as Persistent from '../../src/api/schemas/persistent-agent.js';
import type * as Tasks from '../../src/api/schemas/task.js';
import type * as Library from '../../src/client/types.js';

/** true when A and B are assignable to each other (each field of one is a field of the other, of a type it takes). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

// A record that drifts makes its line `false`, which this type refuses. (MessageResponse is the
// library's own: how a message went and its event, src/core/web-message.ts, not the REST answer.)
const IN_STEP: Record<string, true> = {
  Task: true as Same<Library.Task, Tasks.Task>,
  TaskResult: true as Same<Library.TaskResult, Tasks.TaskResult>,
  CancelResponse: true as Same<Library.CancelResponse, Tasks.CancelResponse>,
  Secrets: true as Same<Library.Secrets, Tasks.Secrets>,
  LegacyAgent: true as Same<Library.LegacyAgent, Legacy.LegacyAgent>,
  PersistentAgent: true as Same<Library.PersistentAgent, Persistent.PersistentAgent>,
  ActivationResponse: true as Same<Library.ActivationResponse, Persistent.ActivationResponse>,
  ProcessingStatus: true as Same<Library.ProcessingStatus, Persistent.ProcessingStatus>,
  WebTask: true as Same<Library.WebTask, Persistent.WebTask>,
  TimelineEvent: true as Same<Library.TimelineEvent, Persistent.TimelineEvent>,
  Timeline: true as Same<Library.Timeline, Persistent.Timeline>,
  ServiceSchedulePreview: true as Same<Library.ServiceSchedulePreview, Persistent.SchedulePreview>,
};

describe("the library's records and the response schemas (type-checked by tsc)", () => {
  it('name every record the library declares', () => {
    expect(Object.keys(IN_STEP)).toHaveLength(12);
    expect(Object.values(IN_STEP).every((same) => same)).toBe(true);
  });
});
