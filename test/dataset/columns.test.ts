import { describe, expect, it } from 'vitest';
import { canonicalColumn, nearMissOf } from '../../src/dataset/columns.js';
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
});
