import { execFileSync } from 'node:child_process';

// End-to-end tests run the built CLI, so build it once from the current sources before any test.
export default function setup(): void {
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
}
