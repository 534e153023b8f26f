import { describe, expect, it } from 'vitest';
import { detectShard } from '../../src/batch/shard.js';

describe('--shard auto', () => {
  it.each([
    ['GitLab counts from 1', { CI_NODE_INDEX: '1', CI_NODE_TOTAL: '4' }, { index: 1, count: 4 }],
    ['GitLab, last job', { CI_NODE_INDEX: '4', CI_NODE_TOTAL: '4' }, { index: 4, count: 4 }],
    ['GitLab without parallel is the whole file', { CI_NODE_TOTAL: '1' }, { index: 1, count: 1 }],
    ['CircleCI counts from 0', { CIRCLE_NODE_INDEX: '0', CIRCLE_NODE_TOTAL: '4' }, { index: 1, count: 4 }],
    ['Buildkite counts from 0', { BUILDKITE_PARALLEL_JOB: '3', BUILDKITE_PARALLEL_JOB_COUNT: '4' }, { index: 4, count: 4 }],
    ['Kubernetes counts from 0, total from the environment', { JOB_COMPLETION_INDEX: '2', AGENTCTL_SHARD_TOTAL: '4' }, { index: 3, count: 4 }],
    ['AGENTCTL_SHARD=I/N means --shard I/N: counted from 1', { AGENTCTL_SHARD: '1/4' }, { index: 1, count: 4 }],
    ['AGENTCTL_SHARD, last shard', { AGENTCTL_SHARD: '4/4' }, { index: 4, count: 4 }],
    ['GitHub Actions job-index counts from 0: AGENTCTL_SHARD_INDEX', { AGENTCTL_SHARD_INDEX: '0', AGENTCTL_SHARD_TOTAL: '4', GITHUB_ACTIONS: 'true' }, { index: 1, count: 4 }],
    ['AGENTCTL_SHARD_INDEX, last job', { AGENTCTL_SHARD_INDEX: '3', AGENTCTL_SHARD_TOTAL: '4' }, { index: 4, count: 4 }],
  ])('%s', (_name, env, shard) => {
    expect(detectShard(env).shard).toEqual(shard);
  });

  it('names the engine and the variables it read', () => {
    expect(detectShard({ CI_NODE_INDEX: '2', CI_NODE_TOTAL: '4' }).source).toBe('GitLab CI (CI_NODE_INDEX=2, CI_NODE_TOTAL=4)');
  });

  it('takes the Kubernetes total from --shard-total, and says what is missing without one', () => {
    expect(detectShard({ JOB_COMPLETION_INDEX: '3' }, 4).shard).toEqual({ index: 4, count: 4 });
    expect(() => detectShard({ JOB_COMPLETION_INDEX: '3' })).toThrow(/JOB_COMPLETION_INDEX=3 but not the number of shards/);
  });

  it('refuses an index outside its engine\'s range, and a --shard-total that disagrees', () => {
    expect(() => detectShard({ CI_NODE_INDEX: '0', CI_NODE_TOTAL: '4' })).toThrow(/index must be 1..N/);
    expect(() => detectShard({ CIRCLE_NODE_INDEX: '4', CIRCLE_NODE_TOTAL: '4' })).toThrow(/index must be 0..N-1/);
    expect(() => detectShard({ AGENTCTL_SHARD: '0/4' })).toThrow(/AGENTCTL_SHARD=0\/4 is not a shard: I counts from 1 \(as --shard I\/N\)/);
    expect(() => detectShard({ AGENTCTL_SHARD: '0/4' })).toThrow(expect.objectContaining({ hint: expect.stringContaining('AGENTCTL_SHARD_INDEX') }));
    expect(() => detectShard({ AGENTCTL_SHARD_INDEX: '4', AGENTCTL_SHARD_TOTAL: '4' })).toThrow(/index must be 0..N-1/);
    expect(() => detectShard({ AGENTCTL_SHARD_INDEX: '1' })).toThrow(/AGENTCTL_SHARD_INDEX=1 but not the number of shards/);
    expect(() => detectShard({ CI_NODE_INDEX: '1', CI_NODE_TOTAL: '4' }, 3)).toThrow(/--shard-total 3 disagrees/);
  });

  it('with no variables, exits 2 naming every variable it looked for', () => {
    let error: (Error & { exitCode?: number; hint?: string }) | undefined;
    try {
      detectShard({ GITHUB_ACTIONS: 'true' });
    } catch (failure) {
      error = failure as Error;
    }
    expect(error?.exitCode).toBe(2);
    for (const name of ['AGENTCTL_SHARD', 'AGENTCTL_SHARD_INDEX', 'CI_NODE_INDEX', 'CIRCLE_NODE_INDEX', 'BUILDKITE_PARALLEL_JOB', 'JOB_COMPLETION_INDEX']) expect(error?.message).toContain(name);
    expect(error?.hint).toContain('AGENTCTL_SHARD_INDEX: ${{ strategy.job-index }}');
  });
});
