/**
 * How a question ended, judged on its top-1 answer (src/score/outcome.ts decides it); a turn of a conversation also
 * on its turn checks (`check_failed`), and the turns after one that ended in error are `skipped`.
 */
export const OUTCOMES = ['correct', 'wrong', 'abstained', 'fallback_ok', 'fallback_missed', 'unlabeled', 'check_failed', 'error', 'skipped'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** What an outcome counts as, everywhere: summary, metrics, reports, the HTML page, compare and gates. */
export interface OutcomeClass {
  /** How reports name it. */
  label: string;
  /** In top-1 accuracy's numerator: the question got what it should. */
  correct: boolean;
  /** In top-1 accuracy's denominator: labeled and without error. */
  judged: boolean;
  /** In answerable accuracy's denominator: it expected an answer and got a response. */
  answerable: boolean;
  /** A failure of the service's answer (errors are apart: never a wrong answer). */
  failing: boolean;
  /** The request failed: no answer to judge. */
  error: boolean;
  /** The top-1 is a knowledge answer given in place of the expected one (or of a refusal): counted in confusions. */
  confusion: boolean;
  /** A response came back: there is an answer list to read (ranks, scores, latency, empty lists). */
  responded: boolean;
  /** Only a turn of a conversation can end so: the readable reports list it only for a run with conversations. */
  turnsOnly: boolean;
  /** The badge colour in report.html. */
  colour: string;
}

/** The one table of outcomes: a new outcome is a compile error here until it says what it counts as. */
export const OUTCOME_CLASSES: Record<Outcome, OutcomeClass> = {
  correct: { label: 'correct', correct: true, judged: true, answerable: true, failing: false, error: false, confusion: false, responded: true, turnsOnly: false, colour: 'var(--ok)' },
  wrong: { label: 'wrong', correct: false, judged: true, answerable: true, failing: true, error: false, confusion: true, responded: true, turnsOnly: false, colour: 'var(--bad)' },
  abstained: { label: 'abstained', correct: false, judged: true, answerable: true, failing: true, error: false, confusion: false, responded: true, turnsOnly: false, colour: 'var(--warn)' },
  fallback_ok: { label: 'fallback ok', correct: true, judged: true, answerable: false, failing: false, error: false, confusion: false, responded: true, turnsOnly: false, colour: '#5fb98a' },
  fallback_missed: { label: 'fallback missed', correct: false, judged: true, answerable: false, failing: true, error: false, confusion: true, responded: true, turnsOnly: false, colour: 'var(--miss)' },
  unlabeled: { label: 'unlabeled', correct: false, judged: false, answerable: false, failing: false, error: false, confusion: false, responded: true, turnsOnly: false, colour: 'var(--gray)' },
  // a turn whose answer met its expectations (or that expected nothing of it) but whose turn check failed (the
  // post-processed answer, the dialog state): a failed turn, so not correct in top-1 and answerable accuracy; the
  // turn checks are also counted on their own (metrics.conversations.checks)
  check_failed: { label: 'check failed', correct: false, judged: true, answerable: true, failing: true, error: false, confusion: false, responded: true, turnsOnly: true, colour: '#c2571a' },
  error: { label: 'error', correct: false, judged: false, answerable: false, failing: false, error: true, confusion: false, responded: false, turnsOnly: false, colour: 'var(--err)' },
  // a turn not asked because an earlier turn of its conversation ended in error: nothing to judge, and no error of its own
  skipped: { label: 'skipped', correct: false, judged: false, answerable: false, failing: false, error: false, confusion: false, responded: false, turnsOnly: true, colour: '#c8ced8' },
};

export const isCorrect = (o: Outcome): boolean => OUTCOME_CLASSES[o].correct;
export const isJudged = (o: Outcome): boolean => OUTCOME_CLASSES[o].judged;
/** A response came back (not an error, not a skipped turn): its answers can be read. */
export const hasResponse = (o: Outcome): boolean => OUTCOME_CLASSES[o].responded;
/** Failing or in error: what a reader looks at first. */
export const needsAttention = (o: Outcome): boolean => OUTCOME_CLASSES[o].failing || OUTCOME_CLASSES[o].error;

/** The outcomes a readable report lists: all of them for a run with conversations, else those a single question can get. */
export const outcomesShown = (withConversations: boolean): Outcome[] => OUTCOMES.filter((o) => withConversations || !OUTCOME_CLASSES[o].turnsOnly);

export type OutcomeCounts = Record<Outcome, number>;

/** Every outcome counted 0, in OUTCOMES order (so reports list them the same way every time). */
export const zeroCounts = (): OutcomeCounts => Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as OutcomeCounts;

/** A share as its two counts, for a ratio or an interval. */
export interface Fraction {
  successes: number;
  n: number;
}

const fraction = (counts: OutcomeCounts, top: (c: OutcomeClass) => boolean, bottom: (c: OutcomeClass) => boolean): Fraction => {
  let successes = 0;
  let n = 0;
  for (const o of OUTCOMES) {
    const c = OUTCOME_CLASSES[o];
    if (!bottom(c)) continue;
    n += counts[o];
    if (top(c)) successes += counts[o];
  }
  return { successes, n };
};

/** (correct + fallback_ok) / labeled questions without error. */
export const top1Fraction = (counts: OutcomeCounts): Fraction => fraction(counts, (c) => c.correct, (c) => c.judged);

/** correct / (correct + wrong + abstained). */
export const answerableFraction = (counts: OutcomeCounts): Fraction => fraction(counts, (c) => c.correct, (c) => c.answerable);

/** fallback_ok / (questions expecting a fallback that got a response): the out-of-scope recall. */
export const outOfScopeFraction = (counts: OutcomeCounts): Fraction => fraction(counts, (c) => c.correct, (c) => c.judged && !c.answerable);

/** fallback_missed / (questions expecting a fallback that got a response). */
export const fallbackMissedFraction = (counts: OutcomeCounts): Fraction =>
  fraction(counts, (c) => c.failing, (c) => c.judged && !c.answerable);

/** successes / n, null when n = 0. */
export const ratio = ({ successes, n }: Fraction): number | null => (n === 0 ? null : successes / n);

/** Results that got a response (see hasResponse). */
export const respondedCount = (counts: OutcomeCounts): number => OUTCOMES.reduce((n, o) => n + (OUTCOME_CLASSES[o].responded ? counts[o] : 0), 0);

/** Questions that failed (wrong, abstained, fallback missed, check failed): errors are counted apart. */
/** Results that need a look (failures and errors), from the counts. */
export const attentionCount = (counts: OutcomeCounts): number => OUTCOMES.reduce((n, o) => n + (needsAttention(o) ? counts[o] : 0), 0);

/** `a` less `b`, outcome by outcome: e.g. the single questions' counts, a run's less its turns'. */
export const minusCounts = (a: OutcomeCounts, b: OutcomeCounts | undefined): OutcomeCounts =>
  Object.fromEntries(OUTCOMES.map((o) => [o, a[o] - (b?.[o] ?? 0)])) as OutcomeCounts;

export const failingCount = (counts: OutcomeCounts): number => OUTCOMES.reduce((n, o) => n + (OUTCOME_CLASSES[o].failing ? counts[o] : 0), 0);
