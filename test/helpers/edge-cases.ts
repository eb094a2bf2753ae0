import type { QuestionResult } from '../../src/model/report.js';
import { ans, res, withReason } from './results.js';

const seq = (...s: string[]): QuestionResult['expected'] => ({ expect: 'answer', sequence: s });
const floor = (score = 5) => ans(99, score, { is_dummy_floor_answer: true, label: 'floor' });

/** Hand-made results covering the corners of scoring: every outcome, empty lists, ties, odd expectations. */
export function edgeCases(): QuestionResult[] {
  return cases().map(withReason);
}

function cases(): QuestionResult[] {
  return [
    res({ id: 'e1', outcome: 'correct', expected: { expect: 'answer', category: ['Billing', 'Pay'] }, answers: [ans(1, 9, { category: 'Other' })], rank: null, tags: ['a', 'a', 'b'] }),
    res({ id: 'e2', outcome: 'wrong', expected: seq('2'), answers: [ans(3, 9, { category: 'Shop' }), ans(2, 5, { category: 'Cards' })], rank: 2, margin: 4, language: 'it' }),
    res({ id: 'e3', outcome: 'abstained', expected: seq('2'), answers: [] }),
    res({ id: 'e4', outcome: 'abstained', expected: { expect: 'answer', label: ['shop-label'] }, answers: [floor(0)] }),
    res({ id: 'e5', outcome: 'abstained', expected: { expect: 'answer', label: ['label-3'] }, answers: [] }),
    res({ id: 'e6', outcome: 'fallback_ok', expected: { expect: 'fallback' }, answers: [floor(2)] }),
    res({ id: 'e7', outcome: 'fallback_missed', expected: { expect: 'fallback' }, answers: [ans(8, 60), ans(9, 60)], margin: 0 }),
    res({ id: 'e8', outcome: 'wrong', expected: { expect: 'answer', answer: ['text'] }, answers: [ans(4, 60, { label: '' })], rank: null }),
    res({ id: 'e9', outcome: 'unlabeled', answers: [ans(3, 50, { is_suggestion_answer: true, is_dummy_answer: true })] }),
    res({ id: 'e10', outcome: 'error', expected: seq('1'), latencyMs: null }),
    res({ id: 'e11', outcome: 'correct', expected: seq('5'), answers: [ans(5, 0.25), ans(6, 0.125)], rank: 1, margin: 0.125, latencyMs: 0.4 }),
  ];
}

/** More corners for the report formats: category-only and tag-only rows, an unordered list, any-answer rows. */
export function reportEdgeCases(): QuestionResult[] {
  return [
    ...edgeCases(),
    ...moreCases().map(withReason),
  ];
}

function moreCases(): QuestionResult[] {
  return [
    res({ id: 'e12', outcome: 'wrong', expected: { expect: 'answer', category: ['Billing'] }, answers: [ans(7, 40, { category: 'Shop' }), ans(8, 30, { category: 'Billing' })], rank: 2, margin: 10 }),
    res({ id: 'e13', outcome: 'wrong', expected: { expect: 'answer', tag: ['refunds', 're:^pay'] }, answers: [ans(9, 40, { tags: ['shop', 'web'] })], rank: null }),
    res({ id: 'e14', outcome: 'correct', expected: { expect: 'answer', tag: ['web'] }, answers: [ans(9, 40, { tags: ['shop', 'web'] })], rank: 1 }),
    res({ id: 'e15', outcome: 'correct', expected: { expect: 'answer' }, answers: [ans(10, 70)] }),
    res({ id: 'e16', outcome: 'abstained', expected: { expect: 'answer' }, answers: [ans(1, 20, { is_dummy_answer: true, label: 'greeting' })] }),
    res({
      id: 'e17',
      outcome: 'wrong',
      expected: { expect: 'answer', label: ['label-11', 'label-12'], category: ['Cards'] },
      answers: [ans(12, 10, { category: 'Cards' }), ans(13, 30, { category: 'Cards' }), ans(11, 20, { category: 'Shop' })],
      unordered: true,
      rank: 3,
      margin: 10,
    }),
    // asked otherwise than the run, in xml: a sub category expected, the reply's post-processed answer and body kept
    res({
      id: 'e18',
      outcome: 'wrong',
      expected: { expect: 'answer', sub_category: ['late fees'] },
      answers: [ans(14, 40, { sub_category: 'payment', theme: '=Ways <b>to</b> pay', context: 'bills', answer_language: 'it', delay: 2 })],
      postProcessedAnswer: '@already answered <script>window.__xss=1</script>',
      sent: { output: 'xml', askForMetadata: true },
      reply: { output: 'xml', body: '<response><answers><answer_item><answer>Answer 14</answer></answer_item></answers><script>window.__xss=1</script></response>', cut: true },
    }),
    // read from a text reply: no scores, an answer whose entry is not known
    res({ id: 'e19', outcome: 'wrong', expected: { expect: 'answer', answer: ['Pay by card'] }, answers: [unknownText('Sorry, no idea')], margin: null, reply: { output: 'text' } }),
  ];
}

/** A text reply's answer whose entry is not known: sequence -1, no label, no score. */
function unknownText(answer: string) {
  const { label: _, ...a } = ans(-1, 0, { answer });
  return a;
}
