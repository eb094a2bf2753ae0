import { EXPECTATION_FIELDS, MATCHER_PREFIXES, type ExpectationKey } from '../model/expectations.js';
import { normalizeText } from '../model/normalize.js';
import type { QuestionResult } from '../model/report.js';
import { nearest } from '../util/distance.js';
import { cut, quote, quoteList } from '../model/quote.js';

/** The names an answer carries that a dataset could misspell: checked against every answer the run received. */
const NAMED: readonly ExpectationKey[] = ['label', 'category', 'sub_category', 'tag'];
/** Values looked up for a near miss among those the service gave (the most expected first), and named in the note. */
const LOOKED_UP = 20;
const NAMED_MISSES = 5;

/** An expected value that no answer of the run carried. */
export interface Unseen {
  key: ExpectationKey;
  /** As the dataset wrote it (the first time). */
  value: string;
  /** Questions with a response that expected it. */
  questions: number;
  /** The first such question's id and dataset line. */
  id: string;
  line: number;
  /** The value the service gave that it is one or two typos away from, when there is one. */
  like?: string;
}

export interface UnseenSummary {
  /** Keys of which no expected value was carried by any answer, with how many values were expected and what the service gave instead. */
  none: { key: ExpectationKey; expected: number; given: string[] }[];
  /** Expected values one or two typos away from a value the service gave, the most expected first. */
  nearMisses: Unseen[];
  /** Answer items the responses held, all told (0: every reply was an empty list). */
  answers: number;
  /** Of those, floor answers (`answers === floors`: the service answered nothing above its floor). */
  floors: number;
  /** Whether more values no answer carried were left without a look-up (nearMisses may then miss some). */
  cut: boolean;
}

const isPlain = (value: string): boolean => !Object.keys(MATCHER_PREFIXES).some((prefix) => value.startsWith(prefix));

/**
 * The expected names (labels, categories, sub categories, tags) that no answer of the run carried, among questions
 * that got a response: a misspelt value in the dataset makes its questions "wrong" when the service was right,
 * and a dataset that names answers otherwise than the service does makes every one wrong. Values with a matcher
 * prefix (`contains:`, `re:`) are not names and are left out. Pure: one pass over the results.
 */
export function unseenExpectations(results: Iterable<QuestionResult>): UnseenSummary {
  const given = new Map<ExpectationKey, Map<string, string>>(NAMED.map((k) => [k, new Map()]));
  const expected = new Map<ExpectationKey, Map<string, Unseen>>(NAMED.map((k) => [k, new Map()]));
  let answers = 0;
  let floors = 0;
  for (const r of results) {
    if (r.error !== null) continue;
    answers += r.answers.length;
    for (const answer of r.answers) if (answer.is_dummy_floor_answer) floors++;
    for (const key of NAMED) {
      const seen = given.get(key)!;
      for (const answer of r.answers) {
        for (const value of EXPECTATION_FIELDS[key].of(answer)) if (value) seen.set(normalizeText(value), value);
      }
      const wanted = expected.get(key)!;
      for (const value of r.expected[key] ?? []) {
        if (!isPlain(value)) continue;
        const norm = normalizeText(value);
        const known = wanted.get(norm);
        if (known) known.questions++;
        else wanted.set(norm, { key, value, questions: 1, id: r.id, line: r.line });
      }
    }
  }
  const none: UnseenSummary['none'] = [];
  const misses: Unseen[] = [];
  for (const key of NAMED) {
    const seen = given.get(key)!;
    const wanted = [...expected.get(key)!].filter(([norm]) => !seen.has(norm)).map(([, u]) => u);
    if (wanted.length > 0 && wanted.length === expected.get(key)!.size) none.push({ key, expected: wanted.length, given: [...seen.values()].slice(0, 3) });
    misses.push(...wanted);
  }
  misses.sort((a, b) => b.questions - a.questions || a.line - b.line);
  const nearMisses: Unseen[] = [];
  for (const miss of misses.slice(0, LOOKED_UP)) {
    const seen = given.get(miss.key)!;
    const near = nearest(normalizeText(miss.value), [...seen.keys()]);
    if (near !== undefined) nearMisses.push({ ...miss, like: seen.get(near)! });
  }
  return { none, nearMisses, answers, floors, cut: misses.length > LOOKED_UP };
}

/**
 * The warnings a run (or a rescore) gives about expected names no answer carried: one line per key nothing matched,
 * then the first near misses, each with its dataset file:line. Empty when there is nothing to say.
 */
export function unseenNotes(u: UnseenSummary, file: string): string[] {
  const column = (key: ExpectationKey): string => EXPECTATION_FIELDS[key].column;
  const noun = (key: ExpectationKey): string => EXPECTATION_FIELDS[key].noun;
  const nouns = (key: ExpectationKey): string => noun(key).replace(/y$/, 'ie') + 's'; // categories
  // a service that answered every question with an empty list: one note says it all
  if (u.answers === 0) return u.none.length > 0 ? [`${file}: every reply of the run was an empty list (no answer item at all), so no expected answer could be met: is it the right agent and knowledge base?`] : [];
  if (u.answers === u.floors) {
    return u.none.length > 0 ? [`${file}: every reply of the run was the service's floor answer (nothing scored above its floor), so no expected answer could be met: is its floor threshold too high, or is it the right agent and knowledge base?`] : [];
  }
  const notes = u.none.map(({ key, expected, given }) => {
    const instead = given.length > 0 ? `its answers carry ${nouns(key)} such as ${quoteList(given)}` : `its answers carry no ${noun(key)} at all`;
    return (
      `${file}: ${column(key)}: none of the ${expected} value(s) the dataset expects is the ${noun(key)} of any answer the service gave in this run (${instead}): ` +
      `if the dataset names answers otherwise than the service, every question expecting one fails`
    );
  });
  for (const m of u.nearMisses.slice(0, NAMED_MISSES)) {
    notes.push(
      `${file}:${m.line}: ${column(m.key)} ${quote(m.value)} (${m.questions === 1 ? `question ${cut(m.id)}` : `${m.questions} questions, the first ${cut(m.id)}`}) is the ${noun(m.key)} of no answer the service gave; ` +
        `it gave ${quote(m.like)}: a typo in the dataset? (its questions count as wrong)`,
    );
  }
  const more = u.nearMisses.length - NAMED_MISSES;
  if (more > 0) {
    const among = u.cut ? ` among the ${LOOKED_UP} expected most often` : '';
    notes.push(`${file}: ${more} more expected value(s)${among} look like typos of values the service gave; the report's confusions list them`);
  }
  return notes;
}
