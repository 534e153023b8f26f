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
 * A borderless table that fits the terminal. Ids, timestamps and short values are never cut: free
 * text (long cells that are neither) shrinks first, down to a few characters with an ellipsis; when
 * that is not enough, the free-text columns are left out, then the last columns, never the first.
 */
export function renderTable<T>(allColumns: Column<T>[], rows: T[], width: number, bold: (s: string) => string): string {
  const allCells = rows.map((row) => allColumns.map((column) => sanitizeLine(humanCell(cellValue(column, row)))));
  const natural = allColumns.map((column, i) =>
    Math.min(column.maxWidth ?? Infinity, Math.max((column.header ?? column.key).length, ...allCells.map((cell) => cell[i]?.length ?? 0))),
  );
  const shrinkable = allColumns.map((_, i) => isFreeText(allCells.map((cell) => cell[i] ?? ''), natural[i] ?? 0));
  const kept = fitColumns(natural, shrinkable, width, allColumns.map((column) => column.optional === true));
  const columns = kept.map((k) => allColumns[k.index] as Column<T>);
  const widths = kept.map((k) => k.width);
  const headers = columns.map((column) => (column.header ?? column.key).toUpperCase());

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
      kept.map(({ index }, i) => {
        const column = allColumns[index] as Column<T>;
        const text = shorten(allCells[r]?.[index] ?? '', widths[i] ?? 0);
        return column.paint ? column.paint(text, row) : text;
      }),
    );
  });
  return table.toString().split('\n').map((line) => line.trimEnd()).join('\n');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HUMAN_DATE = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}/;
/** Longer than this, a column that holds neither ids nor dates counts as free text. */
const SHORT = 16;
/** Free text shrinks down to this many characters before it is left out. */
const MIN_TEXT = 10;
/** ...and down to this many only while optional columns are still shown: they go first. */
const READABLE_TEXT = 20;

function isFreeText(cells: string[], naturalWidth: number): boolean {
  if (naturalWidth <= SHORT) return false;
  return !cells.every((cell) => cell === '' || UUID.test(cell) || HUMAN_DATE.test(cell));
}

/**
 * Which columns to show and how wide, for the terminal's width (see renderTable): free text shrinks
 * down to READABLE_TEXT, then optional columns are left out (the last first); then it shrinks down
 * to MIN_TEXT, and then free text is left out, then the last columns. A column left out gives its
 * room back to the free text.
 */
export function fitColumns(natural: number[], shrinkable: boolean[], width: number, optional: boolean[] = []): Array<{ index: number; width: number }> {
  const kept = natural.map((w, index) => ({ index, width: w }));
  const total = () => kept.reduce((sum, k) => sum + k.width, 0) + GAP * (kept.length - 1);
  while (total() > width && kept.length > 1) {
    const excess = total() - width;
    const floor = kept.some((k) => optional[k.index]) ? READABLE_TEXT : MIN_TEXT;
    const texts = kept.filter((k) => shrinkable[k.index] && k.width > floor);
    if (texts.length > 0) {
      // Take from the widest free-text column first.
      const widest = texts.reduce((a, b) => (b.width > a.width ? b : a));
      widest.width -= Math.min(excess, widest.width - floor, Math.max(1, widest.width - (texts.find((k) => k !== widest)?.width ?? 0)));
      continue;
    }
    const last = (test: (k: (typeof kept)[number]) => boolean) => [...kept].reverse().find(test);
    const dropped = last((k) => optional[k.index] === true) ?? last((k) => shrinkable[k.index] === true) ?? (kept[kept.length - 1] as (typeof kept)[number]);
    kept.splice(kept.indexOf(dropped), 1);
    for (const k of kept) k.width = natural[k.index] ?? k.width;
  }
  return kept;
}
