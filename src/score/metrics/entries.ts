import { isPlainValue } from '../../model/expectations.js';
import type { Entry, EntryFlow } from '../../model/metrics.js';
import { normalizeText } from '../../model/normalize.js';
import { isCorrect, isJudged } from '../../model/outcome.js';
import type { QuestionResult, ReportAnswer } from '../../model/report.js';
import { isNonAnswer } from '../outcome.js';
import { knownEntry, matchedAnswer, top1 } from '../result.js';

/** A knowledge-base entry, as far as the run (or a knowledge base file) tells. */
export interface EntryInfo {
  sequence: number | null;
  label: string | null;
  category: string | null;
  text: string | null;
}

export const OUT_OF_SCOPE = '(out of scope)';
export const NO_CATEGORY = '(category unknown)';
/** Where a question went when the service refused it. */
export const REFUSED = '(refused)';
/** The expected side of a question that expected any answer of the knowledge base. */
export const ANY_ANSWER = '(any answer)';

/** Entries remembered at most: a service that makes up a new answer per question must not grow memory with the run. */
export const MAX_ENTRIES = 50_000;

const keyOf = (info: EntryInfo): string => info.label ?? `#${info.sequence}`;

/**
 * Every knowledge-base entry the run shows (the sequence number, label, category and text of its answers), seeded
 * with a knowledge base when one is known (the embedded engine's, or --kb). `add` every result first (a pass),
 * then ask; memory is one record per entry (at most MAX_ENTRIES), not per question.
 */
export class EntryIndex {
  private readonly bySequence = new Map<number, EntryInfo>();
  private readonly byLabel = new Map<string, EntryInfo>();

  constructor(knowledgeBase: readonly EntryInfo[] = []) {
    for (const entry of knowledgeBase) this.learn({ ...entry });
  }

  add(r: QuestionResult): void {
    for (const a of r.answers) {
      if (a.is_dummy_floor_answer || !knownEntry(r, a)) continue; // the floor answer is no entry, nor a text whose entry is not known
      this.learn({ sequence: a.sequence_number, label: a.label || null, category: a.category || null, text: a.answer });
    }
  }

  /** The key of the entry an answer is: its label, else the label the entry has elsewhere, else `#sequence`. */
  keyOfAnswer(a: ReportAnswer): string {
    return a.label || this.bySequence.get(a.sequence_number)?.label || `#${a.sequence_number}`;
  }

  /**
   * The key of the entry a question's top-1 counts as, for the entry table (and the report's links to it): a
   * knowledge answer, or a dummy answer when it is the one the row expected (a greeting may rightly be small
   * talk); undefined when the question was refused (floor, small talk or no answer).
   */
  givenKey(r: QuestionResult): string | undefined {
    const top = top1(r);
    return top !== undefined && (!isNonAnswer(top) || r.rank === 1) ? this.keyOfAnswer(top) : undefined;
  }

  /**
   * The key of the entry a question expects: its matching answer's, else its first plain expected label, else its
   * first expected sequence number; undefined when the row names no entry (fallback rows, text-only expectations).
   */
  expectedKey(r: QuestionResult): string | undefined {
    const e = r.expected;
    if (e.expect !== 'answer') return undefined;
    const matched = matchedAnswer(r);
    if (matched && !matched.is_dummy_floor_answer) return this.keyOfAnswer(matched);
    const label = e.label?.find(isPlainValue);
    if (label !== undefined) {
      const info = this.byLabel.get(normalizeText(label));
      return info ? keyOf(info) : label;
    }
    const sequence = e.sequence?.[0];
    if (sequence !== undefined) {
      const info = this.bySequence.get(Number(sequence));
      return info ? keyOf(info) : `#${Number(sequence)}`;
    }
    return undefined;
  }

  /** What is known of the entry with this key. */
  lookup(key: string): EntryInfo | undefined {
    const sequence = /^#(-?\d+)$/.exec(key);
    return sequence ? this.bySequence.get(Number(sequence[1])) : this.byLabel.get(normalizeText(key));
  }

  /**
   * A question's category, for the category breakdowns of report and compare:
   * 1. the row's expected_category as written (alternatives joined by " || ");
   * 2. else the category of its first matching answer;
   * 3. else the category of the entry it expects (by sequence number, then plain label), as the run or the knowledge base tells;
   * 4. else "(out of scope)" for expect=fallback rows and "(category unknown)" for the rest.
   */
  categoryOf(r: QuestionResult): string {
    const e = r.expected;
    if (e.category) return e.category.join(' || ');
    const matched = matchedAnswer(r)?.category;
    if (matched) return matched;
    for (const s of e.sequence ?? []) {
      const category = this.bySequence.get(Number(s))?.category;
      if (category) return category;
    }
    for (const l of (e.label ?? []).filter(isPlainValue)) {
      const category = this.byLabel.get(normalizeText(l))?.category;
      if (category) return category;
    }
    return e.expect === 'fallback' ? OUT_OF_SCOPE : NO_CATEGORY;
  }

  readonly keysOf = (r: QuestionResult): string[] => [this.categoryOf(r)];

  /** Fills in what is missing of the entry (first seen wins for each field), under its sequence number and its label. */
  private learn(entry: EntryInfo): void {
    let info = (entry.sequence !== null ? this.bySequence.get(entry.sequence) : undefined) ?? (entry.label ? this.byLabel.get(normalizeText(entry.label)) : undefined);
    if (info === undefined) {
      if (this.bySequence.size >= MAX_ENTRIES) return;
      info = entry;
    } else {
      info.sequence ??= entry.sequence;
      info.label ??= entry.label;
      info.category ??= entry.category;
      info.text ??= entry.text;
    }
    if (info.sequence !== null && !this.bySequence.has(info.sequence)) this.bySequence.set(info.sequence, info);
    if (info.label && !this.byLabel.has(normalizeText(info.label))) this.byLabel.set(normalizeText(info.label), info);
  }
}

const MAX_FLOWS = 10;
const MAX_EXAMPLES = 3;

interface Row {
  expected: number;
  correct: number;
  refused: number;
  answered: number;
  answeredCorrectly: number;
  losesTo: Map<string, EntryFlow>;
  takesFrom: Map<string, EntryFlow>;
}

function flow(flows: Map<string, EntryFlow>, key: string, id: string): void {
  let f = flows.get(key);
  if (!f) flows.set(key, (f = { key, count: 0, examples: [] }));
  f.count++;
  if (f.examples.length < MAX_EXAMPLES) f.examples.push(id);
}

const mostFirst = (flows: Map<string, EntryFlow>): EntryFlow[] =>
  [...flows.values()].sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).slice(0, MAX_FLOWS);

const share = (n: number, of: number): number | null => (of === 0 ? null : n / of);

/**
 * The per-entry table over labeled questions without error: for each entry, the questions that expect it (recall:
 * how many got it), the questions it answered (precision: how many of its top-1s were right), and where its
 * questions went instead / whose questions it took. A top-1 counts as given when it is a knowledge answer, or the
 * answer the row expected (a greeting may rightly be small talk); otherwise the question was refused.
 */
export class EntryTable {
  private readonly rows = new Map<string, Row>();

  constructor(private readonly index: EntryIndex) {}

  add(r: QuestionResult): void {
    if (!isJudged(r.outcome)) return;
    const correct = isCorrect(r.outcome);
    const expected = this.index.expectedKey(r);
    const given = this.index.givenKey(r);
    if (expected !== undefined) {
      const row = this.row(expected);
      row.expected++;
      if (correct) row.correct++;
      else if (given === undefined) {
        row.refused++;
        flow(row.losesTo, REFUSED, r.id);
      } else if (given !== expected) flow(row.losesTo, given, r.id);
    }
    if (given !== undefined) {
      const row = this.row(given);
      row.answered++;
      if (correct) row.answeredCorrectly++;
      else if (given !== expected) flow(row.takesFrom, expected ?? (r.expected.expect === 'fallback' ? OUT_OF_SCOPE : ANY_ANSWER), r.id);
    }
  }

  /** The entries, by key. */
  result(): Entry[] {
    return [...this.rows.keys()].sort().map((key) => {
      const row = this.rows.get(key)!;
      const info = this.index.lookup(key);
      const recall = share(row.correct, row.expected);
      const precision = share(row.answeredCorrectly, row.answered);
      const f1 = recall === null || precision === null ? null : recall + precision === 0 ? 0 : (2 * recall * precision) / (recall + precision);
      return {
        key,
        sequence: info?.sequence ?? (/^#(-?\d+)$/.test(key) ? Number(key.slice(1)) : null),
        label: info?.label ?? (key.startsWith('#') ? null : key),
        category: info?.category ?? null,
        text: info?.text ?? null,
        expected: row.expected,
        correct: row.correct,
        refused: row.refused,
        answered: row.answered,
        answeredCorrectly: row.answeredCorrectly,
        recall,
        precision,
        f1,
        losesTo: mostFirst(row.losesTo),
        takesFrom: mostFirst(row.takesFrom),
      };
    });
  }

  private row(key: string): Row {
    let row = this.rows.get(key);
    if (!row) this.rows.set(key, (row = { expected: 0, correct: 0, refused: 0, answered: 0, answeredCorrectly: 0, losesTo: new Map(), takesFrom: new Map() }));
    return row;
  }
}
