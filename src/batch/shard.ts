// `--shard auto`: which shard of a batch this CI job is, from the variables its engine sets for a
// parallel job. Each engine counts from its own base; the result is the 1-based `--shard i/n`.
import { UsageError } from '../errors.js';
import { MAX_SHARDS, type Shard } from './input.js';

interface Engine {
  name: string;
  index: string;
  /** The variable that holds the number of jobs (none: Kubernetes does not set one). */
  total?: string;
  /** What the engine's first job's index is. */
  base: 0 | 1;
}

/** `AGENTCTL_SHARD_INDEX=i`, i counted from 0 as GitHub Actions' strategy.job-index is (its expressions cannot add 1). */
export const SHARD_INDEX_VARIABLE = 'AGENTCTL_SHARD_INDEX';

/** Looked at in this order: the explicit variables first, then the engines. */
const ENGINES: Engine[] = [
  { name: SHARD_INDEX_VARIABLE, index: SHARD_INDEX_VARIABLE, base: 0 },
  { name: 'GitLab CI', index: 'CI_NODE_INDEX', total: 'CI_NODE_TOTAL', base: 1 },
  { name: 'CircleCI', index: 'CIRCLE_NODE_INDEX', total: 'CIRCLE_NODE_TOTAL', base: 0 },
  { name: 'Buildkite', index: 'BUILDKITE_PARALLEL_JOB', total: 'BUILDKITE_PARALLEL_JOB_COUNT', base: 0 },
  { name: 'Kubernetes Indexed Job', index: 'JOB_COMPLETION_INDEX', base: 0 },
];

/** `AGENTCTL_SHARD=i/n`: what `--shard i/n` means, i counted from 1. */
export const SHARD_VARIABLE = 'AGENTCTL_SHARD';
/** The number of shards where the engine does not say (Kubernetes), unless --shard-total. */
export const SHARD_TOTAL_VARIABLE = 'AGENTCTL_SHARD_TOTAL';

export interface DetectedShard {
  shard: Shard;
  /** For stderr: the engine and the variables read, e.g. `GitLab CI (CI_NODE_INDEX=2, CI_NODE_TOTAL=4)`. */
  source: string;
}

/** The shard this job runs, from its environment; a UsageError naming what was looked for when none says. */
export function detectShard(env: Record<string, string | undefined>, shardTotal?: number): DetectedShard {
  const explicit = env[SHARD_VARIABLE]?.trim();
  if (explicit) {
    const match = /^(\d+)\/(\d+)$/.exec(explicit);
    const index = Number(match?.[1]);
    const count = Number(match?.[2]);
    if (!match || index < 1 || count < 1 || index > count) {
      throw new UsageError(`${SHARD_VARIABLE}=${explicit} is not a shard: I counts from 1 (as --shard I/N), I of N`, GITHUB_HINT);
    }
    return resolved({ name: SHARD_VARIABLE, index: SHARD_VARIABLE, base: 1 }, match[1] ?? '', match[2] ?? '', shardTotal, `${SHARD_VARIABLE}=${explicit}`);
  }
  for (const engine of ENGINES) {
    const index = env[engine.index]?.trim();
    const total = engine.total ? env[engine.total]?.trim() : undefined;
    if (!index && total === '1') return { shard: { index: 1, count: 1 }, source: `${engine.name} (${engine.total}=1: not a parallel job)` };
    if (!index) continue;
    const fromEnv = shardTotal === undefined ? env[SHARD_TOTAL_VARIABLE]?.trim() : undefined;
    const count = total ?? (shardTotal !== undefined ? String(shardTotal) : fromEnv);
    if (!count) {
      const needs = engine.total ?? `--shard-total N or ${SHARD_TOTAL_VARIABLE}`;
      const what = engine.index === SHARD_INDEX_VARIABLE ? 'strategy.job-total in GitHub Actions' : "the Job's spec.completions";
      throw new UsageError(`--shard auto: ${engine.name} sets ${engine.index}=${index} but not the number of shards`, `give ${needs} (${what})`);
    }
    const read = [`${engine.index}=${index}`, engine.total ? `${engine.total}=${count}` : fromEnv ? `${SHARD_TOTAL_VARIABLE}=${count}` : `--shard-total ${count}`];
    const source = engine.name === engine.index ? read.join(', ') : `${engine.name} (${read.join(', ')})`;
    return resolved(engine, index, count, engine.total ? shardTotal : undefined, source);
  }
  const looked = [`${SHARD_VARIABLE} (1-based I/N)`, `${SHARD_INDEX_VARIABLE}/${SHARD_TOTAL_VARIABLE} (GitHub Actions)`, ...ENGINES.slice(1).map((engine) => [engine.index, engine.total].filter(Boolean).join('/'))];
  throw new UsageError(`--shard auto: no CI engine says which shard this job is; looked for ${looked.join(', ')}`, `outside such a job give --shard I/N; ${GITHUB_HINT}`);
}

/** How a GitHub Actions matrix job says which shard it is: its job index counts from 0. */
const GITHUB_HINT = `in GitHub Actions set ${SHARD_INDEX_VARIABLE}: \${{ strategy.job-index }} and ${SHARD_TOTAL_VARIABLE}: \${{ strategy.job-total }} (0-based)`;

function resolved(engine: Engine, indexText: string, countText: string, shardTotal: number | undefined, source: string): DetectedShard {
  const index = Number(indexText);
  const count = Number(countText);
  const first = engine.base;
  if (!/^\d+$/.test(indexText) || !/^\d+$/.test(countText) || count < 1 || index < first || index > count - 1 + first) {
    throw new UsageError(`--shard auto: ${source} is not a shard: the index must be ${first}..N${first === 0 ? '-1' : ''} of N jobs`);
  }
  // 1e23 jobs reads as a number, but not as an exact one: lines would go to shards that never run.
  if (count > MAX_SHARDS) throw new UsageError(`--shard auto: ${source} is not a shard: more than ${MAX_SHARDS} jobs`);
  if (shardTotal !== undefined && shardTotal !== count) {
    throw new UsageError(`--shard-total ${shardTotal} disagrees with ${source}`, 'leave --shard-total out where the engine says how many jobs there are');
  }
  return { shard: { index: index - first + 1, count }, source };
}
