import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// Every relative link of README.md and docs/**/*.md points at a file of the repository, and a link
// to a heading (`file.md#heading`, `#heading`) at a heading that exists, as GitHub names it.
const ROOT = join(import.meta.dirname, '..', '..');
const pages = ['README.md', ...readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.md')).map((file) => join('docs', file))];

/** The text outside fenced code blocks and inline code, where links and headings are. */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchors of a page's headings (inline code keeps its words in an anchor). */
function anchors(file: string): Set<string> {
  const text = readFileSync(join(ROOT, file), 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const [, title] of text.matchAll(/^#{1,6} (.*)$/gm)) {
    const slug = title!.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return result;
}

describe('the documentation links', () => {
  it.each(pages)('%s: every relative link points at an existing file and heading', (page) => {
    const text = readFileSync(join(ROOT, page), 'utf8');
    const broken: string[] = [];
    for (const [, target] of prose(text).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target!)) continue; // https:, mailto:
      const [path, anchor] = target!.split('#') as [string, string | undefined];
      const file = path === '' ? page : relative(ROOT, join(ROOT, dirname(page), decodeURIComponent(path)));
      if (file.startsWith('..') || !existsSync(join(ROOT, file))) {
        broken.push(`${target}: no such file`);
        continue;
      }
      if (anchor !== undefined && file.endsWith('.md') && statSync(join(ROOT, file)).isFile() && !anchors(file).has(anchor)) {
        broken.push(`${target}: no heading #${anchor} in ${file}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('finds the links it checks', () => {
    expect(prose(readFileSync(join(ROOT, 'README.md'), 'utf8')).match(/\]\(docs\//g)?.length).toBeGreaterThan(10);
  });
});
