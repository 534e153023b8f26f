import { readFile, stat, writeFile } from 'node:fs/promises';
import type { Context } from '../../cli/context.js';
import { defineCommand, type ParseInput } from '../../cli/define.js';
import { ExitCode, UsageError } from '../../errors.js';
import { junitCase, junitDocument } from '../../output/junit.js';
import { sanitizeLine } from '../../output/sanitize.js';
import { KNOWN_DIFFERENCE_IDS, RULE_IDS, RULES } from '../../conformance/rules.js';
import type { JudgedDifference } from '../../conformance/diff.js';
import type { ReplayedExchange } from '../../conformance/replay.js';

interface CheckOptions {
  cassettes: string[];
  /** Rules (or known differences' ids) whose differences are accepted. */
  ignore: Set<string>;
  junit?: string;
}

/** A cassette larger than this is refused before it is read (a recording of a busy day is megabytes). */
const MAX_CASSETTE_BYTES = 256 * 1024 * 1024;

export const command = defineCommand({
  name: 'check',
  summary: 'replay cassettes (--record FILE) against a fresh emulator and report each answer that differs, by rule',
  args: [{ name: '<cassettes...>', description: 'cassette files written with --record FILE or AGENTCTL_RECORD' }],
  options: [
    { flags: '--ignore <rule>', description: `accept the differences of a rule (repeatable): ${RULES.map((rule) => rule.id).join(', ')}`, repeatable: true },
    { flags: '--junit <file>', description: 'also write JUnit XML: one testcase per recorded request, a failure for each that differs' },
  ],
  notes: `Each cassette is replayed in order against an emulator of its own, in this process: ids the
recording's answers carry map to the emulator's for the same records, and the emulator's clock is
each request's recorded time. A request naming a record the recording did not make (one that
existed before) is skipped, as is one that got no answer. Answers are compared by these rules:
${RULES.map((rule) => `  ${rule.id.padEnd(14)}${rule.compares}`).join('\n')}
A difference the emulator documents (docs/emulator.md) is marked "known" and does not fail the
check; --ignore RULE accepts a rule's differences, or a known difference's id. --json prints every
exchange and difference. Paths from a cassette are only ever sent to the local emulator.`,
  exitCodes: {
    0: 'no replayed answer differs from its recording (but for known or ignored differences)',
    1: 'a replayed answer differs from its recording',
    2: 'a cassette that cannot be read, or a line of it that is not a recorded exchange',
    130: '',
  },
  examples: [
    'agentctl tasks list --record run.jsonl        # record a command against your deployment',
    'agentctl emulator check run.jsonl             # does the emulator answer the same?',
    'agentctl emulator check run.jsonl --ignore ordering --junit check.xml',
    'agentctl emulator check run.jsonl --json | jq ".cassettes[].exchanges[].differences[]"',
  ],
  parse: (input: ParseInput): CheckOptions => {
    const cassettes = input.args(0);
    if (cassettes.length === 0) throw new UsageError('give the cassettes to check', 'agentctl emulator check run.jsonl');
    const ignore = new Set(input.list('ignore'));
    for (const rule of ignore) {
      if (!RULE_IDS.has(rule) && !KNOWN_DIFFERENCE_IDS.has(rule)) throw new UsageError(`--ignore "${sanitizeLine(rule)}" is not a rule`, `the rules: ${[...RULE_IDS].join(', ')}`);
    }
    return { cassettes, ignore, junit: input.string('junit') };
  },
  run: check,
});

interface CheckedCassette {
  file: string;
  exchanges: ReplayedExchange[];
}

async function check(options: CheckOptions, ctx: Context): Promise<number> {
  const { readCassette } = await import('../../conformance/cassette.js');
  const { replayCassette } = await import('../../conformance/replay.js');
  const checked: CheckedCassette[] = [];
  for (const file of options.cassettes) {
    const lines = readCassette(await readCassetteFile(file), file);
    checked.push({ file, exchanges: await replayCassette(lines, ctx.signal) });
  }
  const ignored = (found: JudgedDifference) => options.ignore.has(found.rule) || (found.known !== undefined && options.ignore.has(found.known));
  const failing = (found: JudgedDifference) => found.known === undefined && !ignored(found);
  const counts = { exchanges: 0, skipped: 0, differing: 0, differences: 0, known: 0, ignored: 0 };
  for (const exchange of checked.flatMap((cassette) => cassette.exchanges)) {
    counts.exchanges++;
    if (exchange.skipped) counts.skipped++;
    const fails = exchange.differences.filter(failing).length;
    if (fails > 0) counts.differing++;
    counts.differences += fails;
    counts.ignored += exchange.differences.filter(ignored).length;
    counts.known += exchange.differences.filter((found) => found.known !== undefined && !ignored(found)).length;
  }
  if (options.junit !== undefined) await writeJunit(ctx, options.junit, checked, failing, counts.differing);
  if (ctx.out.machine) {
    ctx.out.json({ ok: counts.differences === 0, ...counts, cassettes: checked.map(({ file, exchanges }) => ({ file, exchanges: exchanges.map((exchange) => asJson(exchange, options.ignore)) })) });
  } else {
    for (const cassette of checked) humanReport(ctx, cassette, (found) => failing(found) || (found.known !== undefined && !ignored(found)));
    humanSummary(ctx, counts);
  }
  return counts.differences === 0 ? ExitCode.ok : ExitCode.serviceError;
}

async function readCassetteFile(file: string): Promise<string> {
  try {
    const { size } = await stat(file);
    if (size > MAX_CASSETTE_BYTES) throw new UsageError(`${file} is ${Math.round(size / 1024 / 1024)} MB; a cassette is at most ${MAX_CASSETTE_BYTES / 1024 / 1024} MB`, 'split it: every line stands alone');
    return await readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/** An exchange as --json prints it: snake_case, each difference with whether it is ignored. */
function asJson(exchange: ReplayedExchange, ignore: Set<string>): Record<string, unknown> {
  return {
    line: exchange.line,
    method: exchange.method,
    path: exchange.path,
    recorded_status: exchange.expectedStatus ?? null,
    replayed_status: exchange.actualStatus ?? null,
    skipped: exchange.skipped ?? null,
    differences: exchange.differences.map((found) => ({ ...found, known: found.known ?? null, ignored: ignore.has(found.rule) || ignore.has(found.known ?? '') })),
  };
}

/** One line per difference; every text of the cassette or of an answer escaped (it may hold terminal controls). */
function differenceLine(found: JudgedDifference): string {
  const where = found.path === '' ? '(answer)' : sanitizeLine(found.path);
  const known = found.known ? ` (known: ${found.known})` : '';
  return `    ${found.rule.padEnd(14)}${where}: recorded ${sanitizeLine(found.expected)}, emulator ${sanitizeLine(found.actual)}${known}`;
}

/** A cassette's requests that differ or were skipped, each with its differences (`shows`: not ignored). */
function humanReport(ctx: Context, { file, exchanges }: CheckedCassette, shows: (found: JudgedDifference) => boolean): void {
  ctx.out.line(`${sanitizeLine(file)}: ${exchanges.length} recorded request${exchanges.length === 1 ? '' : 's'}`);
  for (const exchange of exchanges) {
    const shown = exchange.differences.filter(shows);
    if (shown.length === 0 && !exchange.skipped) continue;
    const status = exchange.actualStatus === undefined ? '' : ` ${exchange.expectedStatus} -> ${exchange.actualStatus}`;
    ctx.out.line(`  line ${exchange.line}: ${exchange.method} ${sanitizeLine(exchange.path)}${status}${exchange.skipped ? ` skipped: ${sanitizeLine(exchange.skipped)}` : ''}`);
    for (const found of shown) ctx.out.line(differenceLine(found));
  }
}

function humanSummary(ctx: Context, counts: { exchanges: number; skipped: number; differing: number; differences: number; known: number; ignored: number }): void {
  const aside = [counts.known ? `${counts.known} known` : '', counts.ignored ? `${counts.ignored} ignored` : '', counts.skipped ? `${counts.skipped} requests skipped` : ''].filter(Boolean);
  const more = aside.length ? ` (${aside.join(', ')})` : '';
  if (counts.differences === 0) ctx.out.line(`No difference: the emulator answered all ${counts.exchanges - counts.skipped} replayed requests as recorded${more}.`);
  else ctx.out.line(`${counts.differences} difference${counts.differences === 1 ? '' : 's'} in ${counts.differing} of ${counts.exchanges} requests${more}.`);
}

async function writeJunit(ctx: Context, file: string, checked: CheckedCassette[], failing: (found: JudgedDifference) => boolean, failures: number): Promise<void> {
  let cases = '';
  let tests = 0;
  for (const { file: cassette, exchanges } of checked) {
    for (const exchange of exchanges) {
      tests++;
      const name = `${cassette}:${exchange.line} ${exchange.method} ${exchange.path}`;
      const fails = exchange.differences.filter(failing);
      const failure = fails.length === 0 ? undefined : { type: [...new Set(fails.map((found) => found.rule))].join(' '), message: differenceLine(fails[0] as JudgedDifference).trim(), detail: fails.map((found) => differenceLine(found).trim()).join('\n') };
      cases += junitCase('agentctl.emulator.check', name, failure, exchange.skipped);
    }
  }
  try {
    await writeFile(file, junitDocument('agentctl emulator check', cases, tests, failures));
  } catch (error) {
    throw new UsageError(`--junit: cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}
