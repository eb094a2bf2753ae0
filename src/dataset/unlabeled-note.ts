import type { InputProblem } from '../errors.js';
import { EXPECTATION_FIELDS, EXPECTATION_KEYS } from '../model/expectations.js';
import type { Question } from '../model/question.js';

/** Whether a question asks anything of its answer: an expectation, `expect`, or a turn's checks of the dialogue. */
export const isJudged = (q: Question): boolean => q.expect !== null || (q.checks !== undefined && Object.keys(q.checks).length > 0);

/**
 * The note validate and run give for a dataset of which no question expects anything: every one would be
 * "unlabeled", judged neither right nor wrong, so accuracy and every quality gate stay n/a. A set asked to see what the
 * service answers is one; a set whose expected answers sit in a column answer-eval does not know (`gold`, `target`)
 * is another, and this names its columns so the user can tell.
 */
export function unlabeledNote(file: string, judged: number, ownColumns: readonly string[]): InputProblem | undefined {
  if (judged > 0) return undefined;
  const own = ownColumns.length > 0 ? `; the set's own columns, kept as metadata and never judged: ${ownColumns.join(', ')}` : '';
  return {
    file,
    line: 1,
    severity: 'warning',
    message:
      `no question expects anything (no row has a value in ${EXPECTATION_KEYS.map((k) => EXPECTATION_FIELDS[k].column).join(', ')} or expect): ` +
      `every question will be unlabeled, so accuracy is n/a and only errors and latency are measured (label them after the run: answer-eval label RUN_DIR)${own}`,
  };
}
