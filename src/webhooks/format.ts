import { plainCell, shorten } from '../output/format.js';
import type { Column } from '../output/table.js';
import type { EventRecord } from './listener.js';
import { outcomeText } from './payload.js';

/** The flat view of an event used for rows (tab-separated when piped, a table row on a terminal). */
export interface EventRow {
  received_at: string;
  id: string;
  status: string;
  agent_id: string | null;
  detail: string;
  user_agent: string | null;
}

export function eventRow(record: EventRecord): EventRow {
  return {
    received_at: record.received_at,
    id: record.body.id,
    status: record.body.status,
    agent_id: record.body.agent_id,
    detail: outcomeText(record.body),
    user_agent: record.headers['user-agent'],
  };
}

export interface RowColumn {
  key: string;
  header: string;
  /** Fixed width on a terminal; the last column takes what is left. */
  width: number;
}

export const EVENT_COLUMNS: RowColumn[] = [
  { key: 'received_at', header: 'RECEIVED', width: 12 },
  { key: 'id', header: 'TASK', width: 36 },
  { key: 'status', header: 'STATUS', width: 9 },
  { key: 'detail', header: 'RESULT / ERROR', width: 40 },
];

/** The piped columns: everything, in a stable order, for cut/awk. */
export const PLAIN_KEYS = ['received_at', 'id', 'status', 'agent_id', 'detail', 'user_agent'];

/** Columns for --fields: known ones keep their width, unknown ones get 20. */
export function columnsForFields(fields: string[] | undefined): RowColumn[] {
  if (!fields) return EVENT_COLUMNS;
  return fields.map((key) => EVENT_COLUMNS.find((column) => column.key === key) ?? { key, header: key.toUpperCase(), width: 20 });
}

/** A tab-separated row: no header, nothing shortened, ISO timestamps. */
export function plainEventLine(row: EventRow, keys: string[] = PLAIN_KEYS): string {
  return keys.map((key) => plainCell((row as unknown as Record<string, unknown>)[key])).join('\t');
}

function cell(row: EventRow, key: string): string {
  // On a terminal the time of day is what matters (UTC, to the millisecond).
  if (key === 'received_at') return `${row.received_at.slice(11, 23)}`;
  return plainCell((row as unknown as Record<string, unknown>)[key]);
}

/**
 * A row of a table printed one event at a time: fixed column widths (the last column takes the
 * rest of the terminal), so rows line up without knowing the rows to come.
 */
export function tableLine(
  columns: RowColumn[],
  values: (key: string) => string,
  totalWidth: number,
  paint: (key: string, text: string) => string = (_key, text) => text,
): string {
  const gap = 2;
  const fixed = columns.slice(0, -1).reduce((sum, column) => sum + column.width + gap, 0);
  return columns
    .map((column, index) => {
      const last = index === columns.length - 1;
      const width = last ? Math.max(8, totalWidth - fixed) : column.width;
      const text = shorten(values(column.key), width);
      const painted = paint(column.key, text);
      return last ? painted : painted + ' '.repeat(Math.max(0, width - text.length) + gap);
    })
    .join('')
    .trimEnd();
}

export function tableHeader(columns: RowColumn[], totalWidth: number): string {
  return tableLine(columns, (key) => columns.find((column) => column.key === key)?.header ?? key, totalWidth);
}

export function tableRow(columns: RowColumn[], row: EventRow, totalWidth: number, paint?: (key: string, text: string) => string): string {
  return tableLine(columns, (key) => cell(row, key), totalWidth, paint);
}

/** The columns of a list of stored events (`webhook-listen replay LOG`), in the piped order above. */
export function eventListColumns(paintStatus: (text: string) => string = (text) => text): Column<EventRecord>[] {
  return [
    { key: 'received_at', header: 'received', value: (record) => record.received_at },
    { key: 'id', header: 'task', value: (record) => record.body.id },
    { key: 'status', value: (record) => record.body.status, paint: paintStatus },
    { key: 'agent_id', header: 'agent', value: (record) => record.body.agent_id },
    { key: 'detail', header: 'result / error', value: (record) => outcomeText(record.body), maxWidth: 60 },
    { key: 'user_agent', header: 'user agent', value: (record) => record.headers['user-agent'] },
  ];
}
