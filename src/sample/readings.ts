import { AnswerEvalError, ConfigError } from '../errors.js';
import { FingerprintRecorder, type FileStamp, type Fingerprint } from '../dataset/fingerprint.js';
import { cyrb53 } from '../util/hash.js';
import { COLUMN_KINDS, type LogColumns, type NamedColumns } from './columns.js';
import type { Folded } from './fold.js';
import { Groups, MAX_DISTINCT } from './groups.js';
import { askedOf, type Languages } from './question.js';
import { logRows, type LogRow, type Skip } from './read.js';
import { noPii, type PiiCounts } from './scrub.js';
import { logBytes, type LogSource } from './source.js';
import type { SampleSummary } from './summary.js';

// The two readings of a log: the first counts every question into its group, the second finds how each question
// drawn was written.

/** How many lines of a question drawn are written, to say where it came from (`log.csv:12,40,51`). */
const SOURCE_LINES = 3;

/** How many of the first skipped rows are named (file:line and why); the others are counted. */
const SKIPS_NAMED = 5;

/** The most values a --stratify column may have: strata are for a few languages or channels, not for ids. */
export const MAX_STRATA = 1000;

export interface FirstReading {
  groups: Groups;
  columns: LogColumns;
  rows: number;
  questions: number;
  skipped: SampleSummary['skipped'];
  pii: PiiCounts;
  strata: string[];
  asked?: { from: string; to: string; unread: number };
  fingerprint: Fingerprint;
}

/** The first reading: every row's question scrubbed, folded and counted into its group. */
export async function countQuestions(source: LogSource, named: NamedColumns, languages: Languages, keepPii: boolean): Promise<FirstReading> {
  const recorder = new FingerprintRecorder();
  let stamp: FileStamp | undefined;
  let columns: LogColumns | undefined;
  const skipped = { empty: 0, invalid: 0, long: 0, first: [] as Skip[] };
  const skip = (s: Skip): void => {
    skipped[s.kind]++;
    if (skipped.first.length < SKIPS_NAMED) skipped.first.push(s);
  };
  const groups = new Groups(named.stratify !== undefined);
  const pii = noPii();
  const strata = new Map<string, number>();
  const times = new Times();
  let questions = 0;
  const rows = logRows(source, { bytes: logBytes(source, { recorder, opened: (s) => (stamp = s) }), named, onColumns: (c) => (columns = c), onSkip: skip });
  for await (const row of rows) {
    const asked = askedOf(row, languages, keepPii, pii);
    if (asked.folded === '') {
      skip({ line: row.line, kind: 'empty', message: 'the question holds nothing but punctuation' });
      continue;
    }
    const stratum = columns!.stratify === undefined ? -1 : stratumOf(row, strata, columns!);
    try {
      groups.add(asked.folded, asked.language, stratum, row.line);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      throw new AnswerEvalError(`${source.name}:${row.line}: more than ${MAX_DISTINCT.toLocaleString('en')} distinct questions, the most sample folds from one log: sample a part of the log (e.g. a month of it)`, 'LOG_TOO_LARGE', 2);
    }
    questions++;
    times.see(row.timestamp);
  }
  const rowsRead = questions + skipped.empty + skipped.invalid + skipped.long;
  return { groups, columns: columns!, rows: rowsRead, questions, skipped, pii, strata: [...strata.keys()], ...(times.range ? { asked: times.range } : {}), fingerprint: recorder.finish(stamp!) };
}

/** The number of a row's --stratify value ('' when blank), numbered in order of appearance, at most MAX_STRATA. */
function stratumOf(row: LogRow, strata: Map<string, number>, columns: LogColumns): number {
  const value = row.stratum ?? '';
  let n = strata.get(value);
  if (n === undefined) {
    if (strata.size >= MAX_STRATA) throw new ConfigError(`--stratify ${columns.stratify}: the column has more than ${MAX_STRATA} values (the last new one at line ${row.line}): stratify by a column with a few values, such as a language or channel`);
    n = strata.size;
    strata.set(value, n);
  }
  return n;
}

/** The texts folded into each question drawn (its number in `chosen`), by language. */
export function textsDrawn(groups: Groups, folded: Folded, chosen: readonly number[]): Map<string, number>[] {
  const slot = new Int32Array(folded.asked.length).fill(-1);
  chosen.forEach((f, i) => (slot[f] = i));
  const wanted: Map<string, number>[] = [];
  for (let g = 0; g < groups.size; g++) {
    const i = slot[folded.of[g]!]!;
    if (i >= 0) (wanted[groups.language[g]!] ??= new Map()).set(groups.textOf(g), i);
  }
  return wanted;
}

/**
 * The second reading: for each question drawn, the variant it is written as most often (ties: the first seen) among
 * every row folded into it, its first lines, and how many users asked it. The bytes must be those of the first reading.
 */
export async function readDrawn(
  source: LogSource,
  columns: LogColumns,
  fingerprint: Fingerprint,
  wanted: readonly (Map<string, number> | undefined)[],
  drawn: number,
  languages: Languages,
  keepPii: boolean,
): Promise<{ variants: string[]; users: number[]; lines: number[][] }> {
  const variants = Array.from({ length: drawn }, () => new Map<string, number>());
  const lines = Array.from({ length: drawn }, (): number[] => []);
  const users = Array.from({ length: drawn }, () => new Set<number>());
  const named: NamedColumns = Object.fromEntries(COLUMN_KINDS.filter((k) => columns[k] !== undefined).map((k) => [k, columns[k]]));
  if (columns.stratify !== undefined) named.stratify = columns.stratify;
  for await (const row of logRows(source, { bytes: logBytes(source, { checked: fingerprint }), named })) {
    const asked = askedOf(row, languages, keepPii);
    const i = wanted[asked.language]?.get(asked.folded) ?? -1;
    if (i < 0) continue;
    if (lines[i]!.length < SOURCE_LINES) lines[i]!.push(row.line);
    variants[i]!.set(asked.text, (variants[i]!.get(asked.text) ?? 0) + 1);
    if (row.user !== undefined) users[i]!.add(cyrb53(row.user));
  }
  const mostAsked = (m: Map<string, number>): string => {
    let best = '';
    let n = 0;
    for (const [text, count] of m) if (count > n) [best, n] = [text, count];
    return best;
  };
  return { variants: variants.map(mostAsked), users: users.map((u) => u.size), lines };
}

/** The earliest and latest time of the log's timestamp column: epoch seconds or milliseconds, or a date Date reads. */
class Times {
  #from = Infinity;
  #to = -Infinity;
  #unread = 0;

  see(value: string | undefined): void {
    if (value === undefined) return;
    const n = /^\d+(\.\d+)?$/.test(value) ? Number(value) : Number.NaN;
    const ms = Number.isFinite(n) ? (n < 1e11 ? n * 1000 : n) : Date.parse(value);
    if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) {
      this.#unread++;
      return;
    }
    this.#from = Math.min(this.#from, ms);
    this.#to = Math.max(this.#to, ms);
  }

  get range(): { from: string; to: string; unread: number } | undefined {
    if (this.#from === Infinity) return undefined;
    return { from: new Date(this.#from).toISOString(), to: new Date(this.#to).toISOString(), unread: this.#unread };
  }
}
