import { describe, expect, it } from 'vitest';
import { cellChanges, isUnlabeledRow, labelColumn } from '../../src/label/decision.js';

// Which column a set's labels go into, and which cells a decision sets.

const empty = { expected_answer: '', expected_sequence: '', expected_label: '', expected_category: '', expected_sub_category: '', expected_tag: '', expect: '' };

describe('labelColumn', () => {
  it('the column more rows fill; sequence on a tie; with none filled, label only when the set has only that column', () => {
    expect(labelColumn(['id', 'question', 'expected_label', 'expected_sequence'], new Map([['expected_label', 3], ['expected_sequence', 2]]))).toBe('expected_label');
    expect(labelColumn(['expected_label', 'expected_sequence'], new Map([['expected_label', 2], ['expected_sequence', 2]]))).toBe('expected_sequence');
    expect(labelColumn(['id', 'question', 'expected_label'], new Map())).toBe('expected_label');
    expect(labelColumn(['id', 'question'], new Map())).toBe('expected_sequence');
    expect(labelColumn(['expected_label', 'expected_sequence'], new Map())).toBe('expected_sequence');
  });
});

describe('cellChanges', () => {
  it('an answer: its sequence number, or its label in a set of labels; a label that would not read back as itself: the number', () => {
    expect(cellChanges({ kind: 'answer', sequence: 24, label: 'refund' }, 'expected_sequence', empty)).toEqual(new Map([['expected_sequence', '24']]));
    expect(cellChanges({ kind: 'answer', sequence: 24, label: 'refund' }, 'expected_label', empty)).toEqual(new Map([['expected_label', 'refund']]));
    expect(cellChanges({ kind: 'answer', sequence: 24 }, 'expected_label', empty)).toEqual(new Map([['expected_sequence', '24']]));
    for (const label of ['re:x', 'contains:y', 'a || b', ' padded', '']) {
      expect(cellChanges({ kind: 'answer', sequence: 5, label }, 'expected_label', empty), label).toEqual(new Map([['expected_sequence', '5']]));
    }
  });

  it('replaces whatever the row expected: other expectations cleared, a fallback cleared; "should be refused": expect=fallback alone', () => {
    const wrong = { ...empty, expected_label: 'billing', expected_category: 'Payments', expect: 'fallback' };
    expect(cellChanges({ kind: 'answer', sequence: 24, label: 'refund' }, 'expected_label', wrong)).toEqual(new Map([['expected_category', ''], ['expected_label', 'refund'], ['expect', '']]));
    expect(cellChanges({ kind: 'fallback' }, 'expected_sequence', { ...empty, expected_sequence: '7', expect: 'answer' })).toEqual(new Map([['expected_sequence', ''], ['expect', 'fallback']]));
    expect(cellChanges({ kind: 'skip' }, 'expected_sequence', wrong)).toEqual(new Map());
  });

  it('isUnlabeledRow: nothing expected, no expect', () => {
    expect(isUnlabeledRow(empty)).toBe(true);
    expect(isUnlabeledRow({ ...empty, expect: ' fallback' })).toBe(false);
    expect(isUnlabeledRow({ ...empty, expected_tag: 'x' })).toBe(false);
  });
});
