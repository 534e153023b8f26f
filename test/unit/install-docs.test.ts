import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// On the public npm registry, `agentctl` is another project's package (issue 47, item 5): no doc
// and no help text may tell a user to install it by that bare name from a registry we did not name.
const ROOT = join(import.meta.dirname, '..', '..');

function files(dir: string, ends: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(ends) && !entry.parentPath.includes('openapi'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

/** The npm commands of a text that install a package named `agentctl` with no registry named. */
function bareInstalls(text: string): string[] {
  // Up to the end of the command: a line end, a closing backtick, a pipe or list operator, or a comment.
  const commands = (text.match(/\b(?:npm|pnpm|yarn)\s+(?:install|i|add)\b[^\n`|;&#]*/g) ?? []).map((command) => command.trim());
  return commands.filter((command) => /(?:^|\s)(?:-g\s+|--global\s+|--save-dev\s+|-D\s+)*agentctl(?:@\S*)?(?=\s|$)/.test(command.replace(/^\S+\s+\S+/, '')) && !command.includes('--registry'));
}

describe('install instructions', () => {
  it('the check finds a bare install and lets a tarball or a named registry pass', () => {
    expect(bareInstalls('npm install agentctl\n')).toEqual(['npm install agentctl']);
    expect(bareInstalls('run `npm i -g agentctl` first')).toEqual(['npm i -g agentctl']);
    expect(bareInstalls('npm install --save-dev agentctl\n')).toHaveLength(1);
    expect(bareInstalls('npm install ./agentctl-0.1.0.tgz\nnpm install --global agentctl --registry https://npm.example.internal/\nnpm uninstall --global agentctl')).toEqual([]);
  });

  it('README, docs/, examples/ and help texts never install agentctl by its bare name from the public registry', () => {
    const found = ['README.md', ...files('docs', '.md'), ...files('src', '.ts'), ...files('examples', '.yml')].flatMap((file) =>
      bareInstalls(readFileSync(join(ROOT, file), 'utf8')).map((command) => `${file}: ${command}`),
    );
    expect(found).toEqual([]);
  });
});
