import { sizeText } from '../util/json-lines.js';
import { limits } from '../util/limits.js';

/** What csv-parse tells about a parse error (raw: the text of the record it was reading). */
export interface CsvParseError {
  code?: string;
  message: string;
  lines?: number;
  raw?: string;
}

/**
 * A csv-parse error as a problem at the line a person should look at. csv-parse reports an unclosed quote at
 * the end of the file, where it gave up; the quote that opened the runaway field is what needs fixing.
 */
export function csvProblem(e: CsvParseError): { line: number; message: string } {
  if (e.code === 'CSV_QUOTE_NOT_CLOSED' && typeof e.raw === 'string' && typeof e.lines === 'number') {
    // `lines` is the line of the last character read, so a final line break starts no line
    const start = e.lines - countBreaks(e.raw.replace(/(\r\n|\r|\n)$/, ''));
    const at = openingQuote(e.raw);
    return {
      line: start + (at < 0 ? 0 : countBreaks(e.raw.slice(0, at))),
      message: `a quote opened on this line is never closed (everything to the end of the file, line ${e.lines}, became one field): ` +
        'close the quote, and double every quote inside a quoted field ("")',
    };
  }
  if (e.code === 'CSV_MAX_RECORD_SIZE' && typeof e.raw === 'string' && typeof e.lines === 'number') {
    const start = e.lines - countBreaks(e.raw);
    const at = openingQuote(e.raw);
    return {
      line: start + (at < 0 ? 0 : countBreaks(e.raw.slice(0, at))),
      message: at >= 0
        ? `a quote opened on this line is not closed within ${sizeText(limits.rowBytes)} (the most a row may hold): close the quote, and double every quote inside a quoted field ("")`
        : `the row beginning on this line is longer than ${sizeText(limits.rowBytes)}, the most a row may hold`,
    };
  }
  return { line: e.lines ?? 0, message: `unreadable CSV: ${e.message}` };
}

/** Where the quoted field that never closes begins in a record's raw text, or -1. */
export function openingQuote(raw: string): number {
  let i = 0;
  while (i < raw.length) {
    if (raw[i] !== '"') {
      while (i < raw.length && raw[i] !== ',' && raw[i] !== '\n') i++;
      i++;
      continue;
    }
    const open = i;
    for (i++; ; i++) {
      if (i >= raw.length) return open;
      if (raw[i] !== '"') continue;
      if (raw[i + 1] === '"') i++;
      else break;
    }
    while (i < raw.length && raw[i] !== ',' && raw[i] !== '\n') i++;
    i++;
  }
  return -1;
}

export const countBreaks = (text: string): number => text.match(/\r\n|\r|\n/g)?.length ?? 0;
