import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
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

// End-to-end tests run the built CLI, so build it from the current sources before any test, unless
// dist/ was already built from exactly these files (scripts/build-inputs.mjs).
export default function setup(project: TestProject): () => void {
  if (!(distIsCurrent as () => boolean)()) execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  const runId = `${process.pid}-${Date.now()}`;
  project.provide('runId', runId);
  // The run's shared files (the packed package) go with the run.
  return () => rmSync(sharedRunFolder('pack', runId), { recursive: true, force: true });
}
