import type { Coverage, CoverageEntry, CoverageRef } from '../model/coverage.js';
import { compileValue, isPlainValue, resolveSequence, type Aliases } from '../model/expectations.js';
import { normalizeText } from '../model/normalize.js';
import type { QuestionResult } from '../model/report.js';
import { scoreOrder } from './rank.js';
import { hasScores, knownEntry } from './result.js';

/** What coverage is measured against: the knowledge base's entries, and how expectations and answers are read. */
export interface CoverageBase {
  /** The knowledge base, as it was given (a path). */
  knowledgeBase: string;
  /** Its entries, in its order. */
  entries: readonly CoverageRef[];
  /** Old -> new expected sequence numbers (--aliases), as the matcher applies them. */
  aliases?: Aliases | undefined;
  /** A floor threshold answers are held to besides the service's floor answer (the embedded engine's, rescore's --floor). */
  floor?: number | undefined;
}

/** What of a result coverage reads: what it expected, and what it got. */
export type CoverageInput = Pick<QuestionResult, 'expected' | 'answers' | 'top1Index' | 'reply'>;

const unique = (indices: Iterable<number>): number[] => [...new Set(indices)];

/**
 * Counts, per knowledge-base entry, the questions that name it and those that returned it (first, at all, or only
 * below the floor), one result at a time: memory is four counters an entry, nothing a question. Pure.
 */
export class CoverageCounter {
  private readonly bySequence = new Map<number, number>();
  private readonly byLabel = new Map<string, number[]>();
  private readonly questions: Uint32Array;
  private readonly top1: Uint32Array;
  private readonly returned: Uint32Array;
  private readonly belowFloor: Uint32Array;

  constructor(private readonly base: CoverageBase) {
    const n = base.entries.length;
    [this.questions, this.top1, this.returned, this.belowFloor] = [new Uint32Array(n), new Uint32Array(n), new Uint32Array(n), new Uint32Array(n)];
    base.entries.forEach((e, i) => {
      if (!this.bySequence.has(e.sequence)) this.bySequence.set(e.sequence, i);
      if (e.label === null) return;
      const key = normalizeText(e.label);
      const list = this.byLabel.get(key);
      if (list) list.push(i);
      else this.byLabel.set(key, [i]);
    });
  }

  add(r: CoverageInput): void {
    this.expects(r.expected);
    this.answered(r);
  }

  /** Counts the entries a question's expectations name (see named). */
  expects(expected: QuestionResult['expected']): void {
    for (const i of this.named(expected)) this.questions[i]!++;
  }

  /**
   * The entries (their indices) an answerable question names: each of its expected sequence numbers (through the
   * aliases) and each entry having one of its plain expected labels (a label several entries share names them all);
   * a row giving both names the entries that have both. Other fields and matcher values (`contains:`, `re:`) name no
   * entry, but a label's matchers narrow the entries its sequence numbers name, as the matcher would.
   */
  named(expected: QuestionResult['expected']): number[] {
    if (expected.expect !== 'answer') return [];
    const { sequence, label } = expected;
    if (sequence !== undefined) {
      const named = unique(sequence.flatMap((v) => this.bySequence.get(resolveSequence(v, this.base.aliases)) ?? []));
      if (label === undefined) return named;
      const tests = label.map(compileValue);
      return named.filter((i) => tests.some((t) => t(this.base.entries[i]!.label ?? undefined)));
    }
    if (label === undefined) return [];
    return unique(label.filter(isPlainValue).flatMap((l) => this.byLabel.get(normalizeText(l)) ?? []));
  }

  /**
   * Counts the entries a reply returned, each once, where it ranks highest: in score order, every answer after a floor
   * answer is below the floor, and so is one scoring under the floor threshold (when known); above it, the top-1
   * counts as first. A floor answer is no entry, nor a text reply's answer whose entry is not known.
   */
  answered(r: CoverageInput): void {
    const seen = new Set<number>();
    const scored = hasScores(r);
    const { floor } = this.base;
    let pastFloor = false;
    for (const k of scoreOrder(r.answers)) {
      const a = r.answers[k]!;
      if (a.is_dummy_floor_answer) {
        pastFloor = true;
        continue;
      }
      const i = knownEntry(r, a) ? this.bySequence.get(a.sequence_number) : undefined;
      if (i === undefined || seen.has(i)) continue;
      seen.add(i);
      if (pastFloor || (scored && floor !== undefined && a.answer_score < floor)) this.belowFloor[i]!++;
      else {
        this.returned[i]!++;
        if (k === r.top1Index) this.top1[i]!++;
      }
    }
  }

  result(): Coverage {
    const byEntry = this.base.entries.map((e, i) => ({ ...e, questions: this.questions[i]!, top1: this.top1[i]!, returned: this.returned[i]!, belowFloor: this.belowFloor[i]! }));
    return coverageOf(this.base.knowledgeBase, this.base.floor ?? null, byEntry);
  }
}

/** An entry as the lists name it. */
export const refOf = (e: CoverageRef): CoverageRef => ({ sequence: e.sequence, label: e.label, title: e.title, ...(e.dialogueOnly ? { dialogueOnly: true as const } : {}) });

/** The coverage of a knowledge base from its entries' counts: the figure and the three lists. Pure. */
export function coverageOf(knowledgeBase: string, floor: number | null, byEntry: CoverageEntry[]): Coverage {
  const untested = byEntry.filter((e) => e.questions === 0).map(refOf);
  const tested = byEntry.length - untested.length;
  return {
    knowledgeBase,
    floor,
    entries: byEntry.length,
    tested,
    share: byEntry.length === 0 ? null : tested / byEntry.length,
    untested,
    neverTop1: byEntry.filter((e) => e.top1 === 0).map(refOf),
    belowFloorOnly: byEntry.filter((e) => e.returned === 0 && e.belowFloor > 0).map(refOf),
    byEntry,
  };
}
