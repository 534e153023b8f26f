import { execFileSync } from 'node:child_process';
import type { TestProject } from 'vitest/node';
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
export default function setup(project: TestProject): void {
  if (!(distIsCurrent as () => boolean)()) execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  project.provide('runId', `${process.pid}-${Date.now()}`);
}
