import { csvDelimiter } from '../dataset/read.js';
import { cellValue, safeCell } from '../model/csv-cell.js';
import { addColumnSplices, applySplices, csvDisagreement, CsvEditError, csvRecords, quotingOf, setCellsSplices, type CsvQuoting, type CsvRecord } from './csv-edit.js';
import { EXPECTATION_COLUMNS, labelColumn, type LabelColumn } from './decision.js';
import { editedLine, jsonlLines, type JsonlLine } from './jsonl-edit.js';

/**
 * A question set's text read as rows to edit: each question's row by id (as the dataset reader names it: its `id`,
 * or its line without one), where the row sits and what it expects now. Pure: the text is read and written by the
 * caller; an edit returns the whole new text, with only the row (and, for a column added, the header and each row's
 * end) changed.
 */

export type SetFormat = 'csv' | 'jsonl';

/** A row of a single question. */
export interface SetRow {
  id: string;
  line: number;
  /** Where its text sits (a CSV record, a JSONL line; the line break excluded). */
  start: number;
  end: number;
  question: string;
  /** Its expectation columns and `expect`, as text ('' when empty or absent). */
  values: Record<string, string>;
  /** A row of a conversation (a turn): not labeled here. */
  conversation: boolean;
}

export interface ParsedSet {
  format: SetFormat;
  text: string;
  /** The first row of each id. */
  rows: Map<string, SetRow>;
  /** CSV: the header; JSONL: every key seen. */
  columns: string[];
  /** Where labels go (labelColumn). */
  column: LabelColumn;
  csv?: { delimiter: string; quoting: CsvQuoting; records: CsvRecord[] };
  jsonl?: JsonlLine[];
}

/** A set the editor cannot change byte for byte, with where and why. */
export class SetEditError extends Error {
  override name = 'SetEditError';
  constructor(
    readonly line: number,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

const KEPT = [...EXPECTATION_COLUMNS, 'expect'];

const blank = (v: unknown): boolean => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** A JSONL value as the text the editor compares: arrays as `a || b`, numbers as written. */
const textOf = (v: unknown): string => (blank(v) ? '' : Array.isArray(v) ? v.map(String).join(' || ') : String(v));

function countFilled(rows: Iterable<SetRow>): Map<string, number> {
  const filled = new Map<string, number>();
  for (const r of rows) for (const c of KEPT) if (r.values[c]!.trim() !== '') filled.set(c, (filled.get(c) ?? 0) + 1);
  return filled;
}

function parseCsv(text: string): ParsedSet {
  const delimiter = csvDelimiter(text.slice(0, 64 * 1024));
  let records: CsvRecord[];
  try {
    records = csvRecords(text, delimiter);
  } catch (error) {
    if (error instanceof CsvEditError) throw new SetEditError(error.line, error.message, { cause: error });
    throw error;
  }
  const header = records[0];
  if (header === undefined) throw new SetEditError(1, 'the file is empty');
  const disagree = csvDisagreement(text, delimiter, records);
  if (disagree !== undefined) throw new SetEditError(disagree, 'this row is quoted in a way the editor cannot write back byte for byte');
  const columns = header.cells.map((c) => c.value.trim());
  const at = (name: string): number => columns.indexOf(name);
  const rows = new Map<string, SetRow>();
  for (const r of records.slice(1)) {
    const cell = (name: string): string => (at(name) < 0 ? '' : cellValue(r.cells[at(name)]?.value ?? '')); // as the dataset reader reads it
    if (r.cells.every((c) => c.value.trim() === '')) continue;
    const id = cell('id').trim() || String(r.line);
    if (rows.has(id)) continue;
    rows.set(id, { id, line: r.line, start: r.start, end: r.end, question: cell('question').trim(), values: Object.fromEntries(KEPT.map((c) => [c, cell(c)])), conversation: cell('conversation').trim() !== '' });
  }
  return { format: 'csv', text, rows, columns, column: labelColumn(columns, countFilled(rows.values())), csv: { delimiter, quoting: quotingOf(text, header), records } };
}

function parseJsonl(text: string): ParsedSet {
  const lines = jsonlLines(text);
  const columns = new Set<string>();
  const rows = new Map<string, SetRow>();
  for (const l of lines) {
    const v = l.value;
    for (const k of Object.keys(v)) columns.add(k);
    const id = blank(v['id']) ? String(l.line) : String(v['id']).trim();
    if (rows.has(id)) continue;
    rows.set(id, { id, line: l.line, start: l.start, end: l.end, question: typeof v['question'] === 'string' ? v['question'].trim() : '', values: Object.fromEntries(KEPT.map((c) => [c, textOf(v[c])])), conversation: 'turns' in v || !blank(v['conversation']) });
  }
  return { format: 'jsonl', text, rows, columns: [...columns], column: labelColumn([...columns], countFilled(rows.values())), jsonl: lines };
}

/** Reads a set's text as rows to edit. A CSV the editor would read otherwise than the dataset reader is a SetEditError. */
export const parseSet = (text: string, format: SetFormat): ParsedSet => (format === 'csv' ? parseCsv(text) : parseJsonl(text));

/** The whole text with one row's cells changed (see cellChanges), what the row was and became, and the columns added. */
export interface RowEdit {
  text: string;
  before: string;
  after: string;
  added: string[];
}

function rowOf(set: ParsedSet, id: string): SetRow {
  const row = set.rows.get(id);
  if (row === undefined) throw new SetEditError(0, `no row of id "${id}"`);
  return row;
}

function editCsv(set: ParsedSet, row: SetRow, changes: ReadonlyMap<string, string>): RowEdit {
  const { delimiter, quoting, records } = set.csv!;
  const added = [...changes.keys()].filter((c) => !set.columns.includes(c));
  // columns first (header and every row's end), then the row's cells in the text that has them
  let text = set.text;
  let recs = records;
  for (const column of added) {
    text = applySplices(text, addColumnSplices(recs, column, delimiter, quoting));
    recs = csvRecords(text, delimiter);
  }
  const columns = [...set.columns, ...added];
  const index = records.findIndex((r) => r.start === row.start);
  const record = recs[index]!;
  const before = text.slice(record.start, record.end);
  const values = new Map([...changes].map(([c, v]) => [columns.indexOf(c), safeCell(v)])); // a label such as -x written as a spreadsheet reads it
  const next = applySplices(text, setCellsSplices(record, values, delimiter, quoting));
  // read back: the row holds what was written, and no other record moved or changed
  const again = csvRecords(next, delimiter);
  const changed = again[index];
  const same = again.length === recs.length && again.every((r, i) => i === index || (r.cells.length === recs[i]!.cells.length && r.cells.every((c, k) => c.value === recs[i]!.cells[k]!.value)));
  if (!same || changed === undefined || [...values].some(([i, v]) => changed.cells[i]?.value !== v)) throw new SetEditError(row.line, 'the row would not read back as written');
  return { text: next, before, after: next.slice(changed.start, changed.end), added };
}

function editJsonl(set: ParsedSet, row: SetRow, changes: ReadonlyMap<string, string>): RowEdit {
  const line = set.jsonl!.find((l) => l.start === row.start)!;
  const typed = new Map([...changes].map(([c, v]) => [c, v === '' ? undefined : c === 'expected_sequence' ? Number(v) : v]));
  const after = editedLine(line.value, typed);
  const added = [...changes.keys()].filter((c) => !(c in line.value));
  return { text: set.text.slice(0, row.start) + after + set.text.slice(row.end), before: set.text.slice(row.start, row.end), after, added };
}

/** Sets cells of the row of `id` (an empty value clears one), every other byte kept; a missing column is added. */
export function editRow(set: ParsedSet, id: string, changes: ReadonlyMap<string, string>): RowEdit {
  const row = rowOf(set, id);
  return set.format === 'csv' ? editCsv(set, row, changes) : editJsonl(set, row, changes);
}

/**
 * The text with the row of `id` put back from `from` to `to` (an undo, or a decision made again), or undefined
 * when the row is not `from` now (changed since by someone else).
 */
export function replaceRow(set: ParsedSet, id: string, from: string, to: string): string | undefined {
  const row = rowOf(set, id);
  if (set.text.slice(row.start, row.end) !== from) return undefined;
  return set.text.slice(0, row.start) + to + set.text.slice(row.end);
}
