import type { ChangeClass } from './schema.js';

export interface ClassInfo {
  /** Short name, in counts and tabs. */
  label: string;
  /** Section title: what puts a question in the class. */
  title: string;
  /** How the pages colour it. */
  tone: 'bad' | 'good' | 'neutral';
  /** A question of the class was compared (common to both runs); false for coverage and edits, listed apart. */
  compared: boolean;
}

/** Every class of listed question, in the order the reports show them: a new class is a compile error here until it says how it reads. */
export const CHANGE_CLASSES: Record<ChangeClass, ClassInfo> = {
  broken: { label: 'broken', title: 'Broken: was correct, now is not', tone: 'bad', compared: true },
  quarantined: { label: 'broke, but quarantined', title: 'Broke, but quarantined: was correct, now is not, and in the quarantine (not counted as a regression)', tone: 'neutral', compared: true },
  fixed: { label: 'fixed', title: 'Fixed: was not correct, now is', tone: 'good', compared: true },
  top1Changed: { label: 'top-1 changed', title: 'Top-1 changed, same correctness', tone: 'neutral', compared: true },
  drift: { label: 'score drift', title: 'Score drift: same top-1, its score moved', tone: 'neutral', compared: true },
  errors: { label: 'errors', title: 'Errors on either side (not a regression)', tone: 'neutral', compared: true },
  added: { label: 'added', title: 'Added questions (coverage, not a regression)', tone: 'neutral', compared: false },
  removed: { label: 'removed', title: 'Removed questions (coverage, not a regression)', tone: 'neutral', compared: false },
  changed: { label: 'changed', title: 'Changed questions: question or expectation edited, not compared', tone: 'neutral', compared: false },
};

export const CHANGE_CLASS_ORDER = Object.keys(CHANGE_CLASSES) as ChangeClass[];
