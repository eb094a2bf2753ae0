import type { Coverage } from '../model/coverage.js';
import type { Aliases } from '../model/expectations.js';
import type { QuestionResult } from '../model/report.js';
import { CoverageCounter, refOf } from '../score/coverage.js';

/** A result as the run received it, and what its question now expects. */
export interface Rejudged {
  result: QuestionResult;
  expected: QuestionResult['expected'];
}

/**
 * A run's coverage counted again over the same knowledge base (the entries its report lists): the questions the
 * dataset holds now and what they expect (through the alias file), the answers as they came, held to the floor: the
 * higher of the run's and rescore's, so an answer that a rescore floor drops counts as returned below the floor. Pure.
 */
export function recountCoverage(was: Coverage, rejudged: Iterable<Rejudged>, o: { aliases?: Aliases | undefined; floor?: number | undefined }): Coverage {
  const floors = [was.floor, o.floor].filter((f): f is number => f !== null && f !== undefined);
  const counter = new CoverageCounter({ knowledgeBase: was.knowledgeBase, entries: was.byEntry.map(refOf), aliases: o.aliases, floor: floors.length > 0 ? Math.max(...floors) : undefined });
  for (const { result, expected } of rejudged) {
    counter.expects(expected);
    counter.answered(result);
  }
  return counter.result();
}
