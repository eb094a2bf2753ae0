import { parseJsonText } from '../util/json-lines.js';

/**
 * A JSONL question set edited line by line: only the line of the question labeled changes (its object written
 * again with the keys set or removed, in their order), every other byte is kept. Pure: text in, text out.
 */

/** A line holding an object: where it sits (its line break, and a `\r` before it, excluded), its number, its object. */
export interface JsonlLine {
  start: number;
  end: number;
  line: number;
  value: Record<string, unknown>;
}

/** The lines of a JSONL text that hold an object (blank lines and lines of anything else are not rows to edit). */
export function jsonlLines(text: string): JsonlLine[] {
  const lines: JsonlLine[] = [];
  let start = text.startsWith('\uFEFF') ? 1 : 0;
  for (let line = 1; start <= text.length; line++) {
    const nl = text.indexOf('\n', start);
    const stop = nl < 0 ? text.length : nl;
    const end = text[stop - 1] === '\r' ? stop - 1 : stop;
    const raw = text.slice(start, end);
    if (raw.trim() !== '') {
      try {
        const value = parseJsonText(raw);
        if (typeof value === 'object' && value !== null && !Array.isArray(value)) lines.push({ start, end, line, value: value as Record<string, unknown> });
      } catch {
        // a bad line is the dataset reader's to report; it is never a row to edit
      }
    }
    if (nl < 0) break;
    start = nl + 1;
  }
  return lines;
}

/**
 * The object of a line with `changes` made: a key set to a value keeps its place (a new one goes last), a key set
 * to undefined is removed. Written as JSON.stringify writes it, on one line.
 */
export function editedLine(value: Readonly<Record<string, unknown>>, changes: ReadonlyMap<string, unknown>): string {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const next = changes.has(k) ? changes.get(k) : v;
    if (next !== undefined) Object.defineProperty(out, k, { value: next, enumerable: true, writable: true, configurable: true });
  }
  for (const [k, v] of changes) {
    if (!Object.prototype.hasOwnProperty.call(value, k) && v !== undefined) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return JSON.stringify(out);
}
