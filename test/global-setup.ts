import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { sep } from 'node:path';
import type { TestProject } from 'vitest/node';
import { sharedRunFolder } from './helpers/temp.js';
// @ts-expect-error: a build script (plain JavaScript, no declarations)
import { distIsCurrent } from '../scripts/build-inputs.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Names this run, e.g. for the one `npm pack` its tests share (test/helpers/pack.ts). */
    runId: string;
  }
}

// End-to-end tests (test/process/) run the built CLI, so build it from the current sources before
// any test, unless dist/ was already built from exactly these files (scripts/build-inputs.mjs) or
// the run has no such test (`npm run test:quick`, one file): a build takes ~8 s.
export default function setup(project: TestProject): () => void {
  if (runsProcessTests(project) && !(distIsCurrent as () => boolean)()) execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  const runId = `${process.pid}-${Date.now()}`;
  project.provide('runId', runId);
  // The run's shared files (the packed package) go with the run.
  return () => rmSync(sharedRunFolder('pack', runId), { recursive: true, force: true });
}

/** Whether this run has a file of test/process/ (true when vitest does not say which files it runs). */
function runsProcessTests(project: TestProject): boolean {
  // The files of the run, collected before the global setup (vitest's state is not a stable API).
  const paths = (project.vitest.state as { getPaths?: () => string[] } | undefined)?.getPaths?.() ?? [];
  return paths.length === 0 || paths.some((path) => path.split(sep).join('/').includes('/test/process/'));
}
