import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { AnswerEvalError, ConfigError, InputError } from '../errors.js';
import { checkEncoding } from '../dataset/decode.js';
import { FingerprintRecorder, type FileStamp } from '../dataset/fingerprint.js';
import { readLanguage } from '../model/language.js';
import { cyrb53 } from '../util/hash.js';
import { TOOL_NAME, TOOL_VERSION } from '../version.js';
import { COLUMN_KINDS, type LogColumns, type NamedColumns } from './columns.js';
import { DEFAULT_SEED, drawSample } from './draw.js';
import { foldGroups, type Folded } from './fold.js';
import { Groups, MAX_DISTINCT } from './groups.js';
import { NEAR_REPEAT_SIMILARITY } from './near.js';
import { foldText } from './normalise.js';
import { askedOf, Languages } from './question.js';
import { logRows, type LogRow, type Skip } from './read.js';
import { noPii, type PiiCounts } from './scrub.js';
import { logBytes, openLog, type LogSource } from './source.js';
import type { SampleSummary } from './summary.js';
import { checkNotThere, renderSet, setFormat, writeAtomically, type SampledQuestion } from './write.js';

export interface SampleOptions {
  /** The log of questions asked: CSV (with a header) or JSONL. */
  log: string;
  /** The question set to write: `.csv` or `.jsonl`. */
  out: string;
  /** How many questions to draw. @default 200 */
  size?: number;
  /** The seed of the draw: the same log and seed give the same set, byte for byte. @default DEFAULT_SEED (1) */
  seed?: number;
  /** The log's encoding when it is not UTF-8 (any label TextDecoder knows). */
  encoding?: string;
  /** Columns named rather than found (question, language, timestamp, user), and the column to stratify by. */
  columns?: NamedColumns;
  /** The language (ISO 639-1) of rows that do not say theirs. */
  language?: string;
  /** Write personal data as it is. @default false */
  keepPii?: boolean;
  /** The 3-gram Jaccard similarity from which two questions are near-repeats; 1: exact repeats only. @default 0.8 */
  similarity?: number;
  /** Replace --out (and its summary file) if they exist. @default false */
  overwrite?: boolean;
}

export const DEFAULT_SIZE = 200;

/** How many lines of a question drawn are written, to say where it came from (`log.csv:12,40,51`). */
const SOURCE_LINES = 3;

/** How many of the first skipped rows are named (file:line and why); the others are counted. */
const SKIPS_NAMED = 5;

/** The most values a --stratify column may have: strata are for a few languages or channels, not for ids. */
export const MAX_STRATA = 1000;

/** The summary file beside a question set: `set.csv` → `set.csv.sample.json` (a .jsonl beside it has its own). */
export const summaryPath = (out: string): string => `${out}.sample.json`;

/**
 * A question set drawn from a log of questions asked (`answer-eval sample`): the log read as a stream (twice: to
 * count, then to find how each question drawn was written), personal data scrubbed, repeats and near-repeats folded,
 * a reproducible draw of the most asked and of the long tail, written atomically with a summary beside it.
 */
export async function sampleLog(o: SampleOptions): Promise<SampleSummary> {
  const format = setFormat(o.out);
  const sidecar = summaryPath(o.out);
  if (resolve(o.out) === resolve(o.log)) throw new ConfigError(`--out ${o.out} is the log itself: write the question set to another file`);
  await checkNotThere(o.out, '--out', o.overwrite ?? false);
  await checkNotThere(sidecar, 'the summary file of --out,', o.overwrite ?? false);
  const encoding = checkEncoding(o.encoding);
  const fallback = o.language === undefined ? undefined : readLanguage(o.language);
  if (fallback !== undefined && 'problem' in fallback) throw new ConfigError(`--language ${fallback.problem}`);
  const size = o.size ?? DEFAULT_SIZE;
  const seed = o.seed ?? DEFAULT_SEED;
  const similarity = o.similarity ?? NEAR_REPEAT_SIMILARITY;
  const keepPii = o.keepPii ?? false;

  const source = await openLog(o.log, encoding);
  try {
    const languages = new Languages(fallback?.code);
    const first = await countQuestions(source, o.columns ?? {}, languages, keepPii);
    const { groups, columns, skipped } = first;
    if (groups.size === 0) throw nothingToSample(source.name, first.rows, skipped);
    const unreadLanguages = { count: languages.unread, ...(languages.firstUnread ? { first: languages.firstUnread } : {}) };

    groups.counted();
    const folded = foldGroups(groups, similarity);
    const byLanguage = columns.stratify !== undefined && columns.stratify === columns.language;
    const strata = byLanguage ? languages.codes : first.strata;
    const draw = drawSample({ asked: folded.asked, ...(columns.stratify !== undefined ? { stratum: strataOf(folded, groups, byLanguage), strata } : {}) }, size, seed);

    const wanted = textsDrawn(groups, folded, draw.chosen);
    groups.forgetTexts(); // what the second reading looks for is in `wanted`
    const details = await readDrawn(source, columns, first.fingerprint, wanted, draw.chosen.length, languages, keepPii);
    const questions = draw.chosen.map((f, i): SampledQuestion => {
      const g = folded.leader[f]!;
      const language = languages.codes[groups.language[g]!] || undefined;
      const question = details.variants[i]!;
      return {
        id: idOf(question, language),
        question,
        ...(language !== undefined ? { language } : {}),
        count: folded.asked[f]!,
        ...(columns.user !== undefined ? { users: details.users[i]! } : {}),
        source: `${source.name}:${details.lines[i]!.join(',')}`,
      };
    });
    uniqueIds(questions);

    const summary: SampleSummary = {
      log: source.name,
      sha256: first.fingerprint.sha256,
      format: source.format,
      encoding: source.encoding ?? 'utf-8',
      columns,
      rows: first.rows,
      questions: first.questions,
      skipped,
      unreadLanguages,
      ...(first.asked ? { asked: first.asked } : {}),
      distinct: groups.size,
      groups: folded.asked.length,
      similarity,
      nearCut: folded.cut,
      pii: keepPii ? 'kept' : first.pii,
      size,
      seed,
      drawn: questions.length,
      head: draw.head,
      tail: draw.tail,
      ...(draw.strata ? { strata: draw.strata.map((s) => ({ ...s, name: s.name === '' ? '(none)' : s.name })) } : {}),
      out: o.out,
      summaryFile: sidecar,
    };
    await writeAtomically(o.out, renderSet(questions, format), o.overwrite ?? false);
    await writeAtomically(sidecar, `${JSON.stringify(summaryRecord(summary), null, 2)}\n`, true);
    return summary;
  } finally {
    await source.close();
  }
}

/** The stable id of a question: `q-` and 10 hex digits of the sha256 of its language and folded text. */
export const idOf = (question: string, language: string | undefined): string =>
  `q-${createHash('sha256').update(`${language ?? ''}\n${foldText(question, language)}`).digest('hex').slice(0, 10)}`;

/** Two ids alike in 40 bits (as likely as a lottery win): the later one gets the whole hash's first 16 hex digits. */
function uniqueIds(questions: SampledQuestion[]): void {
  const seen = new Set<string>();
  for (const q of questions) {
    if (seen.has(q.id)) q.id = `q-${createHash('sha256').update(`${q.language ?? ''}\n${foldText(q.question, q.language)}\n${q.source}`).digest('hex').slice(0, 16)}`;
    seen.add(q.id);
  }
}

interface FirstReading {
  groups: Groups;
  columns: LogColumns;
  rows: number;
  questions: number;
  skipped: SampleSummary['skipped'];
  pii: PiiCounts;
  strata: string[];
  asked?: { from: string; to: string; unread: number };
  fingerprint: ReturnType<FingerprintRecorder['finish']>;
}

/** The first reading: every row's question scrubbed, folded and counted into its group. */
async function countQuestions(source: LogSource, named: NamedColumns, languages: Languages, keepPii: boolean): Promise<FirstReading> {
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

/** Each folded question's stratum: its representative's language, or the --stratify value of its first line. */
function strataOf(folded: Folded, groups: Groups, byLanguage: boolean): Int32Array {
  return folded.leader.map((g) => (byLanguage ? groups.language[g]! : Math.max(0, groups.stratum[g]!)));
}

/** The texts folded into each question drawn (its number in `chosen`), by language. */
function textsDrawn(groups: Groups, folded: Folded, chosen: readonly number[]): Map<string, number>[] {
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
async function readDrawn(
  source: LogSource,
  columns: LogColumns,
  fingerprint: FirstReading['fingerprint'],
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

/** Every row skipped: there is nothing to sample (exit 2), and the first reasons say why. */
function nothingToSample(file: string, rows: number, skipped: SampleSummary['skipped']): InputError {
  const why = rows === 0 ? 'holds no question (no row after the header)' : `no question to sample: every one of its ${rows.toLocaleString('en')} rows was skipped`;
  return new InputError([...skipped.first.map((s) => ({ file, line: s.line, message: s.message })), { file, line: 0, message: why }]);
}

/** The summary as the file beside the question set keeps it. */
function summaryRecord(s: SampleSummary): object {
  const { summaryFile: _, ...rest } = s;
  return { schemaVersion: 1, tool: `${TOOL_NAME} ${TOOL_VERSION}`, ...rest };
}
