import { AnswerEvalError } from '../errors.js';
import type { Figures } from '../pages/label/data.js';
import { rescoreReport } from '../rescore/rescore.js';

/**
 * The figures of a run judged again against the set as it is now: what `answer-eval rescore RUN -d SET` computes
 * (the same function), from the answers the run received, without asking anything. A set rescore refuses (a
 * question the run did not ask) gives no figures, and says why.
 */
export async function figuresOf(reportPath: string, setPath: string, revision: string): Promise<Figures> {
  try {
    const { head } = await rescoreReport(reportPath, { dataset: setPath });
    const intervals = head.metrics!.intervals;
    return {
      revision,
      top1Accuracy: intervals.top1Accuracy,
      answerableAccuracy: intervals.answerableAccuracy,
      judged: intervals.top1Accuracy.n,
      total: head.summary.total,
    };
  } catch (error) {
    if (!(error instanceof AnswerEvalError)) throw error;
    const none = { value: null, low: null, high: null, successes: 0, n: 0 };
    return { revision, top1Accuracy: none, answerableAccuracy: none, judged: 0, total: 0, problem: error.message };
  }
}
