import Table from 'cli-table3';
import { humanCell, plainCell, shorten } from './format.js';

export interface Column<T> {
  key: string;
  header?: string;
  /** Defaults to row[key]. */
  value?: (row: T) => unknown;
  /** Colour for the terminal only, applied after shortening. */
  paint?: (text: string, row: T) => string;
  /** The column never grows past this on a terminal. */
  maxWidth?: number;
}

/** Columns named by --fields replace the command's own; unknown names simply show empty cells. */
export function columnsFor<T>(columns: Column<T>[], fields: string[] | undefined): Column<T>[] {
  if (!fields) return columns;
  return fields.map((field) => columns.find((column) => column.key === field) ?? { key: field });
}

function cellValue<T>(column: Column<T>, row: T): unknown {
  return column.value ? column.value(row) : (row as Record<string, unknown>)[column.key];
}

/** Piped output: tab-separated, no header, nothing shortened, timestamps as the service sent them. */
export function plainRow<T>(columns: Column<T>[], row: T): string {
  return columns.map((column) => plainCell(cellValue(column, row))).join('\t');
}

const GAP = 2;

/**
 * A borderless table that fits the terminal: columns keep their natural width until the row is
 * too wide, then the widest columns give way and their cells end in an ellipsis.
 */
export function renderTable<T>(columns: Column<T>[], rows: T[], width: number, bold: (s: string) => string): string {
  const headers = columns.map((column) => (column.header ?? column.key).toUpperCase());
  const cells = rows.map((row) => columns.map((column) => humanCell(cellValue(column, row))));
  const widths = headers.map((header, i) =>
    Math.min(columns[i]?.maxWidth ?? Infinity, Math.max(header.length, ...cells.map((cell) => cell[i]?.length ?? 0))),
  );
  fitWidths(widths, width - GAP * (columns.length - 1));

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
      columns.map((column, i) => {
        const text = shorten(cells[r]?.[i] ?? '', widths[i] ?? 0);
        return column.paint ? column.paint(text, row) : text;
      }),
    );
  });
  return table.toString().split('\n').map((line) => line.trimEnd()).join('\n');
}

/** Shrinks the widest columns (never below 6 characters) until the total fits. */
export function fitWidths(widths: number[], available: number): void {
  const minimum = 6;
  let total = widths.reduce((sum, w) => sum + w, 0);
  while (total > available) {
    let widest = 0;
    widths.forEach((w, i) => {
      if (w > (widths[widest] ?? 0)) widest = i;
    });
    const current = widths[widest] ?? 0;
    if (current <= minimum) return;
    widths[widest] = current - 1;
    total--;
  }
}
