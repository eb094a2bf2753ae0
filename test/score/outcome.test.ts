import { describe, expect, it } from 'vitest';
import type { AnswerItem } from '../../src/model/answer.js';
import type { Question } from '../../src/model/question.js';
import { judge } from '../../src/score/outcome.js';
import { normalizeText } from '../../src/model/normalize.js';
import { ans } from '../helpers/results.js';

const answer = (over: Partial<AnswerItem> = {}): AnswerItem => ans(7, 80, { answer: 'Pay by card', label: 'payments', ...over });
const q = (expect: Question['expect'], expected: Question['expected'] = {}) => ({ expect, expected });

describe('normalizeText', () => {
  it('applies NFKC, case folding, trimming and whitespace collapse', () => {
    expect(normalizeText('  Ｐay\u00A0 BY\n\tcard ')).toBe('pay by card');
    expect(normalizeText('ﬁle')).toBe('file');
  });
});

describe('judge', () => {
  it('correct: the top-1 matches, by text, sequence or label', () => {
    expect(judge(q('answer', { answer: ['pay  by CARD'] }), answer())).toBe('correct');
    expect(judge(q('answer', { sequence: ['3', '7'] }), answer())).toBe('correct');
    expect(judge(q('answer', { label: ['Payments'] }), answer())).toBe('correct');
  });
  it('correct even when the matching top-1 is the dummy small-talk answer', () => {
    expect(judge(q('answer', { label: ['greeting'] }), answer({ label: 'greeting', is_dummy_answer: true }))).toBe('correct');
  });
  it('needs every given expectation to match', () => {
    expect(judge(q('answer', { sequence: ['7'], label: ['billing'] }), answer())).toBe('wrong');
  });
  it('wrong: a knowledge answer that does not match, suggestions included', () => {
    expect(judge(q('answer', { sequence: ['8'] }), answer())).toBe('wrong');
    expect(judge(q('answer', { sequence: ['8'] }), answer({ is_suggestion_answer: true }))).toBe('wrong');
  });
  it('abstained: a non-matching dummy or floor answer, or an empty list', () => {
    expect(judge(q('answer', { sequence: ['8'] }), answer({ is_dummy_floor_answer: true }))).toBe('abstained');
    expect(judge(q('answer', { sequence: ['8'] }), answer({ is_dummy_answer: true }))).toBe('abstained');
    expect(judge(q('answer', { sequence: ['8'] }), undefined)).toBe('abstained');
  });
  it('expect=answer without expectations: any knowledge answer is correct', () => {
    expect(judge(q('answer'), answer())).toBe('correct');
    expect(judge(q('answer'), answer({ is_dummy_floor_answer: true }))).toBe('abstained');
  });
  it('fallback_ok and fallback_missed', () => {
    expect(judge(q('fallback'), answer({ is_dummy_floor_answer: true }))).toBe('fallback_ok');
    expect(judge(q('fallback'), answer({ is_dummy_answer: true }))).toBe('fallback_ok');
    expect(judge(q('fallback'), undefined)).toBe('fallback_ok');
    expect(judge(q('fallback'), answer())).toBe('fallback_missed');
  });
  it('unlabeled', () => {
    expect(judge(q(null), answer())).toBe('unlabeled');
  });
});
