import Table from 'cli-table3';
import { humanCell, plainCell, shorten } from './format.js';
import { sanitizeLine } from './sanitize.js';

export interface Column<T> {
  key: string;
  header?: string;
  /** Defaults to row[key]. */
  value?: (row: T) => unknown;
  /** Colour for the terminal only, applied after shortening. */
  paint?: (text: string, row: T) => string;
  /** The column never grows past this on a terminal. */
  maxWidth?: number;
  /** A narrow terminal leaves this column out before it cuts free text away (a count, a date). */
  optional?: boolean;
}

/** Columns named by --fields replace the command's own (Output.checkFields refuses unknown names). */
export function columnsFor<T>(columns: Column<T>[], fields: string[] | undefined): Column<T>[] {
  if (!fields) return columns;
  return fields.map((field) => columns.find((column) => column.key === field) ?? { key: field });
}

function cellValue<T>(column: Column<T>, row: T): unknown {
  return column.value ? column.value(row) : (row as Record<string, unknown>)[column.key];
}

/** Piped output: tab-separated, no header, nothing shortened, timestamps as the service sent them. */
export function plainRow<T>(columns: Column<T>[], row: T): string {
  return columns.map((column) => sanitizeLine(plainCell(cellValue(column, row)))).join('\t');
}

const GAP = 2;

/**
 * A borderless table that fits the terminal. Free text (long cells that are neither ids nor dates)
 * shrinks first, down to a readable width; then optional columns are left out; then ids and dates
 * take their compact form (an id's first 8 characters, as `git log --oneline` shows a commit; a
 * date without its year); then free text shrinks to a few characters, is left out, and last the
 * last columns, never the first. `onShortIds` hears the headers of the id columns shown compact.
 */
export function renderTable<T>(allColumns: Column<T>[], rows: T[], width: number, bold: (s: string) => string, onShortIds?: (headers: string[]) => void): string {
  const allCells = rows.map((row) => allColumns.map((column) => sanitizeLine(humanCell(cellValue(column, row)))));
  const headerOf = (column: Column<T>) => column.header ?? column.key;
  const natural = allColumns.map((column, i) => Math.min(column.maxWidth ?? Infinity, Math.max(headerOf(column).length, ...allCells.map((cell) => cell[i]?.length ?? 0))));
  const shrinkable = allColumns.map((_, i) => isFreeText(allCells.map((cell) => cell[i] ?? ''), natural[i] ?? 0));
  const compacts = allColumns.map((_, i) => compactForm(allCells.map((cell) => cell[i] ?? '')));
  const compactWidths = allColumns.map((column, i) => {
    const compact = compacts[i];
    return compact && Math.max(headerOf(column).length, ...allCells.map((cell) => compact.show(cell[i] ?? '').length));
  });
  const kept = fitColumns(natural, shrinkable, width, allColumns.map((column) => column.optional === true), compactWidths);
  const columns = kept.map((k) => allColumns[k.index] as Column<T>);
  const widths = kept.map((k) => k.width);
  const headers = columns.map((column) => headerOf(column).toUpperCase());
  const shortIds = kept.filter((k) => k.compact && compacts[k.index]?.kind === 'id');
  if (shortIds.length > 0) onShortIds?.(shortIds.map((k) => headerOf(allColumns[k.index] as Column<T>)));

  const table = new Table({
    head: headers.map((header, i) => bold(shorten(header, widths[i] ?? 0))),
    colWidths: widths.map((w, i) => w + (i < widths.length - 1 ? GAP : 0)),
    chars: {
      top: '', 'top-mid': '', 'top-left': '', 'top-right': '', bottom: '', 'bottom-mid': '', 'bottom-left': '',
      'bottom-right': '', left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '', middle: '',
    },
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0, compact: true },
    wordWrap: false,
  });
  rows.forEach((row, r) => {
    table.push(
      kept.map(({ index, compact }, i) => {
        const column = allColumns[index] as Column<T>;
        const cell = allCells[r]?.[index] ?? '';
        const text = shorten(compact ? (compacts[index]?.show(cell) ?? cell) : cell, widths[i] ?? 0);
        return column.paint ? column.paint(text, row) : text;
      }),
    );
  });
  return table.toString().split('\n').map((line) => line.trimEnd()).join('\n');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HUMAN_DATE = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}/;
/** An id shown compact: enough of it to tell rows apart on a screen. */
const SHORT_ID = 8;
/** Longer than this, a column that holds neither ids nor dates counts as free text. */
const SHORT = 16;
/** Free text shrinks down to this many characters before it is left out. */
const MIN_TEXT = 10;
/** ...and down to this many only while optional columns are still shown: they go first. */
const READABLE_TEXT = 20;

/** How a column of ids or of dates (humanCell's "2026-11-23 10:52Z") shows compact; undefined for other columns. */
function compactForm(cells: string[]): { kind: 'id' | 'date'; show: (cell: string) => string } | undefined {
  const filled = cells.filter((cell) => cell !== '');
  if (filled.length === 0) return undefined;
  if (filled.every((cell) => UUID.test(cell))) return { kind: 'id', show: (cell) => cell.slice(0, SHORT_ID) };
  if (filled.every((cell) => HUMAN_DATE.test(cell))) return { kind: 'date', show: (cell) => cell.slice(5) }; // "11-23 10:52Z"
  return undefined;
}

function isFreeText(cells: string[], naturalWidth: number): boolean {
  if (naturalWidth <= SHORT) return false;
  return !cells.every((cell) => cell === '' || UUID.test(cell) || HUMAN_DATE.test(cell));
}

/**
 * Which columns to show and how wide, for the terminal's width (see renderTable): free text shrinks
 * down to READABLE_TEXT, then optional columns are left out (the last first), then columns with a
 * compact width take it (the last first); then free text shrinks down to MIN_TEXT, and then it is
 * left out, then the last columns. A column left out gives its room back to the free text.
 */
export function fitColumns(
  natural: number[],
  shrinkable: boolean[],
  width: number,
  optional: boolean[] = [],
  compactWidths: Array<number | undefined> = [],
): Array<{ index: number; width: number; compact: boolean }> {
  const kept = natural.map((w, index) => ({ index, width: w, compact: false }));
  type Kept = (typeof kept)[number];
  const total = () => kept.reduce((sum, k) => sum + k.width, 0) + GAP * (kept.length - 1);
  const last = (test: (k: Kept) => boolean) => [...kept].reverse().find(test);
  const restore = () => {
    for (const k of kept) if (shrinkable[k.index]) k.width = natural[k.index] ?? k.width;
  };
  while (total() > width && kept.length > 1) {
    const excess = total() - width;
    const optionalLeft = kept.some((k) => optional[k.index]);
    const compactable = last((k) => !k.compact && (compactWidths[k.index] ?? Infinity) < k.width);
    const floor = optionalLeft || compactable ? READABLE_TEXT : MIN_TEXT;
    const texts = kept.filter((k) => shrinkable[k.index] && k.width > floor);
    if (texts.length > 0) {
      // Take from the widest free-text column first.
      const widest = texts.reduce((a, b) => (b.width > a.width ? b : a));
      widest.width -= Math.min(excess, widest.width - floor, Math.max(1, widest.width - (texts.find((k) => k !== widest)?.width ?? 0)));
      continue;
    }
    if (!optionalLeft && compactable) {
      compactable.width = compactWidths[compactable.index] ?? compactable.width;
      compactable.compact = true;
      restore();
      continue;
    }
    const dropped = last((k) => optional[k.index] === true) ?? last((k) => shrinkable[k.index] === true) ?? (kept[kept.length - 1] as Kept);
    kept.splice(kept.indexOf(dropped), 1);
    restore();
  }
  return kept;
}
