import { EXPECTATION_FIELDS, EXPECTATION_KEYS } from '../model/expectations.js';
import { DATASET_COLUMNS } from '../model/question.js';
import { TURN_CHECK_KEYS, TURN_CHECKS } from '../model/turn-checks.js';
import { editDistance } from '../util/distance.js';
import { quote } from '../model/quote.js';

const KNOWN = new Set(DATASET_COLUMNS);

/**
 * The most columns a dataset may have (a CSV header's names, a JSONL row's or turn's keys): its known columns are a few
 * dozen and it keeps at most 20 of its own as metadata, so 1,000 leaves room for a spreadsheet's unused ones. More is
 * refused at the header (or row), before each name is classified: a header of 100,000 columns cost minutes.
 */
export const MAX_COLUMNS = 1_000;

/** Why a header or a row has too many columns: `the header has 100,003 columns: ...`, after `what` (`the header`, `the row`). */
export const tooManyColumns = (what: string, count: number, noun: 'columns' | 'keys'): string =>
  `${what} has ${count.toLocaleString('en-US')} ${noun}: a dataset has at most ${MAX_COLUMNS.toLocaleString('en-US')}${noun === 'keys' ? ' columns' : ''} (its known columns, and columns of its own: at most 20 are kept as metadata)`;

export const isKnownColumn = (name: string): boolean => KNOWN.has(name);

/** A column name in one spelling: NFKC, lower case, words joined by `_` (camelCase, spaces, `-` and `.` part words). */
export function canonicalColumn(name: string): string {
  return name
    .normalize('NFKC')
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[\s\-.]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_|_$/g, '');
}

/**
 * What a name may be taken for, each with the known column it stands for: every known column, and the noun of each
 * expectation and turn check without its prefix (`label` for expected_label, `dialog` for expect_dialog): a column
 * named `label` or `answer` would otherwise leave every question unlabeled.
 */
const TARGETS: readonly (readonly [name: string, column: string])[] = [
  ...DATASET_COLUMNS.map((c) => [c, c] as const),
  ...EXPECTATION_KEYS.map((k) => [EXPECTATION_FIELDS[k].column.slice('expected_'.length), EXPECTATION_FIELDS[k].column] as const),
  ...TURN_CHECK_KEYS.map((k) => [TURN_CHECKS[k].column.slice('expect_'.length), TURN_CHECKS[k].column] as const),
];

/** The name and its other grammatical number: `tag`/`tags`, `expected_categories`/`expected_category`. */
const numbers = (name: string): string[] => [
  name,
  `${name}s`,
  ...(name.endsWith('s') ? [name.slice(0, -1)] : []),
  ...(name.endsWith('ies') ? [`${name.slice(0, -3)}y`] : []),
  ...(name.endsWith('y') ? [`${name.slice(0, -1)}ies`] : []),
];

/** How many edits a name may be from a target and still be a typo of it: 2 for targets of 8 letters or more, 1 for 5-7, none below. */
const reach = (target: string): number => (target.length >= 8 ? 2 : target.length >= 5 ? 1 : 0);

/**
 * The known columns a dataset column is a near miss of (empty when it is known, or no near miss: then it is the
 * dataset's own, kept as metadata). After canonicalColumn (case, `-`, spaces, `.`, camelCase), a near miss is the
 * first of: a known column or a prefix-less noun (`Question` → question, `label` → expected_label); one in the other
 * number (`questions`, `expected_categories`); the nearest within reach by edits (`expected_lable`, `quesiton`: see
 * `reach`). Names such as notes, owner, comment, source, priority, intent or category_old are no near miss of anything.
 */
export function nearMissOf(name: string): string[] {
  if (KNOWN.has(name)) return [];
  const canon = canonicalColumn(name);
  if (canon === '') return [];
  // the same name spelled another way; else in the other number
  for (const forms of [[canon], numbers(canon)]) {
    const same = new Set(TARGETS.filter(([t]) => forms.includes(t)).map(([, column]) => column));
    if (same.size > 0) return [...same];
  }
  let best = Infinity;
  let near: string[] = [];
  for (const [target, column] of TARGETS) {
    if (Math.abs(canon.length - target.length) > reach(target)) continue; // too far whatever the letters: no need to count
    const d = editDistance(canon, target);
    if (d > reach(target) || d > best) continue;
    if (d < best) [best, near] = [d, []];
    if (!near.includes(column)) near.push(column);
  }
  return near;
}

/** `did you mean expected_label?`, `did you mean tags or expected_tag?` */
export const didYouMean = (columns: readonly string[]): string =>
  `did you mean ${columns.length <= 1 ? columns.join('') : `${columns.slice(0, -1).join(', ')} or ${columns.at(-1)}`}?`;

/** The error of a near-miss column, as validate and run print it at the line where it first appears. */
export const nearMissMessage = (name: string, columns: readonly string[]): string => `column ${quote(name)} is not a known column: ${didYouMean(columns)}`;

/** The prefixes of expectation and turn-check columns: a column named with one is never the set's own. */
const RESERVED_PREFIXES = ['expected_', 'expect_'] as const;

/** The columns that say what is expected, with the noun each is known by (`sequence` for expected_sequence). */
const EXPECTING: readonly (readonly [noun: string, column: string])[] = TARGETS.filter(([noun, column]) => noun !== column);

/** Other words for an expectation's noun, as question sets name them (`expected_text`, `expected_intent`). */
const SYNONYMS: ReadonlyMap<string, string> = new Map([['text', 'answer'], ['response', 'answer'], ['reply', 'answer'], ['intent', 'label'], ['seq', 'sequence'], ['number', 'sequence']]);

/**
 * The expectation column an unknown `expected_*` / `expect_*` name most likely means, if any: one whose noun is among
 * its words (the longest: `expected_sequence_number` → expected_sequence, `expected_top1_label` → expected_label),
 * else one of whose noun a word is a synonym (`expected_text` → expected_answer) or an abbreviation of 3 letters or
 * more (`expected_seq`).
 */
function nearestExpectation(noun: string): string | undefined {
  const words = `_${noun}_`;
  const among = EXPECTING.filter(([n]) => words.includes(`_${n}_`)).sort(([a], [b]) => b.length - a.length)[0];
  if (among) return among[1];
  for (const word of noun.split('_')) {
    const target = SYNONYMS.get(word) ?? (word.length >= 3 ? EXPECTING.find(([n]) => n.startsWith(word))?.[0] : undefined);
    const found = EXPECTING.find(([n]) => n === target);
    if (found) return found[1];
  }
  return undefined;
}

const EXPECTATION_COLUMNS = DATASET_COLUMNS.filter((c) => c === 'expect' || RESERVED_PREFIXES.some((p) => c.startsWith(p)));

/**
 * Why a dataset column (a CSV header or JSONL key) cannot be read as the set's own, or undefined when it is known or
 * can: a near miss of a known column (nearMissOf), or any other name with the prefix of an expectation, `expected_`
 * or `expect_` (case, spaces and camelCase set aside, as for near misses): kept as a note, `expected_sequence_number`
 * would leave its questions unlabeled or met by any answer.
 */
export function columnProblem(name: string): string | undefined {
  if (KNOWN.has(name)) return undefined;
  const near = nearMissOf(name);
  if (near.length > 0) return nearMissMessage(name, near);
  const canon = canonicalColumn(name);
  const prefix = RESERVED_PREFIXES.find((p) => canon.startsWith(p));
  if (prefix === undefined) return undefined;
  const nearest = nearestExpectation(canon.slice(prefix.length));
  const known = `${EXPECTATION_COLUMNS.slice(0, -1).join(', ')} or ${EXPECTATION_COLUMNS.at(-1)}`;
  return (
    `column ${quote(name)} is not a known column: ${nearest === undefined ? '' : `${didYouMean([nearest])} `}` +
    `(a column named expected_* or expect_* is an expectation: ${known}; name a column of your own without that prefix)`
  );
}
