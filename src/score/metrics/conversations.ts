import type { ConversationMetrics, TurnPosition } from '../../model/metrics.js';
import { OUTCOME_CLASSES, top1Fraction, zeroCounts } from '../../model/outcome.js';
import type { QuestionResult } from '../../model/report.js';
import { TURN_CHECK_KEYS, type TurnCheckKey } from '../../model/turn-checks.js';
import { wilson } from './wilson.js';

interface Position {
  asked: number;
  correct: number;
  judged: number;
  failedHere: number;
  errorsHere: number;
}

/**
 * Counts the turns of conversations (results with `conversation`), a result at a time: the conversations' verdicts
 * (each counted at its first turn), the turns' outcomes, accuracy by turn position, where conversations break, and
 * each turn check on its own. Memory: a few counters per turn position.
 */
export class ConversationCounter {
  #count = 0;
  readonly #verdicts = { passed: 0, failed: 0, error: 0 };
  readonly #outcomes = zeroCounts();
  readonly #positions: Position[] = [];
  readonly #checks = Object.fromEntries(TURN_CHECK_KEYS.map((k) => [k, { passed: 0, n: 0 }])) as Record<TurnCheckKey, { passed: number; n: number }>;

  add(r: QuestionResult): void {
    const c = r.conversation;
    if (c === undefined) return;
    this.#outcomes[r.outcome]++;
    const at = (this.#positions[c.turn - 1] ??= { asked: 0, correct: 0, judged: 0, failedHere: 0, errorsHere: 0 });
    const cls = OUTCOME_CLASSES[r.outcome];
    if (cls.responded || cls.error) at.asked++;
    if (cls.judged) {
      at.judged++;
      if (cls.correct) at.correct++;
    }
    if (c.turn === 1) {
      this.#count++;
      this.#verdicts[c.verdict]++;
    }
    if (c.at === c.turn) {
      if (c.verdict === 'failed') at.failedHere++;
      else if (c.verdict === 'error') at.errorsHere++;
    }
    for (const key of TURN_CHECK_KEYS) {
      const passed = r.checks?.[key];
      if (passed === undefined) continue;
      this.#checks[key].n++;
      if (passed) this.#checks[key].passed++;
    }
  }

  /** Undefined when no result was a turn. */
  result(): ConversationMetrics | undefined {
    if (this.#count === 0) return undefined;
    const { passed, failed } = this.#verdicts;
    const turns = top1Fraction(this.#outcomes);
    const byTurn: TurnPosition[] = this.#positions.map((p, i) => ({
      turn: i + 1,
      asked: p?.asked ?? 0,
      accuracy: wilson(p?.correct ?? 0, p?.judged ?? 0),
      failedHere: p?.failedHere ?? 0,
      errorsHere: p?.errorsHere ?? 0,
    }));
    const worst = byTurn.reduce<TurnPosition | undefined>((best, p) => (p.failedHere > (best?.failedHere ?? 0) ? p : best), undefined);
    return {
      count: this.#count,
      verdicts: { ...this.#verdicts },
      passRate: wilson(passed, passed + failed),
      turnOutcomes: { ...this.#outcomes },
      turnAccuracy: wilson(turns.successes, turns.n),
      byTurn,
      breaksMost: worst ? { turn: worst.turn, conversations: worst.failedHere } : null,
      checks: Object.fromEntries(TURN_CHECK_KEYS.map((k) => [k, wilson(this.#checks[k].passed, this.#checks[k].n)])) as ConversationMetrics['checks'],
    };
  }
}
