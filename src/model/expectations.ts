import { normalizeText } from './normalize.js';
import { compileRegex, engineMessage, RegexProblem } from './regex.js';
import { cut } from './quote.js';

/** The fields of an answer an expectation reads (a service answer item, a report answer, a knowledge-base entry). */
export interface MatchableAnswer {
  answer: string;
  sequence_number: number;
  label?: string | undefined;
  category?: string | undefined;
  sub_category?: string | undefined;
  tags: readonly string[];
}

/** How one expectation field is read, matched, checked and put in words. */
export interface ExpectationField {
  /** The dataset column (CSV header or JSONL key). */
  column: `expected_${string}`;
  /** How reports name it: `label billing`. */
  noun: string;
  /** `text`: compared as text, with the matcher prefixes; `sequence`: whole numbers, through the alias file. */
  kind: 'text' | 'sequence';
  /** What of an answer it is compared with (several values for tags: any may match). */
  of: (a: MatchableAnswer) => readonly (string | undefined)[];
  /** Quote the values in words (free text), or not (names and numbers). */
  quoted: boolean;
  /** With `validate --kb`, a value no knowledge-base entry has is this problem (null: not checked). */
  missingInKb: 'error' | 'warning' | null;
  /** Which field names a question's expected answer first, in confusions and in words (lower first). */
  precedence: number;
}

/**
 * The one table of expectation fields: the dataset reader, validate, the matcher, the report schema and the
 * words in reports all read it. A new field is a compile error where a `Record<ExpectationKey, …>` lacks it.
 * The order is the order of the keys in report.json.
 */
export const EXPECTATION_FIELDS = {
  answer: { column: 'expected_answer', noun: 'answer', kind: 'text', of: (a) => [a.answer], quoted: true, missingInKb: null, precedence: 2 },
  sequence: { column: 'expected_sequence', noun: 'sequence', kind: 'sequence', of: (a) => [String(a.sequence_number)], quoted: false, missingInKb: 'error', precedence: 1 },
  label: { column: 'expected_label', noun: 'label', kind: 'text', of: (a) => [a.label], quoted: false, missingInKb: 'error', precedence: 0 },
  category: { column: 'expected_category', noun: 'category', kind: 'text', of: (a) => [a.category], quoted: false, missingInKb: 'warning', precedence: 3 },
  sub_category: { column: 'expected_sub_category', noun: 'sub category', kind: 'text', of: (a) => [a.sub_category], quoted: false, missingInKb: 'warning', precedence: 4 },
  tag: { column: 'expected_tag', noun: 'tag', kind: 'text', of: (a) => a.tags, quoted: false, missingInKb: 'warning', precedence: 5 },
} as const satisfies Record<string, ExpectationField>;

export type ExpectationKey = keyof typeof EXPECTATION_FIELDS;

/** Keys in report.json order. */
export const EXPECTATION_KEYS = Object.keys(EXPECTATION_FIELDS) as ExpectationKey[];

/** Keys in the order a question's expected answer is named (label first). */
export const EXPECTATION_KEYS_BY_PRECEDENCE = [...EXPECTATION_KEYS].sort((a, b) => EXPECTATION_FIELDS[a].precedence - EXPECTATION_FIELDS[b].precedence);

/**
 * What a row may require of the top-1 answer; every given field must match (any of its values).
 * Text values may start with a matcher prefix (`contains:`, `re:`).
 */
export type Expectations = { [K in ExpectationKey]?: string[] };

export const hasExpectations = (expected: Expectations): boolean => EXPECTATION_KEYS.some((k) => expected[k] !== undefined);

/** Separates several acceptable values in one expected_* cell of a CSV. */
export const ALTERNATIVES_SEPARATOR = ' || ';

type TextTest = (text: string | undefined) => boolean;

/**
 * The matcher prefixes of a text value. `contains:x` is met when the normalized text contains normalized x;
 * `re:x` is a JavaScript regular expression (flags `iu`, not anchored) searched in the normalized text, run in linear
 * time (src/model/regex.ts). Without a prefix, the normalized texts must be equal. Compiling a bad `re:` throws a
 * SyntaxError (not a regular expression) or a RegexProblem (one that needs backtracking).
 */
export const MATCHER_PREFIXES = {
  'contains:': (needle: string): TextTest => {
    const want = normalizeText(needle);
    return (text) => text !== undefined && normalizeText(text).includes(want);
  },
  're:': (source: string): TextTest => {
    const test = compileRegex(source);
    return (text) => text !== undefined && test(normalizeText(text));
  },
} as const;

type Prefix = keyof typeof MATCHER_PREFIXES;
const PREFIXES = Object.keys(MATCHER_PREFIXES) as Prefix[];

/** A value of each matcher, as messages suggest one. */
const MATCHER_EXAMPLES: Record<Prefix, string> = { 'contains:': 'contains:by card', 're:': 're:^pay(ment)?s?$' };

const prefixOf = (value: string): Prefix | undefined => PREFIXES.find((p) => value.startsWith(p));

/** A value without a matcher prefix: compared for equality after normalizeText. */
export const isPlainValue = (value: string): boolean => prefixOf(value) === undefined;

// compiled values by text: rows repeat them, and every path that judges (run, rescore, export, validate) compiles them
const compiled = new Map<string, TextTest>();

/** Compiles one expected text value (see MATCHER_PREFIXES). */
export function compileValue(value: string): TextTest {
  let test = compiled.get(value);
  if (test !== undefined) return test;
  const prefix = prefixOf(value);
  if (prefix !== undefined) test = MATCHER_PREFIXES[prefix](value.slice(prefix.length));
  else {
    const want = normalizeText(value);
    test = (text) => text !== undefined && normalizeText(text) === want;
  }
  if (compiled.size >= 1024) compiled.clear(); // a regular expression holds up to 64 KiB of automaton (src/model/regex.ts)
  compiled.set(value, test);
  return test;
}

const escapeRegex = (text: string): string => text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');

/**
 * What is wrong with a value, to follow `column "value" ` in a message, or undefined when it compiles: a matcher with
 * nothing after its prefix (met by any text); a prefix in another case (`CONTAINS:sun`, which would be compared as
 * text, and never met); `is not a valid regular expression: ... (e.g. {example})`, or, for one answer-eval cannot run
 * in linear time, why and what to write.
 */
export function valueProblem(value: string, example: string): string | undefined {
  const prefix = prefixOf(value);
  if (prefix !== undefined && normalizeText(value.slice(prefix.length)) === '') {
    return `is an empty matcher: "${prefix}" with nothing after it is met by any text (e.g. ${MATCHER_EXAMPLES[prefix]}; leave the cell empty to expect nothing)`;
  }
  const cased = prefix === undefined ? PREFIXES.find((p) => value.slice(0, p.length).toLowerCase() === p) : undefined;
  if (cased !== undefined) {
    const rest = value.slice(cased.length);
    return `starts with "${value.slice(0, cased.length)}", which is no matcher: matcher prefixes are lower case (${cut(`${cased}${rest}`)}; for the text itself, ${cut(`re:^${escapeRegex(normalizeText(value))}$`)})`;
  }
  try {
    compileValue(value);
    return undefined;
  } catch (error) {
    if (error instanceof RegexProblem) return `cannot be run: ${error.message}`;
    return `is not a valid regular expression: ${engineMessage((error as Error).message)} (e.g. ${example})`;
  }
}

/** Old sequence_number -> current one (see src/dataset/aliases.ts). */
export type Aliases = ReadonlyMap<number, number>;

/** An expected sequence number through the alias map (chains were resolved when the file was read). */
export const resolveSequence = (value: string, aliases?: Aliases): number => {
  const n = Number(value);
  return aliases?.get(n) ?? n;
};

/** A row's expectations in words: `label billing || invoice; category Billing`, in precedence order. */
export function describeExpectations(expected: Expectations): string {
  const parts: string[] = [];
  for (const key of EXPECTATION_KEYS_BY_PRECEDENCE) {
    const values = expected[key];
    if (!values?.length) continue;
    const field = EXPECTATION_FIELDS[key];
    parts.push(`${field.noun} ${field.quoted ? `"${values.join('" || "')}"` : values.join(' || ')}`);
  }
  return parts.join('; ');
}
