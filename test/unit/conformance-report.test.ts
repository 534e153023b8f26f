import { describe, expect, it } from 'vitest';
import { capWords, conforms, junitReport, markdownReport, reportLines } from '../../src/conformance/report.js';
import type { ConformanceReport } from '../../src/conformance/run.js';

// The report's three forms with the deployment's text in them: what a hostile deployment writes
// (a field name, a value, its version) must not render as Markdown in a step summary, break the
// JUnit XML, or reach a terminal raw.

const HOSTILE = '![x](https://evil.example/p.png) <img src=x> | `code` \u001b[31m red\n## all passed';

function reportWith(text: string): ConformanceReport {
  return {
    base_url: 'https://agents.example/api/v1',
    service_version: text,
    emulator: 'the emulator',
    marker: 'agentctl-conformance-0123abcd',
    writes: false,
    cap: null,
    operations: [
      {
        name: 'persistent.get',
        summary: 'read it back',
        writes: false,
        outcome: 'fail',
        passed: 2,
        total: 3,
        checks: [{ what: 'GET /agents/{persistent}/: the same as the emulator', ok: false, seen: '1 difference' }],
        differences: [{ rule: 'field-extra', path: JSON.stringify(text), expected: '(none)', actual: JSON.stringify(text), request: 'GET /agents/{persistent}/' }],
      },
      { name: 'ping', summary: 'ping', writes: false, outcome: 'pass', passed: 3, total: 3, checks: [], differences: [] },
    ],
    score: { passed: 5, total: 6, percent: 83.3 },
    leftovers: { found: 0, removed: 0, failed: [] },
    cleanup: { removed: 0, failed: [] },
    interrupted: false,
  };
}

describe('the conformance report', () => {
  it("puts the deployment's text in the step summary only inside code spans, one line per row", () => {
    const markdown = markdownReport(reportWith(HOSTILE));
    for (const line of markdown.split('\n')) {
      // Outside code spans: nothing of the hostile text (no image, tag, heading or extra cell).
      const outside = line.replace(/(`+)[^`]*?(?:`(?!\1)[^`]*?)*\1/g, '');
      expect(outside).not.toMatch(/!\[|<img|evil|^## /);
    }
    expect(markdown).not.toContain('\n## all passed');
    expect(markdown.split('\n').find((line) => line.includes('`field-extra`'))?.split(/(?<!\\)\|/).length).toBe(9);
  });

  it('escapes it in JUnit XML', () => {
    const xml = junitReport(reportWith(HOSTILE));
    expect(xml).not.toContain('<img');
    expect(xml).not.toContain('\u001b');
    expect(xml).toContain('&lt;img src=x&gt;');
    expect(xml).toContain('tests="2" failures="1"');
  });

  it('gives a score per operation and fails the run on one difference', () => {
    const lines = reportLines(reportWith('gobii 2.31.0'));
    expect(lines[0]).toBe('Conformance of https://agents.example/api/v1 (gobii 2.31.0) against the emulator');
    expect(lines).toContain('fail         66%  persistent.get  2/3 checks');
    expect(lines).toContain('pass        100%  ping            3/3 checks');
    expect(conforms(reportWith('x'))).toBe(false);
  });

  it('says the cap in words', () => {
    expect(capWords({ 'legacy-agent': 1, 'persistent-agent': 1, task: 3 })).toBe('5 creates at most (1 browser-use agent, 1 persistent agent, 3 tasks)');
  });
});
