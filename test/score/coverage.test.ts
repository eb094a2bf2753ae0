import { describe, expect, it } from 'vitest';
import type { CoverageRef } from '../../src/model/coverage.js';
import type { QuestionResult } from '../../src/model/report.js';
import { coverageGate } from '../../src/gate/coverage.js';
import { mergeCoverage } from '../../src/merge/coverage.js';
import { CoverageCounter, coverageOf } from '../../src/score/coverage.js';
import { ans, res } from '../helpers/results.js';

// The knowledge base's coverage by a question set, counted by hand over a knowledge base of six entries: two share a
// label, one has none, one is reachable only inside a dialogue.

const KB: CoverageRef[] = [
  { sequence: 10, label: 'billing', title: 'Bills' },
  { sequence: 11, label: 'billing', title: 'Bills (it)' },
  { sequence: 12, label: 'pay', title: 'Paying' },
  { sequence: 13, label: null, title: 'answer 13' },
  { sequence: 14, label: 'outage', title: 'Outages', dialogueOnly: true },
  { sequence: 15, label: 'moving', title: 'Moving' },
];

const floorAnswer = (score: number) => ans(0, score, { is_dummy_floor_answer: true, is_dummy_answer: true, label: undefined });
const answerable = (e: Omit<QuestionResult['expected'], 'expect'>): QuestionResult['expected'] => ({ expect: 'answer', ...e });

const results: QuestionResult[] = [
  // names 12; its top-1 is 12, and 10 comes second, above the floor
  res({ outcome: 'correct', expected: answerable({ sequence: ['12'] }), answers: [ans(12, 80), ans(10, 60)] }),
  // a label two entries share names both (compared as the matcher compares: `Billing` is `billing`); the service refused,
  // so 10, listed after its floor answer, was returned below the floor
  res({ outcome: 'abstained', expected: answerable({ label: ['Billing'] }), answers: [floorAnswer(30), ans(10, 20)] }),
  // 99 is an old number of 13 (the alias file)
  res({ outcome: 'correct', expected: answerable({ sequence: ['99'] }), answers: [ans(13, 70, { label: undefined })] }),
  // sequence and label together name the entries that have both: 10, not 12 (labeled pay); an error returns nothing
  res({ outcome: 'error', expected: answerable({ sequence: ['10', '12'], label: ['billing'] }) }),
  // an out-of-scope question names nothing, whatever it got
  res({ outcome: 'fallback_missed', expected: { expect: 'fallback' }, answers: [ans(15, 60)] }),
  // matcher values name no entry; an entry listed twice counts once
  res({ outcome: 'wrong', expected: answerable({ label: ['re:^mov'] }), answers: [ans(11, 55), ans(11, 50)] }),
  // ... but they narrow the entries a sequence number names, as the matcher would: 12 is labeled pay
  res({ outcome: 'correct', expected: answerable({ sequence: ['12'], label: ['contains:pa', 're:^pa'] }), answers: [] }),
  // under the run's floor threshold (50): returned below the floor
  res({ outcome: 'unlabeled', answers: [ans(14, 10)] }),
  // after a floor answer that is not the top-1: below the floor too
  res({ outcome: 'wrong', expected: answerable({ sequence: ['13'] }), answers: [ans(10, 90), floorAnswer(40), ans(12, 30)] }),
  // a text reply has no scores (no threshold holds) and an answer whose entry was not recovered is none
  res({ outcome: 'unlabeled', answers: [ans(-1, 0), ans(15, 0)], reply: { output: 'text' } }),
];

const count = () => {
  const counter = new CoverageCounter({ knowledgeBase: 'kb.jsonl', entries: KB, aliases: new Map([[99, 13]]), floor: 50 });
  for (const r of results) counter.add(r);
  return counter.result();
};

describe('coverage of the knowledge base', () => {
  it('counts, per entry, the questions that name it and those that returned it: first, at all, or only below the floor', () => {
    const counts = count().byEntry.map((e) => [e.sequence, e.questions, e.top1, e.returned, e.belowFloor]);
    expect(counts).toEqual([
      // sequence, questions, top1, returned, belowFloor
      [10, 2, 1, 2, 1],
      [11, 1, 1, 1, 0],
      [12, 2, 1, 1, 1],
      [13, 2, 1, 1, 0],
      [14, 0, 0, 0, 1],
      [15, 0, 1, 2, 0],
    ]);
  });

  it('the figure is tested entries / entries, and the three lists name the entries in the knowledge base\'s order', () => {
    const c = count();
    expect({ entries: c.entries, tested: c.tested, share: c.share, floor: c.floor, knowledgeBase: c.knowledgeBase }).toEqual({ entries: 6, tested: 4, share: 4 / 6, floor: 50, knowledgeBase: 'kb.jsonl' });
    expect(c.untested).toEqual([{ sequence: 14, label: 'outage', title: 'Outages', dialogueOnly: true }, { sequence: 15, label: 'moving', title: 'Moving' }]);
    expect(c.neverTop1.map((e) => e.sequence)).toEqual([14]);
    expect(c.belowFloorOnly.map((e) => e.sequence)).toEqual([14]);
  });

  it('without a floor threshold, only a floor answer puts what follows it below the floor', () => {
    const counter = new CoverageCounter({ knowledgeBase: 'kb.jsonl', entries: KB });
    for (const r of results) counter.add(r);
    const c = counter.result();
    expect(c.floor).toBeNull();
    // 14 (score 10) is returned now; 99 is no entry without the alias file, so 13 is named once
    expect(c.byEntry.find((e) => e.sequence === 14)).toMatchObject({ returned: 1, belowFloor: 0, top1: 1 });
    expect(c.byEntry.find((e) => e.sequence === 13)).toMatchObject({ questions: 1 });
    expect(c.belowFloorOnly).toEqual([]);
  });

  it('the union of two halves of the questions is the coverage of all of them', () => {
    const half = (part: QuestionResult[]) => {
      const counter = new CoverageCounter({ knowledgeBase: 'kb.jsonl', entries: KB, aliases: new Map([[99, 13]]), floor: 50 });
      for (const r of part) counter.add(r);
      return counter.result();
    };
    const first = half(results.slice(0, 5));
    const second = half(results.slice(5));
    // 13 is tested by both halves, 10 and 11 by the first alone, 12 by both
    expect(first.tested).toBe(4);
    expect(second.tested).toBe(2);
    expect(mergeCoverage([first, second])).toEqual(count());
  });

  it('an empty knowledge base has no figure', () => {
    expect(coverageOf('kb.jsonl', null, [])).toMatchObject({ entries: 0, tested: 0, share: null, untested: [] });
  });
});

describe('--min-coverage', () => {
  it('passes at or above the share; a failure names the untested entries', () => {
    const c = count();
    expect(coverageGate(c, 0.6)).toEqual({ gate: '--min-coverage', metric: 'coverage', threshold: 0.6, value: 4 / 6, passed: true, message: 'knowledge-base coverage 0.667 (4/6 entries tested) >= --min-coverage 0.6' });
    expect(coverageGate(c, 0.9)).toMatchObject({
      passed: false,
      message: 'knowledge-base coverage 0.667 (4/6 entries tested) < --min-coverage 0.9 (short by 0.233); untested: 14 outage, 15 moving',
    });
  });

  it('cannot be met without coverage, and says how to give the report one', () => {
    const gate = coverageGate(undefined, 0.5);
    expect(gate).toMatchObject({ passed: false, value: null });
    expect(gate.message).toMatch(/^knowledge-base coverage n\/a \(no coverage: it was made without a knowledge base: give the one beside the service with --kb FILE/);
  });
});
