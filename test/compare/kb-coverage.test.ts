import { describe, expect, it } from 'vitest';
import { compareCoverage } from '../../src/compare/kb-coverage.js';
import { kbCoverageConsoleLines } from '../../src/compare/render/kb-coverage.js';
import type { Comparison } from '../../src/compare/schema.js';
import type { Coverage } from '../../src/model/coverage.js';
import { coverageOf } from '../../src/score/coverage.js';

/** A coverage whose entries `[sequence, questions]` are tested when questions > 0. */
const coverage = (entries: [number, number][]): Coverage =>
  coverageOf('kb.jsonl', null, entries.map(([sequence, questions]) => ({ sequence, label: `label-${sequence}`, title: `Entry ${sequence}`, questions, top1: questions, returned: questions, belowFloor: 0 })));

const ref = (n: number) => ({ sequence: n, label: `label-${n}`, title: `Entry ${n}` });

describe('compare: the knowledge base\'s coverage', () => {
  // BASE: 1 and 2 tested, 3 not; HEAD's knowledge base drops 3 and adds 4 (tested) and 5 (not); 1 lost its questions
  const base = coverage([[1, 2], [2, 1], [3, 0]]);
  const head = coverage([[1, 0], [2, 4], [4, 1], [5, 0]]);

  it('names the entries that lost their last test, those newly tested and those added without a test', () => {
    expect(compareCoverage(base, head)).toEqual({
      base: { knowledgeBase: 'kb.jsonl', entries: 3, tested: 2, share: 2 / 3 },
      head: { knowledgeBase: 'kb.jsonl', entries: 4, tested: 2, share: 0.5 },
      share: { base: 2 / 3, head: 0.5, delta: 0.5 - 2 / 3 },
      lostLastTest: [ref(1)],
      newlyTested: [ref(4)],
      addedUntested: [ref(5)],
    });
  });

  it('with one side without coverage: its figure only, no list; with neither: nothing', () => {
    expect(compareCoverage(undefined, head)).toEqual({
      base: null,
      head: { knowledgeBase: 'kb.jsonl', entries: 4, tested: 2, share: 0.5 },
      share: { base: null, head: 0.5, delta: null },
      lostLastTest: [],
      newlyTested: [],
      addedUntested: [],
    });
    expect(compareCoverage(undefined, undefined)).toBeUndefined();
  });

  it('the console says the change and each list', () => {
    const lines = kbCoverageConsoleLines({ kbCoverage: compareCoverage(base, head) } as Comparison);
    expect(lines).toEqual([
      '  KB coverage 66.7% -> 50.0% (−16.7 pts; 2 of 4 entries tested)',
      '  lost their last test (1): 1 label-1',
      '  newly tested (1): 4 label-4',
      '  added without a test (1): 5 label-5',
    ]);
    expect(kbCoverageConsoleLines({ kbCoverage: compareCoverage(base, undefined) } as Comparison)).toEqual([
      '  KB coverage 66.7% -> n/a (HEAD has no knowledge-base coverage: it was made without a knowledge base)',
    ]);
  });
});
