import { describe, expect, it } from 'vitest';
import { canonicalColumn, columnProblem, nearMissOf } from '../../src/dataset/columns.js';
import { DATASET_COLUMNS } from '../../src/model/question.js';

describe('dataset columns: near misses of a known column', () => {
  it('canonicalColumn: case, spaces, - and . and camelCase into one spelling', () => {
    expect(['Question', 'QUESTION', ' question ', 'Expected Label', 'expected-label', 'expected.label', 'expectedLabel', 'Expected__Label'].map(canonicalColumn))
      .toEqual(['question', 'question', 'question', 'expected_label', 'expected_label', 'expected_label', 'expected_label', 'expected_label']);
  });

  it('flags another spelling, another number, a typo and a noun without its prefix, naming the known column', () => {
    const cases: Record<string, string[]> = {
      expected_lable: ['expected_label'],
      Question: ['question'],
      'expected-label': ['expected_label'],
      'Expected Label': ['expected_label'],
      expectedLabel: ['expected_label'],
      ID: ['id'],
      Id: ['id'],
      questions: ['question'],
      quesiton: ['question'],
      qestion: ['question'],
      expected_labels: ['expected_label'],
      expected_categories: ['expected_category'],
      expected_categroy: ['expected_category'],
      expectedanswer: ['expected_answer'],
      expect_label: ['expected_label'],
      label: ['expected_label'],
      lable: ['expected_label'],
      answer: ['expected_answer'],
      category: ['expected_category'],
      sequence: ['expected_sequence'],
      tag: ['expected_tag'],
      Tags: ['tags'],
      langauge: ['language'],
      Language: ['language'],
      user_name: ['username'],
      'extra-data': ['extra_data'],
      Turns: ['turns'],
      expect_dialogue: ['expect_dialog'],
      dialog: ['expect_dialog'],
      Conversation: ['conversation'],
    };
    expect(Object.fromEntries(Object.keys(cases).map((name) => [name, nearMissOf(name)]))).toEqual(cases);
  });

  it('leaves a known column and the columns editors add for themselves alone', () => {
    const own = [
      'notes', 'note', 'owner', 'owners', 'comment', 'comments', 'source', 'priority', 'intent', 'category_old', 'label_old', 'author', 'status',
      'reviewer', 'date', 'created', 'updated', 'url', 'link', 'topic', 'team', 'ticket', 'version', 'type', 'kind', 'group', 'name', 'text',
      'level', 'description', 'context', 'product', 'channel', 'region', 'persona', 'scenario', 'difficulty', 'reference', 'answer_text', 'lang',
      'user', 'expected', 'origin', 'jira', 'sprint', 'added_by', 'last_reviewed', 'intent_name', 'old_question', 'question_notes', '', ' ',
    ];
    expect(own.filter((name) => nearMissOf(name).length > 0)).toEqual([]);
    expect(DATASET_COLUMNS.filter((name) => nearMissOf(name).length > 0)).toEqual([]);
  });

  it('refuses any other column with the prefix expected_ or expect_ (an expectation that would be kept as a note), suggesting the nearest', () => {
    const known =
      'expected_answer, expected_sequence, expected_label, expected_category, expected_sub_category, expected_tag, expect, expect_post_processed or expect_dialog';
    const message = (name: string, near?: string): string =>
      `column ${JSON.stringify(name)} is not a known column: ${near === undefined ? '' : `did you mean ${near}? `}` +
      `(a column named expected_* or expect_* is an expectation: ${known}; name a column of your own without that prefix)`;
    const cases: Record<string, string | undefined> = {
      expected_sequence_number: 'expected_sequence',
      'Expected Sequence Number': 'expected_sequence',
      expectedSequenceNumber: 'expected_sequence',
      expected_seq: 'expected_sequence',
      expected_top1_label: 'expected_label',
      expected_text: 'expected_answer',
      expected_response: 'expected_answer',
      expected_intent: 'expected_label',
      expect_text: 'expected_answer',
      expected_dialog_state: 'expect_dialog',
      expected_top1: undefined,
      expect_foo: undefined,
    };
    for (const [name, near] of Object.entries(cases)) expect(columnProblem(name), name).toBe(message(name, near));
    // a near miss keeps its shorter message; known columns and the set's own have none
    expect(columnProblem('expected_lable')).toBe('column "expected_lable" is not a known column: did you mean expected_label?');
    expect([...DATASET_COLUMNS, 'notes', 'expected', 'expectation', 'label_expected'].filter((n) => columnProblem(n) !== undefined)).toEqual([]);
    expect(columnProblem('expected_by')).toBe(message('expected_by'));
  });
});
