import { describe, expect, it } from 'vitest';
import type { KbEntry } from '../../src/engine/kb.js';
import { searchKb } from '../../src/label/kb-search.js';

// Finding the right entry when it is not among the answers.

const entry = (sequenceNumber: number, label: string, answer: string, examples: string[] = []): KbEntry => ({ sequenceNumber, label, answer, examples, tags: [], language: 'en', smallTalk: false, followUps: [], dialogueOnly: false, line: sequenceNumber });
const kb = [entry(1, 'greeting', 'Hello!'), entry(20, 'payment_methods', 'Pay by card or transfer.', ['how can I pay']), entry(24, 'refund', 'We refund within 10 days.'), entry(31, 'refund_status', 'Track your Refund.')];

describe('searchKb', () => {
  it('a sequence number first, then a label equal to the query, then labels holding a word, then the rest, in order', () => {
    expect(searchKb(kb, '24').map((h) => h.sequence)).toEqual([24]);
    expect(searchKb(kb, 'Refund').map((h) => h.sequence)).toEqual([24, 31]);
    expect(searchKb(kb, 'pay').map((h) => h.sequence)).toEqual([20]);
    expect(searchKb(kb, 'how  CAN i').map((h) => h.sequence)).toEqual([20]);
    expect(searchKb(kb, 'nothing like it')).toEqual([]);
    expect(searchKb(kb, '').map((h) => h.sequence)).toEqual([1, 20, 24, 31]);
  });
});
