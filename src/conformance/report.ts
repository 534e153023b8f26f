import { markdownCode } from '../batch/merge.js';
import { junitCase, junitDocument } from '../output/junit.js';
import type { RecordKind } from './side.js';
import type { ConformanceReport, OperationResult } from './run.js';

// The conformance report as people read it (text lines), as CI reads it (JUnit), and as GitHub shows
// it (the step summary's Markdown). Every text the deployment wrote (error messages, field values,
// its version) is hostile: the text lines go through the output's sanitizer, JUnit escapes XML, and
// the Markdown puts it in code spans, where nothing renders.

const KIND_WORDS: Record<RecordKind, [string, string]> = {
  'legacy-agent': ['browser-use agent', 'browser-use agents'],
  'persistent-agent': ['persistent agent', 'persistent agents'],
  task: ['task', 'tasks'],
};

const counted = (count: number, [one, many]: [string, string]) => `${count} ${count === 1 ? one : many}`;

/** "5 creates at most (1 browser-use agent, 1 persistent agent, 3 tasks)": the cap, in words. */
export function capWords(planned: Record<RecordKind, number>): string {
  const total = Object.values(planned).reduce((sum, count) => sum + count, 0);
  const parts = (Object.entries(planned) as Array<[RecordKind, number]>).filter(([, count]) => count > 0).map(([kind, count]) => counted(count, KIND_WORDS[kind]));
  return `${total} create${total === 1 ? '' : 's'} at most (${parts.join(', ')})`;
}

const percent = (operation: OperationResult) => (operation.total === 0 ? '-' : `${Math.floor((operation.passed / operation.total) * 100)}%`);

/** The report as lines for people: a score per operation, then what differs, then the totals. */
export function reportLines(report: ConformanceReport): string[] {
  const lines = [`Conformance of ${report.base_url} (${report.service_version ?? 'version not told'}) against ${report.emulator}`, ''];
  const width = Math.max(...report.operations.map((operation) => operation.name.length), 10);
  for (const operation of report.operations) {
    lines.push(`${operation.outcome.padEnd(11)} ${percent(operation).padStart(4)}  ${operation.name.padEnd(width)}  ${operation.passed}/${operation.total} checks`);
    for (const check of operation.checks) if (!check.ok) lines.push(`    ${check.what}: got ${check.seen ?? 'something else'}`);
    for (const difference of operation.differences) lines.push(`    ${differenceLine(difference)}`);
    if (operation.error !== undefined) lines.push(`    ${operation.error}`);
  }
  lines.push('', ...summaryLines(report));
  return lines;
}

function differenceLine(difference: OperationResult['differences'][number]): string {
  const where = difference.path === '' ? '' : ` ${difference.path}`;
  const known = `${difference.known === undefined ? '' : ` (known: ${difference.known})`}${difference.ignored ? ' (ignored)' : ''}`;
  return `${difference.request}: ${difference.rule}${where}: the deployment ${difference.expected}, the emulator ${difference.actual}${known}`;
}

function summaryLines(report: ConformanceReport): string[] {
  const differences = report.operations.reduce((sum, operation) => sum + operation.differences.filter((d) => d.known === undefined && !d.ignored).length, 0);
  const lines = [`Score: ${report.score.passed}/${report.score.total} checks (${report.score.percent}%); ${differences} difference${differences === 1 ? '' : 's'} from the emulator.`];
  const { leftovers, cleanup } = report;
  if (leftovers.found > 0) {
    lines.push(report.writes ? `Removed ${leftovers.removed} of ${leftovers.found} records an earlier run left (marked ${markerPrefix(report.marker)}).` : `${leftovers.found} records an earlier run left (marked ${markerPrefix(report.marker)}); --allow-writes removes them.`);
  }
  if (report.writes) {
    const after = cleanup.removed === 0 ? 'none was left for the cleanup' : `the cleanup removed ${cleanup.removed} left at the end`;
    lines.push(`Created ${report.cap?.used ?? 0} records of at most ${report.cap?.limit ?? 0}; ${after}.`);
  }
  else if (cleanup.removed > 0) lines.push(`Removed ${cleanup.removed} record${cleanup.removed === 1 ? '' : 's'} the deployment made of input it should have refused.`);
  for (const failed of [...leftovers.failed, ...cleanup.failed]) lines.push(`Not removed: ${failed}`);
  if (report.interrupted) lines.push('Interrupted: the operations after the one in flight did not run.');
  return lines;
}

const markerPrefix = (marker: string) => `${marker.replace(/[0-9a-f]+$/, '')}*`;

/** Whether every check passed and nothing differs but what the emulator documents. */
export function conforms(report: ConformanceReport): boolean {
  return !report.interrupted && report.score.passed === report.score.total && report.operations.every((operation) => operation.outcome === 'pass' || operation.outcome === 'skipped');
}

/** One JUnit testcase per operation: a failure names each failed check and difference. */
export function junitReport(report: ConformanceReport): string {
  let failures = 0;
  const cases = report.operations.map((operation) => {
    if (operation.outcome === 'pass') return junitCase('agentctl.conformance', operation.name);
    if (operation.outcome === 'skipped') return junitCase('agentctl.conformance', operation.name, undefined, operation.error ?? 'skipped');
    failures++;
    const details = [...operation.checks.filter((check) => !check.ok).map((check) => `${check.what}: got ${check.seen ?? 'something else'}`), ...operation.differences.map(differenceLine)];
    if (operation.error !== undefined) details.push(operation.error);
    return junitCase('agentctl.conformance', operation.name, { type: operation.outcome, message: `${operation.outcome}: ${operation.passed}/${operation.total} checks`, detail: details.join('\n') });
  });
  return junitDocument('agentctl conformance', cases.join(''), report.operations.length, failures);
}

/** The GitHub step summary: the score, a row per operation, a row per difference; the deployment's text only in code spans. */
export function markdownReport(report: ConformanceReport): string {
  const version = report.service_version === null ? 'version not told' : markdownCode(report.service_version);
  const parts = [`### agentctl conformance: ${report.score.percent}% (${report.score.passed}/${report.score.total} checks)`, '', `${markdownCode(report.base_url)} (${version})`, ''];
  parts.push('| operation | outcome | checks |', '|---|---|---|');
  for (const operation of report.operations) parts.push(`| ${markdownCode(operation.name)} | ${operation.outcome} | ${operation.passed}/${operation.total} |`);
  const differences = report.operations.flatMap((operation) => operation.differences.map((difference) => ({ operation: operation.name, ...difference })));
  if (differences.length > 0) {
    parts.push('', '| operation | request | rule | where | deployment | emulator | known |', '|---|---|---|---|---|---|---|');
    for (const d of differences) {
      const cells = [d.operation, d.request, d.rule, d.path, d.expected, d.actual, d.known ?? (d.ignored ? 'ignored' : '')].map(markdownCode);
      parts.push(`| ${cells.join(' | ')} |`);
    }
  }
  if (report.interrupted) parts.push('', 'Interrupted before the end.');
  return `${parts.join('\n')}\n`;
}
