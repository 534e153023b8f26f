import { describe, expect, it } from 'vitest';
import { ApiError, describeErrorBody, summariseText } from '../../src/api/errors.js';

describe('describeErrorBody renders every error shape of the service as readable lines', () => {
  it.each([
    ['field errors', { name: ['This field is required.'], non_field_errors: ['Duplicate.'] }, ['name: This field is required.', 'Duplicate.']],
    ['bare array', ['Something is wrong.'], ['Something is wrong.']],
    ['detail', { detail: 'Not found.' }, ['Not found.']],
    ['credits', { message: 'User does not have enough task credits' }, ['User does not have enough task credits']],
    [
      'agent inactive',
      { code: 'agent_inactive', message: 'Agent is paused.', reactivation_url: 'http://x/r' },
      ['Agent is paused. (agent_inactive)', 'reactivation url: http://x/r'],
    ],
    ['server error', { detail: 'Internal server error.', error_id: 'abc' }, ['Internal server error.', 'error id: abc']],
    ['nested', { secrets: { 'https://a.example': ['Too long.'] } }, ['secrets.https://a.example: Too long.']],
  ])('%s', (_name, body, lines) => {
    expect(describeErrorBody(body)).toEqual(lines);
  });

  it('reduces an HTML page to its title', () => {
    expect(summariseText('<html><head><title>502 Bad Gateway</title></head><body><h1>502</h1></body></html>')).toBe(
      '502 Bad Gateway (non-JSON response)',
    );
    expect(summariseText('<html><body><h1>Not Found</h1><p>The page</p></body></html>')).toBe('Not Found The page (non-JSON response)');
  });
});

describe('ApiError picks the exit code of the contract', () => {
  it.each([
    [401, { detail: 'whatever' }, 3],
    [403, { detail: 'Invalid API key' }, 3],
    [403, { detail: 'Authentication credentials were not provided.' }, 3],
    [403, { detail: 'You may not message this agent.' }, 1],
    [404, { detail: 'Not found.' }, 4],
    [404, '<html>nope</html>', 4],
    [400, { name: ['bad'] }, 1],
    [402, { message: 'no credits' }, 1],
    [409, { detail: 'Task is already completed and cannot be cancelled.' }, 1],
    [500, { detail: 'Internal server error.' }, 1],
    [502, '<html><title>Bad Gateway</title></html>', 1],
  ])('%i %j -> exit %i', (status, body, code) => {
    expect(new ApiError(status, body, 'GET', 'http://x/').exitCode).toBe(code);
  });

  it('puts the body in the message', () => {
    expect(new ApiError(400, { name: ['too long'] }, 'POST', 'http://x/').message).toBe(
      'the service answered 400 (invalid request): name: too long',
    );
  });
});
