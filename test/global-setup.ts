import { execFileSync } from 'node:child_process';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Names this run, e.g. for the one `npm pack` its tests share (test/helpers/pack.ts). */
    runId: string;
  }
}

// End-to-end tests run the built CLI, so build it once from the current sources before any test.
export default function setup(project: TestProject): void {
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  project.provide('runId', `${process.pid}-${Date.now()}`);
}
