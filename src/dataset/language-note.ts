import type { InputProblem } from '../errors.js';
import type { Question } from '../model/question.js';
import { quote } from '../model/quote.js';

/** The rows that wrote a language with a region (`en-US`), which are asked in its ISO 639-1 code (`en`). */
export interface RegionLanguages {
  /** Questions (and turns) whose language was a region form. */
  count: number;
  /** The first of them. */
  first?: { line: number; written: string; code: string };
}

/** Counts the questions written with a region form, keeping the first. */
export class RegionLanguageCounter {
  readonly summary: RegionLanguages = { count: 0 };

  add(q: Question): void {
    if (q.languageAsWritten === undefined) return;
    if (this.summary.count++ === 0) this.summary.first = { line: q.line, written: q.languageAsWritten, code: q.language! };
  }
}

/**
 * The one note a run and validate give for region forms, at the first such row: the spec's `language` is an
 * ISO 639-1 code (2.1), so `en-US` is sent as `en`. Nothing is refused; nothing is silent either.
 */
export function regionLanguageNote(regions: RegionLanguages, file: string): InputProblem | undefined {
  const { count, first } = regions;
  if (first === undefined) return undefined;
  const others = count > 1 ? ` (and ${count - 1} more question${count > 2 ? 's' : ''} with a region form)` : '';
  return {
    file,
    line: first.line,
    severity: 'warning',
    message: `language ${quote(first.written)} is sent as "${first.code}"${others}: the spec's language is an ISO 639-1 code, without a region`,
  };
}
