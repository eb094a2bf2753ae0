import type { QuestionResult } from '../model/report.js';
import { isCorrect, isJudged } from '../model/outcome.js';
import { describeExpected } from '../report/describe.js';
import { sideOf } from './question.js';
import type { Comparison, CoverageChange, EditedQuestion, QuestionChange, QuestionEdit } from './schema.js';

export type Classified = Comparison['questions'];

/** A matched question: the same id in both reports. */
export interface Pair {
  base: QuestionResult;
  head: QuestionResult;
}

/** Both reports' questions matched by id: compared (the same question on both sides), edited, or on one side only. */
export interface Matched {
  /** Same id, same question and expectation: the common questions every class and statistic uses. */
  pairs: Pair[];
  /** Same id, but the question or its expectation was edited. */
  changed: (Pair & { edits: QuestionEdit[] })[];
  added: QuestionResult[];
  removed: QuestionResult[];
}

/** An expectation in a canonical form: fields in a fixed order, alternatives sorted, absent fields left out. */
const canonical = (expected: QuestionResult['expected']): string =>
  JSON.stringify(
    Object.keys(expected)
      .sort()
      .map((key) => {
        const value = expected[key as keyof typeof expected];
        return [key, Array.isArray(value) ? [...value].sort() : value];
      })
      .filter(([, value]) => value !== undefined),
  );

/** What differs between two versions of a question kept under one id; empty when it is the same question. */
export function questionEdits(base: QuestionResult, head: QuestionResult): QuestionEdit[] {
  const edits: QuestionEdit[] = [];
  if (base.question !== head.question) edits.push('question');
  if (base.language !== head.language) edits.push('language');
  if (canonical(base.expected) !== canonical(head.expected)) edits.push('expectation');
  return edits;
}

/** Matches questions by id (never by position); ids on one side only are coverage changes, edited ones are set apart. */
export function matchById(base: readonly QuestionResult[], head: readonly QuestionResult[]): Matched {
  const headById = new Map(head.map((r) => [r.id, r]));
  const baseIds = new Set(base.map((r) => r.id));
  const out: Matched = { pairs: [], changed: [], added: head.filter((r) => !baseIds.has(r.id)), removed: [] };
  for (const b of base) {
    const h = headById.get(b.id);
    if (h === undefined) {
      out.removed.push(b);
      continue;
    }
    const edits = questionEdits(b, h);
    if (edits.length === 0) out.pairs.push({ base: b, head: h });
    else out.changed.push({ base: b, head: h, edits });
  }
  return out;
}

const change = ({ base, head }: Pair): QuestionChange => {
  const b = sideOf(base);
  const h = sideOf(head);
  return { id: base.id, question: head.question, tags: head.tags, base: b, head: h, scoreDelta: b.top1 && h.top1 ? h.top1.score - b.top1.score : null };
};

const coverage = (r: QuestionResult): CoverageChange => ({ id: r.id, question: r.question, tags: r.tags, outcome: r.outcome });

const edited = (p: Matched['changed'][number]): EditedQuestion => ({
  ...change(p),
  edits: p.edits,
  baseQuestion: p.base.question,
  expected: { base: describeExpected(p.base.expected), head: describeExpected(p.head.expected) },
});

/**
 * Sorts every question into its class. Per common pair, exactly one of: error (on either side), broken, fixed,
 * top-1 changed (a different top-1 answer, correct on both sides or on neither), or unchanged (not listed). Score
 * drift is listed besides: the same top-1 answer (sequence number) on both sides whose score moved by more than
 * `scoreEpsilon`. Edited questions (`changed`), and questions on one side only, are listed apart.
 */
export function classify(matched: Matched, scoreEpsilon: number): Classified {
  const out: Classified = {
    broken: [],
    fixed: [],
    top1Changed: [],
    drift: [],
    added: matched.added.map(coverage),
    removed: matched.removed.map(coverage),
    changed: matched.changed.map(edited),
    errors: [],
  };
  for (const pair of matched.pairs) {
    const c = change(pair);
    const baseError = pair.base.outcome === 'error';
    const headError = pair.head.outcome === 'error';
    if (baseError || headError) {
      out.errors.push({ ...c, side: baseError && headError ? 'both' : baseError ? 'base' : 'head' });
      continue;
    }
    const sameTop = c.base.top1?.sequence_number === c.head.top1?.sequence_number;
    const judged = isJudged(pair.base.outcome) && isJudged(pair.head.outcome);
    const was = judged && isCorrect(pair.base.outcome);
    const now = judged && isCorrect(pair.head.outcome);
    if (was && !now) out.broken.push(c);
    else if (!was && now) out.fixed.push(c);
    else if (!sameTop) out.top1Changed.push(c);
    if (sameTop && c.scoreDelta !== null && Math.abs(c.scoreDelta) > scoreEpsilon) out.drift.push(c);
  }
  return out;
}
