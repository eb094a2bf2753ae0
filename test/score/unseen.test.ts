import { describe, expect, it } from 'vitest';
import type { QuestionResult } from '../../src/model/report.js';
import { unseenExpectations, unseenNotes } from '../../src/score/unseen.js';

const answer = (label: string | undefined, extra: { category?: string; tags?: string[] } = {}) => ({
  answer: 'a', sequence_number: 1, answer_score: 80, tags: extra.tags ?? [], ...(label !== undefined ? { label } : {}), ...(extra.category ? { category: extra.category } : {}),
  is_agent_answer: true, is_dummy_answer: false, is_dummy_floor_answer: false, is_suggestion_answer: false, is_international_question: false,
  is_dialog_in_progress: false, is_dialogue_answer: false, delay: -1,
});

let line = 1;
const result = (expected: Partial<QuestionResult['expected']>, answers: ReturnType<typeof answer>[], error = false): QuestionResult => ({
  id: `q${++line}`, line, question: 'x', language: 'en', tags: [], expected: { expect: 'answer', ...expected }, outcome: error ? 'error' : 'wrong',
  top1Index: answers.length > 0 ? 0 : null, answers, unordered: false, latencyMs: error ? null : 5, attempts: 1,
  error: error ? { kind: 'http', message: 'HTTP 500' } : null,
});

describe('unseenExpectations', () => {
  it('names a misspelt label with the label the service gave, the most expected first, each at its first line', () => {
    line = 1;
    const u = unseenExpectations([
      result({ label: ['billing'] }, [answer('billing')]),
      result({ label: ['payment_metods'] }, [answer('payment_methods')]),
      result({ label: ['greting'] }, [answer('greeting')]),
      result({ label: ['greting'] }, [answer('greeting')]),
      result({ label: ['moving'] }, [answer('billing')]), // never given, and like nothing given: said by no line
    ]);
    expect(u.none).toEqual([]);
    expect(u.nearMisses.map((m) => [m.value, m.like, m.questions, m.id, m.line])).toEqual([
      ['greting', 'greeting', 2, 'q4', 4],
      ['payment_metods', 'payment_methods', 1, 'q3', 3],
    ]);
    expect(unseenNotes(u, 'qs.csv')).toEqual([
      'qs.csv:4: expected_label "greting" (2 questions, the first q4) is the label of no answer the service gave; it gave "greeting": a typo in the dataset? (its questions count as wrong)',
      'qs.csv:3: expected_label "payment_metods" (question q3) is the label of no answer the service gave; it gave "payment_methods": a typo in the dataset? (its questions count as wrong)',
    ]);
  });

  it('says when no expected value of a field is carried by any answer, and when the answers carry none at all', () => {
    const u = unseenExpectations([
      result({ label: ['Billing Questions'], category: ['billing'], sub_category: ['bills'] }, [answer('bq-01', { category: 'B' })]),
      result({ label: ['Payments'], category: ['payments'] }, [answer('pay-02')]),
    ]);
    expect(u.none).toEqual([
      { key: 'label', expected: 2, given: ['bq-01', 'pay-02'] },
      { key: 'category', expected: 2, given: ['B'] },
      { key: 'sub_category', expected: 1, given: [] },
    ]);
    const notes = unseenNotes(u, 'qs.csv');
    expect(notes[0]).toBe(
      'qs.csv: expected_label: none of the 2 value(s) the dataset expects is the label of any answer the service gave in this run (its answers carry labels such as "bq-01", "pay-02"): if the dataset names answers otherwise than the service, every question expecting one fails',
    );
    expect(notes[1]).toContain('expected_category: none of the 2 value(s) the dataset expects is the category of any answer the service gave in this run (its answers carry categories such as "B")');
    expect(notes[2]).toContain('expected_sub_category: none of the 1 value(s)');
    expect(notes[2]).toContain('its answers carry no sub category at all');
  });

  it('matches as the judge does (case, spaces), reads every answer and tag, and leaves out matchers and questions in error', () => {
    const u = unseenExpectations([
      result({ label: ['Greeting '] }, [answer('x'), answer('greeting')]), // a suggestion carries it
      result({ tag: ['bills'] }, [answer('y', { tags: ['payments', 'bills'] })]),
      result({ label: ['contains:gret', 're:^gr'] }, [answer('greeting')]),
      result({ label: ['greetng'] }, [], true), // no response: nothing to say about it
    ]);
    expect(u).toEqual({ none: [], nearMisses: [], answers: 4, floors: 0, cut: false });
    expect(unseenNotes(u, 'qs.csv')).toEqual([]);
  });

  it('a run answered only with empty lists: one note', () => {
    const u = unseenExpectations([result({ label: ['billing'] }, []), result({ expect: 'fallback' }, [])]);
    expect(unseenNotes(u, 'qs.csv')).toEqual([
      'qs.csv: every reply of the run was an empty list (no answer item at all), so no expected answer could be met: is it the right agent and knowledge base?',
    ]);
    expect(unseenNotes(unseenExpectations([result({ expect: 'fallback' }, [])]), 'qs.csv')).toEqual([]);
  });

  it('a run answered only with the floor answer: one note', () => {
    const floor = { ...answer(undefined), sequence_number: 0, is_agent_answer: false, is_dummy_answer: true, is_dummy_floor_answer: true };
    const u = unseenExpectations([result({ label: ['billing'] }, [floor]), result({ expect: 'fallback' }, [floor])]);
    expect(u).toMatchObject({ answers: 2, floors: 2 });
    expect(unseenNotes(u, 'qs.csv')).toEqual([
      "qs.csv: every reply of the run was the service's floor answer (nothing scored above its floor), so no expected answer could be met: is its floor threshold too high, or is it the right agent and knowledge base?",
    ]);
    // one answer above the floor: the usual notes
    expect(unseenNotes(unseenExpectations([result({ label: ['billing'] }, [floor]), result({ label: ['billing'] }, [answer('bill')])]), 'qs.csv')[0]).toContain('none of the 1 value(s)');
  });

  it('looks up only the values expected most often, and says how many more near misses there are', () => {
    const results = Array.from({ length: 30 }, (_, i) => result({ label: [`entry-${i}x`] }, [answer(`entry-${i}`), answer('other')]));
    const u = unseenExpectations(results);
    expect(u.cut).toBe(true);
    expect(u.nearMisses).toHaveLength(20);
    const notes = unseenNotes(u, 'qs.csv');
    expect(notes).toHaveLength(1 + 5 + 1);
    expect(notes.at(-1)).toBe("qs.csv: 15 more expected value(s) among the 20 expected most often look like typos of values the service gave; the report's confusions list them");
  });
});
