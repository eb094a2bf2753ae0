import {
  compileValue,
  EXPECTATION_FIELDS,
  EXPECTATION_KEYS,
  resolveSequence,
  type Aliases,
  type ExpectationKey,
  type Expectations,
  type MatchableAnswer,
} from '../model/expectations.js';

/** One expectation field of a row, compiled. */
export interface FieldMatcher {
  key: ExpectationKey;
  /** The row's values, as written. */
  values: readonly string[];
  test: (item: MatchableAnswer) => boolean;
}

/** Whether an answer meets a row's expectations (every field it gives); compiled once per question. */
export interface Matcher {
  (item: MatchableAnswer): boolean;
  /** The fields the row gives, each with its own test: what a verdict's reason is made of. */
  readonly fields: readonly FieldMatcher[];
}

function compileField(key: ExpectationKey, values: readonly string[], aliases?: Aliases): FieldMatcher {
  const field = EXPECTATION_FIELDS[key];
  if (field.kind === 'sequence') {
    const wanted = new Set(values.map((v) => resolveSequence(v, aliases)));
    return { key, values, test: (item) => wanted.has(item.sequence_number) };
  }
  const tests = values.map(compileValue);
  return { key, values, test: (item) => field.of(item).some((text) => tests.some((t) => t(text))) };
}

/**
 * Compiles a row's expectations into one predicate: AND across the given fields, OR within a field's
 * alternatives (and, for tags, across the answer's tags). `sequence` goes through `aliases`.
 * Throws a SyntaxError on a bad `re:` (the dataset reader reports it first).
 */
export function compileMatcher(expected: Expectations, aliases?: Aliases): Matcher {
  const fields = EXPECTATION_KEYS.flatMap((key) => (expected[key] ? [compileField(key, expected[key], aliases)] : []));
  return Object.assign((item: MatchableAnswer) => fields.every((f) => f.test(item)), { fields });
}
