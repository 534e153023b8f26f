import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compareAnswers, formatOf, judge, type CompareContext } from '../../src/conformance/diff.js';
import {
  KNOWN_DIFFERENCES,
  KNOWN_DIFFERENCES_END,
  KNOWN_DIFFERENCES_START,
  RULES,
  RULES_END,
  RULES_START,
  renderKnownDifferences,
  renderRules,
  replaceBetween,
  routeMatches,
} from '../../src/conformance/rules.js';

const A = '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f';
const B = '9a8b7c6d-1111-4222-8333-444455556666';
const A2 = '0e0e0e0e-aaaa-4bbb-8ccc-dddddddddddd';
const B2 = '1f1f1f1f-aaaa-4bbb-8ccc-dddddddddddd';
const get: CompareContext = { method: 'GET', ids: new Map([[A, A2], [B, B2]]), bases: { expected: 'https://gobii.example/api/v1', actual: 'http://127.0.0.1:4000/api/v1' } };
const task = (id: string, extra: Record<string, unknown> = {}) => ({ id, status: 'pending', created_at: '2026-03-02T10:00:00.123456Z', credits_cost: '0.10', ...extra });
const rules = (found: Array<{ rule: string; path: string }>) => found.map(({ rule, path }) => `${rule} ${path}`);

describe('the difference rules (src/conformance)', () => {
  it('finds nothing between two answers that differ only in ids, times and counts', () => {
    const expected = { status: 200, body: { count: 40, next: 'https://gobii.example/api/v1/tasks/browser-use/?page=2', previous: null, results: [task(A), task(B)] } };
    const actual = { status: 200, body: { count: 2, next: 'http://127.0.0.1:4000/api/v1/tasks/browser-use/?page=2', previous: null, results: [task(A2, { created_at: '2026-03-02T10:00:01Z' }), task(B2)] } };
    expect(compareAnswers(expected, actual, get)).toEqual([]);
  });

  it('a status: only that, the bodies are not compared', () => {
    expect(rules(compareAnswers({ status: 200, body: { a: 1 } }, { status: 404, body: { detail: 'Not found.' } }, get))).toEqual(['status ']);
  });

  it('a renamed field: one missing, one extra', () => {
    const renamed = { ...task(A2) } as Record<string, unknown>;
    renamed.state = renamed.status;
    delete renamed.status;
    expect(rules(compareAnswers({ status: 200, body: task(A) }, { status: 200, body: renamed }, get))).toEqual(['field-missing status', 'field-extra state']);
  });

  it('a type and formats: uuid, decimal places, timestamp precision and zone', () => {
    const actual = task(A2, { status: 3, credits_cost: '0.1', created_at: '2026-03-02T10:00:00.123Z' });
    expect(rules(compareAnswers({ status: 200, body: task(A) }, { status: 200, body: { ...actual, id: 'task-1' } }, get))).toEqual([
      'field-format id',
      'field-type status',
      'field-format created_at',
      'field-format credits_cost',
    ]);
    expect(formatOf('2026-03-02T10:00:00Z')).toBe(formatOf('2026-03-02T10:00:00.123456Z')); // isoformat() drops zero microseconds
    expect(formatOf('2026-03-02T10:00:00.123456+00:00')).not.toBe(formatOf('2026-03-02T10:00:00.123456Z'));
  });

  it("a default: a create's value for a field its request left out", () => {
    const post: CompareContext = { ...get, method: 'POST', requestBody: { prompt: 'x', wait: 0 } };
    const found = compareAnswers({ status: 201, body: task(A, { max_steps: 100, wait: 0 }) }, { status: 201, body: task(A2, { max_steps: 50, wait: 5 }) }, post);
    expect(rules(found)).toEqual(['default max_steps']);
    expect(found[0]).toMatchObject({ expected: '100', actual: '50' });
  });

  it('a record at another moment of its life (status differs) is compared by field names only', () => {
    const running = task(A, { status: 'in_progress', completed_at: null });
    const ended = task(A2, { status: 'completed', completed_at: '2026-03-02T10:05:00Z' });
    expect(compareAnswers({ status: 200, body: running }, { status: 200, body: ended }, get)).toEqual([]);
    expect(rules(compareAnswers({ status: 200, body: running }, { status: 200, body: { ...ended, extra: 1 } }, get))).toEqual(['field-extra extra']);
  });

  it('an ordering, by the ids both sides share; records the replay never made are left out', () => {
    const other = '77777777-aaaa-4bbb-8ccc-dddddddddddd';
    const found = compareAnswers({ status: 200, body: [task(other), task(A), task(B)] }, { status: 200, body: [task(B2), task(A2)] }, get);
    expect(rules(found)).toEqual(['ordering ']);
    expect(found[0]).toMatchObject({ expected: `${A}, ${B}`, actual: `${B}, ${A}` });
  });

  it('page links: there or null, and where they point below each base', () => {
    const page = (next: string | null) => ({ count: 1, next, previous: null, results: [] });
    expect(rules(compareAnswers({ status: 200, body: page('https://gobii.example/api/v1/tasks/browser-use/?page=2') }, { status: 200, body: page(null) }, get))).toEqual(['page-links next']);
    expect(rules(compareAnswers({ status: 200, body: page('https://gobii.example/api/v1/tasks/browser-use/?page=2') }, { status: 200, body: page('http://127.0.0.1:4000/api/v1/tasks/browser-use/?page=2&page_size=10') }, get))).toEqual([
      'page-links next',
    ]);
  });

  it('error text: messages compared, ids mapped, an error_id of no record ignored, HTML pages not', () => {
    const context = { ...get, method: 'POST' };
    expect(compareAnswers({ status: 400, body: { prompt: ['This field is required.'] } }, { status: 400, body: { prompt: ['This field is required.'] } }, context)).toEqual([]);
    expect(rules(compareAnswers({ status: 400, body: { prompt: ['This field is required.'] } }, { status: 400, body: { prompt: ['This field may not be blank.'] } }, context))).toEqual(['error-text prompt[0]']);
    expect(compareAnswers({ status: 404, body: { detail: `No ${A} here` } }, { status: 404, body: { detail: `No ${A2} here` } }, context)).toEqual([]);
    expect(compareAnswers({ status: 500, body: { detail: 'Internal server error.', error_id: B2 } }, { status: 500, body: { detail: 'Internal server error.', error_id: A } }, context)).toEqual([]);
    expect(compareAnswers({ status: 404, body: '<html>Django</html>' }, { status: 404, body: '<html>emulator</html>' }, context)).toEqual([]);
  });

  it('marks a difference the emulator documents with its id', () => {
    const found = compareAnswers({ status: 200, body: { name: 'Task List', actions: { POST: {} } } }, { status: 200, body: { name: 'Task List' } }, { method: 'OPTIONS' });
    expect(judge(found, 'OPTIONS', '/tasks/browser-use/')).toEqual([expect.objectContaining({ rule: 'field-missing', path: 'actions', known: 'options-actions' })]);
    expect(judge(found, 'GET', '/tasks/browser-use/')[0]?.known).toBeUndefined();
    expect(routeMatches('agents/browser-use/*/tasks/', `/agents/browser-use/${A}/tasks/`)).toBe(true);
    expect(routeMatches('agents/browser-use/*/tasks/', '/agents/browser-use/tasks/')).toBe(false);
  });

  it('the emulator documents its differences from this one list, and conformance.md its rules', () => {
    const emulatorPage = readFileSync(new URL('../../docs/emulator.md', import.meta.url), 'utf8');
    expect(replaceBetween(emulatorPage, KNOWN_DIFFERENCES_START, KNOWN_DIFFERENCES_END, renderKnownDifferences()), 'npm run docs rewrites docs/emulator.md').toBe(emulatorPage);
    const rulesPage = readFileSync(new URL('../../docs/conformance.md', import.meta.url), 'utf8');
    expect(replaceBetween(rulesPage, RULES_START, RULES_END, renderRules()), 'npm run docs rewrites docs/conformance.md').toBe(rulesPage);
    expect(new Set(KNOWN_DIFFERENCES.map((known) => known.id)).size).toBe(KNOWN_DIFFERENCES.length);
    for (const known of KNOWN_DIFFERENCES) if (known.rule) expect(RULES.map((rule) => rule.id)).toContain(known.rule);
  });
});
