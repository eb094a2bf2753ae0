import type { Expectations } from '../dataset/question.js';
import { normalizeText } from './normalize.js';

/** The fields of an answer a matcher reads (a service item or a report answer). */
export interface MatchableAnswer {
  answer: string;
  sequence_number: number;
  label?: string | undefined;
  category?: string | undefined;
  tags: readonly string[];
}

/** Whether an answer meets a row's expectations; compiled once per question. */
export type Matcher = (item: MatchableAnswer) => boolean;

/** Old sequence_number -> current one (see src/dataset/aliases.ts). */
export type Aliases = ReadonlyMap<number, number>;

const CONTAINS = 'contains:';
const RE = 're:';

/**
 * Compiles one expected text value. Plain values compare equal after normalizeText;
 * `contains:x` is met when the normalized text contains normalized x;
 * `re:x` is a JavaScript regular expression (flags `iu`, not anchored) searched in the normalized text.
 * Throws a SyntaxError on a bad regular expression (the dataset reader reports it first).
 */
export function compileValue(value: string): (text: string | undefined) => boolean {
  if (value.startsWith(RE)) {
    const re = new RegExp(value.slice(RE.length), 'iu');
    return (text) => text !== undefined && re.test(normalizeText(text));
  }
  if (value.startsWith(CONTAINS)) {
    const needle = normalizeText(value.slice(CONTAINS.length));
    return (text) => text !== undefined && normalizeText(text).includes(needle);
  }
  const want = normalizeText(value);
  return (text) => text !== undefined && normalizeText(text) === want;
}

/** Why a value cannot be compiled (a bad `re:`), or undefined when it can. */
export function valueProblem(value: string): string | undefined {
  if (!value.startsWith(RE)) return undefined;
  try {
    new RegExp(value.slice(RE.length), 'iu');
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

const anyOf = (values: readonly string[]) => {
  const tests = values.map(compileValue);
  return (text: string | undefined) => tests.some((t) => t(text));
};

/** An expected sequence number through the alias map (chains were resolved when the file was read). */
export const resolveSequence = (value: string, aliases?: Aliases): number => {
  const n = Number(value);
  return aliases?.get(n) ?? n;
};

/**
 * Compiles a row's expectations into one predicate: AND across the given fields, OR within a field's
 * alternatives. `sequence` goes through `aliases`; `tag` is met by any of the answer's tags.
 */
export function compileMatcher(expected: Expectations, aliases?: Aliases): Matcher {
  const checks: Matcher[] = [];
  if (expected.answer) {
    const test = anyOf(expected.answer);
    checks.push((item) => test(item.answer));
  }
  if (expected.sequence) {
    const wanted = new Set(expected.sequence.map((v) => resolveSequence(v, aliases)));
    checks.push((item) => wanted.has(item.sequence_number));
  }
  if (expected.label) {
    const test = anyOf(expected.label);
    checks.push((item) => test(item.label));
  }
  if (expected.category) {
    const test = anyOf(expected.category);
    checks.push((item) => test(item.category));
  }
  if (expected.tag) {
    const test = anyOf(expected.tag);
    checks.push((item) => item.tags.some((t) => test(t)));
  }
  return (item) => checks.every((check) => check(item));
}

/** Whether an answer meets every expectation given (any one of the values of each). */
export const matches = (expected: Expectations, item: MatchableAnswer, aliases?: Aliases): boolean => compileMatcher(expected, aliases)(item);

export const hasExpectations = (expected: Expectations): boolean =>
  expected.answer !== undefined || expected.sequence !== undefined || expected.label !== undefined || expected.category !== undefined || expected.tag !== undefined;
