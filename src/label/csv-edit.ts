import { parse } from 'csv-parse/sync';

/**
 * A CSV question set edited cell by cell, every other byte kept: its records found with where each cell sits, a
 * record's cells replaced, a column added. Pure: text in, text out. The records are found as the dataset reader
 * finds them (quoted fields may hold separators and line breaks, `""` is a quote, a quote inside an unquoted field
 * is kept as written, lines holding nothing are skipped); `csvRecordsAgree` holds that to csv-parse's reading.
 */

/** Where a cell sits in the text, and its value. */
export interface CsvCell {
  start: number;
  end: number;
  value: string;
}

/** A record: from its first byte to the end of its last field (its line break excluded), its line, its cells. */
export interface CsvRecord {
  start: number;
  end: number;
  /** 1-based line the record starts on, as the dataset reader counts lines (\r\n, \r, \n). */
  line: number;
  cells: CsvCell[];
}

/** How the file quotes: every field of the header quoted (`all`), or only where needed (`minimal`). */
export type CsvQuoting = 'all' | 'minimal';

const isBreak = (c: string | undefined): boolean => c === '\n' || c === '\r';

/** Every record of a CSV text (after a BOM, if any), the header first. */
export function csvRecords(text: string, delimiter: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let at = text.startsWith('\uFEFF') ? 1 : 0;
  let line = 1;
  const breakAt = (i: number): number => (text[i] === '\r' && text[i + 1] === '\n' ? 2 : isBreak(text[i]) ? 1 : 0);
  while (at < text.length) {
    const skip = breakAt(at);
    if (skip > 0) {
      // a line holding nothing is no record
      at += skip;
      line++;
      continue;
    }
    const record: CsvRecord = { start: at, end: at, line, cells: [] };
    for (;;) {
      const cellStart = at;
      let value: string;
      if (text[at] === '"') {
        let v = '';
        let i = at + 1;
        for (;;) {
          const q = text.indexOf('"', i);
          if (q < 0) throw new CsvEditError(record.line, 'a quote opened on this line is never closed');
          v += text.slice(i, q);
          if (text[q + 1] === '"') {
            v += '"';
            i = q + 2;
            continue;
          }
          i = q + 1;
          if (i >= text.length || text.startsWith(delimiter, i) || isBreak(text[i])) break;
          // a closing quote followed by more text: csv-parse keeps it, relaxed; we cannot tell the bytes back
          throw new CsvEditError(record.line, 'a quoted field goes on after its closing quote');
        }
        line += countBreaks(text.slice(at, i));
        value = v;
        at = i;
      } else {
        let i = at;
        while (i < text.length && !text.startsWith(delimiter, i) && !isBreak(text[i])) i++;
        value = text.slice(at, i);
        at = i;
      }
      record.cells.push({ start: cellStart, end: at, value });
      if (at < text.length && text.startsWith(delimiter, at)) {
        at += delimiter.length;
        continue;
      }
      break;
    }
    record.end = at;
    records.push(record);
    const skip2 = breakAt(at);
    at += skip2;
    if (skip2 > 0) line++;
  }
  return records;
}

const countBreaks = (text: string): number => text.match(/\r\n|\r|\n/g)?.length ?? 0;

/** A CSV the editor cannot rewrite byte for byte, at `line`. */
export class CsvEditError extends Error {
  override name = 'CsvEditError';
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

/** `all` when every field of the header is quoted, else `minimal`. */
export function quotingOf(text: string, header: CsvRecord): CsvQuoting {
  return header.cells.length > 0 && header.cells.every((c) => text[c.start] === '"') ? 'all' : 'minimal';
}

/** A value as the file writes it: quoted when the file quotes every field, or when it must be (a separator, a quote, a line break, blanks at an end). */
export function csvCell(value: string, delimiter: string, quoting: CsvQuoting): string {
  const must = value.includes(delimiter) || /["\r\n]/.test(value) || value !== value.trim();
  return quoting === 'all' || must ? `"${value.replace(/"/g, '""')}"` : value;
}

/** A replacement of text: `text.slice(start, end)` becomes `with`. */
export interface Splice {
  start: number;
  end: number;
  with: string;
}

/** The text with its splices made (they do not overlap). */
export function applySplices(text: string, splices: readonly Splice[]): string {
  const sorted = [...splices].sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const s of sorted) {
    out += text.slice(at, s.start) + s.with;
    at = s.end;
  }
  return out + text.slice(at);
}

/**
 * The splices that add `column` as the last column: the header gets `,column`, every other record an empty cell
 * (`""` where every field is quoted), each before its line break. Lines holding nothing stay as they are.
 */
export function addColumnSplices(records: readonly CsvRecord[], column: string, delimiter: string, quoting: CsvQuoting): Splice[] {
  const empty = quoting === 'all' ? '""' : '';
  return records.map((r, i) => ({ start: r.end, end: r.end, with: `${delimiter}${i === 0 ? csvCell(column, delimiter, quoting) : empty}` }));
}

/** The splices that set cells of one record: `values[i]` into its cell `i` (a column the record lacks is refused). */
export function setCellsSplices(record: CsvRecord, values: ReadonlyMap<number, string>, delimiter: string, quoting: CsvQuoting): Splice[] {
  return [...values].map(([i, value]) => {
    const cell = record.cells[i];
    if (cell === undefined) throw new CsvEditError(record.line, `the row has ${record.cells.length} fields, fewer than the header`);
    return { start: cell.start, end: cell.end, with: csvCell(value, delimiter, quoting) };
  });
}

/**
 * The line of the first record csvRecords reads otherwise than the dataset reader's csv-parse (same options), or
 * undefined when they agree on every record and cell: a file the editor would read otherwise is not edited.
 */
export function csvDisagreement(text: string, delimiter: string, records: readonly CsvRecord[]): number | undefined {
  const theirs = parse(text.replace(/^\uFEFF/, ''), { skip_empty_lines: true, relax_column_count: true, relax_quotes: true, delimiter }) as string[][];
  for (let i = 0; i < Math.max(theirs.length, records.length); i++) {
    const mine = records[i];
    const other = theirs[i];
    if (mine === undefined || other === undefined || mine.cells.length !== other.length || mine.cells.some((c, k) => c.value !== other[k])) return mine?.line ?? records.at(-1)?.line ?? 1;
  }
  return undefined;
}
