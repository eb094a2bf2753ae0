import { gzipBase64, interner } from '../../../report/html/encode.js';
import { OUTCOME_CLASSES, OUTCOMES, type Outcome } from '../../../model/outcome.js';
import { CHANGE_CLASS_ORDER, CHANGE_CLASSES } from '../../classes.js';
import { isConversationLine } from '../../conversations.js';
import type { ChangeClass, ChangeLine, Comparison, DriftGroup, QuestionLine, QuestionSide } from '../../schema.js';
import type { PageAnswer, PageGroup, PageRow } from '../../../pages/compare/data.js';

export type { PageAnswer, PageData, PageGroup, PageRow } from '../../../pages/compare/data.js';

/** Rows the page holds per class at most (the largest changes first); changes.jsonl has them all. */
export const PAGE_ROWS_PER_CLASS = 100_000;
/** Distinct answers kept in the table; past it, an answer is written in its row. */
export const MAX_ANSWERS = 20_000;

const reciprocal = (rank: number | null | undefined): number => (typeof rank === 'number' && rank > 0 ? 1 / rank : 0);

/**
 * How large a change is, to show the largest first: how far the expected answer moved (the change of reciprocal
 * rank: from rank 1 to not found is 1, from 1 to 2 is 0.5), then how far the top-1 score moved (a side without a
 * top-1 counts 0); for score drift (the same top-1), the score first. The page sorts by the same two numbers.
 */
export function sizeOf(line: QuestionLine): [number, number] {
  if (!('base' in line)) return [0, 0]; // added, removed
  const score = (s: QuestionSide) => s.top1?.score ?? 0;
  const rank = Math.abs(reciprocal(line.head.rank) - reciprocal(line.base.rank));
  const moved = Math.abs(score(line.head) - score(line.base));
  return line.class === 'drift' ? [moved, rank] : [rank, moved];
}

/**
 * Which changes of an over-full class the page holds: the `limit` largest (sizeOf), ties in the order found.
 * Returns, per class, a predicate on the class's running number; classes within the limit keep every row.
 */
function selection(c: Comparison, changes: Iterable<ChangeLine>, limit: number): Map<ChangeClass, (k: number) => boolean> {
  const over = CHANGE_CLASS_ORDER.filter((cls) => c.counts[cls] > limit);
  const keep = new Map<ChangeClass, (k: number) => boolean>();
  if (over.length === 0) return keep;
  const sizes = new Map(over.map((cls) => [cls, { primary: new Float64Array(c.counts[cls]), secondary: new Float64Array(c.counts[cls]), n: 0 }]));
  for (const line of changes) {
    if (isConversationLine(line)) continue;
    const s = sizes.get(line.class);
    if (!s || s.n >= s.primary.length) continue;
    [s.primary[s.n], s.secondary[s.n]] = sizeOf(line);
    s.n++;
  }
  for (const [cls, s] of sizes) {
    const order = Uint32Array.from({ length: s.n }, (_, i) => i).sort((a, b) => s.primary[b]! - s.primary[a]! || s.secondary[b]! - s.secondary[a]! || a - b);
    const chosen = new Uint8Array(s.n);
    for (const i of order.subarray(0, limit)) chosen[i] = 1;
    keep.set(cls, (k) => chosen[k] === 1);
  }
  return keep;
}

const group = (g: DriftGroup): PageGroup => [g.key, g.count, g.up, g.down, g.mean, g.min, g.p10, g.p50, g.p90, g.max, g.text];

/**
 * The page data (`PageData` as JSON: rows first, the tables they index after them) gzipped and base64-encoded, in
 * one pass over the changes (two when a class holds more than PAGE_ROWS_PER_CLASS: the first measures their sizes).
 * Memory: the distinct tags, categories and answers, and a block of text.
 */
export function* encodePageData(c: Comparison, changes: Iterable<ChangeLine>, limit = PAGE_ROWS_PER_CLASS): Generator<string> {
  const keep = selection(c, changes, limit);
  const tags = interner<string>((s) => s);
  const categories = interner<string>((s) => s);
  const answers = interner<PageAnswer>((a) => JSON.stringify(a), MAX_ANSWERS);
  const outcome = (o: Outcome | undefined): number => (o === undefined ? -1 : OUTCOMES.indexOf(o));
  const top = (s: QuestionSide | undefined): number | PageAnswer | null => {
    const t = s?.top1;
    if (!t) return null;
    const a: PageAnswer = [t.answer, t.sequence_number, t.label ?? '', t.category ?? ''];
    return answers.id(a) ?? a;
  };
  const seen = new Map<ChangeClass, number>();
  const shown = CHANGE_CLASS_ORDER.map(() => 0);

  function* rows(): Generator<string> {
    let first = true;
    for (const line of changes) {
      if (isConversationLine(line)) continue; // the page lists conversations apart, from compare.json
      const k = seen.get(line.class) ?? 0;
      seen.set(line.class, k + 1);
      if (!(keep.get(line.class)?.(k) ?? true)) continue;
      const cls = CHANGE_CLASS_ORDER.indexOf(line.class);
      shown[cls]!++;
      const compared = 'base' in line;
      const base = compared ? line.base : undefined;
      const head = compared ? line.head : undefined;
      let note: string | null = null;
      if (line.class === 'errors') note = [base?.error ? `base: ${base.error}` : '', head?.error ? `head: ${head.error}` : ''].filter(Boolean).join(' · ');
      if (line.class === 'changed') note = `edited: ${line.edits.join(', ')}`;
      const row: PageRow = [
        cls,
        line.id,
        line.question,
        line.tags.map((t) => tags.id(t)!),
        categories.id(line.category)!,
        line.class === 'added' ? -1 : outcome(base?.outcome ?? ('outcome' in line ? line.outcome : undefined)),
        line.class === 'removed' ? -1 : outcome(head?.outcome ?? ('outcome' in line ? line.outcome : undefined)),
        top(base),
        base?.top1?.score ?? null,
        top(head),
        head?.top1?.score ?? null,
        base?.rank ?? null,
        head?.rank ?? null,
        note,
        line.class === 'changed' ? [line.baseQuestion, line.expected.base, line.expected.head] : null,
      ];
      yield `${first ? '' : ','}${JSON.stringify(row)}`;
      first = false;
    }
  }

  yield* gzipBase64(
    (function* () {
      yield '{"rows":[';
      yield* rows();
      const meta = {
        classes: CHANGE_CLASS_ORDER,
        classLabels: CHANGE_CLASS_ORDER.map((k) => CHANGE_CLASSES[k].label),
        classTitles: CHANGE_CLASS_ORDER.map((k) => CHANGE_CLASSES[k].title),
        classTones: CHANGE_CLASS_ORDER.map((k) => CHANGE_CLASSES[k].tone),
        counts: CHANGE_CLASS_ORDER.map((k) => c.counts[k]),
        shown,
        outcomes: OUTCOMES,
        outcomeLabels: OUTCOMES.map((o) => OUTCOME_CLASSES[o].label),
        tags: tags.values,
        categories: categories.values,
        answers: answers.values,
        drift: { byEntry: c.drift.byEntry.map(group), byCategory: c.drift.byCategory.map(group) },
      };
      yield `],${JSON.stringify(meta).slice(1)}`;
    })(),
  );
}
