/**
 * How a failing question (or conversation) of a run stands against a baseline: whether this change made it fail.
 * junit.xml reads it (with --baseline, and compare.junit.xml) so a CI test view shows what broke, not every old
 * failure again on every pull request.
 */
export type Standing = 'broken' | 'new' | 'edited' | 'quarantined' | 'failingBefore' | 'errorBefore';

export interface StandingClass {
  /** Reported as a failure (else skipped, saying why). */
  fails: boolean;
  /** What a test view shows before the failure's own reason. */
  text: string;
}

/** The one table of standings: a new one is a compile error here until it says how it is reported. */
export const STANDINGS: Record<Standing, StandingClass> = {
  broken: { fails: true, text: 'broken (it passed in the baseline)' },
  new: { fails: true, text: 'new (not in the baseline)' },
  edited: { fails: true, text: 'edited since the baseline (its text, language or expectation: not compared)' },
  quarantined: { fails: false, text: 'broke, but quarantined' },
  failingBefore: { fails: false, text: 'failing in the baseline too' },
  errorBefore: { fails: false, text: 'not judged in the baseline (it ended in error there)' },
};

/**
 * The standing of every failing single question and every failed conversation of HEAD (errors are apart: they stay
 * errors), by id. Memory grows with HEAD's failures, not with its questions.
 */
export interface BaselineStandings {
  /** The baseline's report, as given: junit.xml names it. */
  readonly file: string;
  question(id: string): Standing | undefined;
  conversation(id: string): Standing | undefined;
  /** How many of them are skipped (not failures), questions and conversations together. */
  readonly skipped: number;
}
