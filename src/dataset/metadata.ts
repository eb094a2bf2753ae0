import type { InputProblem } from '../errors.js';
import type { RunInfo } from '../model/report.js';
import { columnProblem, isKnownColumn } from './columns.js';
import type { RawRow } from './row.js';
import { setOwn } from '../util/own.js';
import { quote } from '../model/quote.js';

/** The dataset's own columns kept per question at most; those past it (in order of first appearance) are left out, and said. */
export const MAX_METADATA_COLUMNS = 20;
/** The longest metadata value kept, in characters; a longer one is cut to it (ending in `…`), and said. */
export const MAX_METADATA_CHARS = 1000;
/** The one column name that cannot be a metadata key: a reader of report.json would drop it (z.record, Object.assign). */
const RESERVED = '__proto__';

type DatasetMetadata = NonNullable<RunInfo['dataset']['metadata']>;

/** What became of a dataset's own columns (neither known nor a near miss of a known one). */
export interface MetadataSummary {
  /** Kept per question as metadata (`Question.meta`), in order of first appearance. */
  columns: string[];
  /** Left out past MAX_METADATA_COLUMNS, each with the line it first appears on (the first 50 named; `leftOutCount` counts them all). */
  leftOut: { column: string; line: number }[];
  leftOutCount: number;
  /** Values cut to MAX_METADATA_CHARS, and the first of them. */
  cut: number;
  firstCut?: { column: string; line: number };
  /** A column named `__proto__`, left out (no JavaScript object or JSON reader keeps that key), with its first line. */
  reserved?: { column: string; line: number };
}

/** A metadata value as text: JSON numbers and booleans as written, an object or list as compact JSON; blank: none. */
function valueText(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  const text = typeof v === 'string' ? v.trim() : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return text === '' ? undefined : text;
}

/**
 * Reads the metadata of each row in one pass over a dataset: the columns of its own that it carries (notes, owners),
 * shown beside each question's result. Columns are admitted in order of first appearance, up to
 * MAX_METADATA_COLUMNS, so every pass over the same bytes keeps the same ones. A column named like a known one
 * (`expected_lable`), or as an expectation (`expected_intent`), is no metadata: the reader reports it as an error (see
 * columnProblem).
 */
export class MetadataReader {
  readonly #kept = new Set<string>();
  readonly #leftOut = new Map<string, number>();
  /** Further columns left out, past those named; past 100,000 only counted (a key seen again may be counted twice). */
  readonly #counted = new Set<string>();
  #uncounted = 0;
  #cut = 0;
  #firstCut: { column: string; line: number } | undefined;
  #reserved: { column: string; line: number } | undefined;

  /** Whether a column is the dataset's own, by name (a bounded cache: the same few names come on every row). */
  readonly #own = new Map<string, boolean>();

  /** The row's metadata, or undefined when it has none. */
  of(row: RawRow, line: number): Record<string, string> | undefined {
    let meta: Record<string, string> | undefined;
    for (const [column, value] of Object.entries(row)) {
      if (!this.#isOwn(column)) continue;
      if (column === RESERVED) {
        this.#reserved ??= { column, line };
        continue;
      }
      if (!this.#kept.has(column)) {
        if (this.#kept.size >= MAX_METADATA_COLUMNS) {
          if (!this.#leftOut.has(column) && !this.#counted.has(column)) {
            // named up to a bound: a JSONL line may bring keys of its own, and a file millions of them
            if (this.#leftOut.size < 50) this.#leftOut.set(column, line);
            else if (this.#counted.size < 100_000) this.#counted.add(column);
            else this.#uncounted++;
          }
          continue;
        }
        this.#kept.add(column);
      }
      let text = valueText(value);
      if (text === undefined) continue;
      if (text.length > MAX_METADATA_CHARS) {
        text = `${Array.from(text.slice(0, MAX_METADATA_CHARS + 1)).slice(0, MAX_METADATA_CHARS - 1).join('')}…`;
        this.#cut++;
        this.#firstCut ??= { column, line };
      }
      setOwn((meta ??= {}), column, text); // a column named __proto__ is data too
    }
    return meta;
  }

  #isOwn(column: string): boolean {
    let own = this.#own.get(column);
    if (own === undefined) {
      own = column.trim() !== '' && !isKnownColumn(column) && columnProblem(column) === undefined;
      if (this.#own.size < 1000) this.#own.set(column, own);
    }
    return own;
  }

  get summary(): MetadataSummary {
    return {
      columns: [...this.#kept],
      leftOut: [...this.#leftOut].map(([column, line]) => ({ column, line })),
      leftOutCount: this.#leftOut.size + this.#counted.size + this.#uncounted,
      cut: this.#cut,
      ...(this.#firstCut ? { firstCut: this.#firstCut } : {}),
      ...(this.#reserved ? { reserved: this.#reserved } : {}),
    };
  }
}

/** What report.run.dataset says of the metadata: absent when the dataset has no column of its own. */
export function reportedMetadata(s: MetadataSummary): DatasetMetadata | undefined {
  const leftOut = [...(s.reserved ? [s.reserved.column] : []), ...s.leftOut.map((c) => c.column)];
  if (s.columns.length === 0 && leftOut.length === 0) return undefined;
  return { columns: s.columns, ...(leftOut.length > 0 ? { leftOut } : {}), ...(s.cut > 0 ? { cut: s.cut } : {}) };
}

/**
 * What is said of them before anything is sent (warnings, by validate and run): columns left out past the limit,
 * values cut. Columns kept are not warned about: carrying notes and owners is what they are for.
 */
export function metadataProblems(s: MetadataSummary, file: string): InputProblem[] {
  const out: InputProblem[] = [];
  if (s.leftOut.length > 0) {
    const many = s.leftOutCount > 1;
    const more = s.leftOutCount > s.leftOut.length ? ` and ${s.leftOutCount - s.leftOut.length} more` : '';
    out.push({
      file,
      line: s.leftOut[0]!.line,
      severity: 'warning',
      message:
        `${many ? 'columns' : 'column'} ${s.leftOut.map((c) => quote(c.column)).join(', ')}${more} ${many ? 'are' : 'is'} left out: a dataset keeps at most ` +
        `${MAX_METADATA_COLUMNS} columns of its own as metadata (kept: ${s.columns.join(', ')})`,
    });
  }
  if (s.reserved) {
    out.push({
      file,
      line: s.reserved.line,
      severity: 'warning',
      message: `column "${s.reserved.column}" is left out: that name cannot be kept as metadata (readers of JSON drop it); rename the column to keep it`,
    });
  }
  if (s.firstCut) {
    out.push({
      file,
      line: s.firstCut.line,
      severity: 'warning',
      message: `${s.cut === 1 ? 'a metadata value was' : `${s.cut} metadata values were`} cut to ${MAX_METADATA_CHARS} characters (the first: column ${quote(s.firstCut.column)})`,
    });
  }
  return out;
}
