// A line diff of two charters, as plan shows it: `-` lines the service has, `+` lines the file has,
// and a few unchanged lines around each change (a charter is prose, so each hunk needs context).

/** Lines of unchanged text kept around a change. */
const CONTEXT = 2;
/** Beyond this many line pairs the diff is not computed (quadratic): the whole texts are shown, old then new. */
const MAX_CELLS = 4_000_000;

export type DiffLine = `${' ' | '-' | '+'}${string}` | '…';

/** The lines that turn `from` into `to`: '-' removed, '+' added, ' ' context, '…' for lines left out. */
export function lineDiff(from: string, to: string): DiffLine[] {
  const a = from === '' ? [] : from.split('\n');
  const b = to === '' ? [] : to.split('\n');
  const all = (a.length + 1) * (b.length + 1) > MAX_CELLS ? [...a.map((l) => `-${l}` as DiffLine), ...b.map((l) => `+${l}` as DiffLine)] : lcsDiff(a, b);
  return trimContext(all);
}

/** The full edit script by the longest common subsequence (common prefix and suffix cut first). */
function lcsDiff(a: string[], b: string[]): DiffLine[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const x = a.slice(start, endA);
  const y = b.slice(start, endB);
  // lengths[i][j]: the LCS of x[i..] and y[j..].
  const lengths = Array.from({ length: x.length + 1 }, () => new Uint32Array(y.length + 1));
  for (let i = x.length - 1; i >= 0; i--) {
    for (let j = y.length - 1; j >= 0; j--) {
      lengths[i]![j] = x[i] === y[j] ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
    }
  }
  const middle: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < x.length || j < y.length) {
    if (i < x.length && j < y.length && x[i] === y[j]) {
      middle.push(` ${x[i]}`);
      i++;
      j++;
    } else if (i < x.length && (j === y.length || lengths[i + 1]![j]! >= lengths[i]![j + 1]!)) {
      // Removed lines before added ones, as diff shows a changed line.
      middle.push(`-${x[i++]}`);
    } else {
      middle.push(`+${y[j++]}`);
    }
  }
  return [...a.slice(0, start).map((l) => ` ${l}` as DiffLine), ...middle, ...a.slice(endA).map((l) => ` ${l}` as DiffLine)];
}

/** Keeps CONTEXT unchanged lines on each side of a change; a run left out becomes one '…'. */
function trimContext(lines: DiffLine[]): DiffLine[] {
  const changed = lines.map((line) => line[0] !== ' ');
  const keep = lines.map((_, index) => {
    for (let k = Math.max(0, index - CONTEXT); k <= Math.min(lines.length - 1, index + CONTEXT); k++) if (changed[k]) return true;
    return false;
  });
  const out: DiffLine[] = [];
  lines.forEach((line, index) => {
    if (keep[index]) out.push(line);
    else if (out[out.length - 1] !== '…') out.push('…');
  });
  return out;
}
