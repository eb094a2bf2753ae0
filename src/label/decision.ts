import { EXPECTATION_FIELDS, EXPECTATION_KEYS, MATCHER_PREFIXES } from '../model/expectations.js';

/** What the editor decided of a question: the answer that is right (by sequence number), "should be refused", or not now. */
export type Decision = { kind: 'answer'; sequence: number; label?: string } | { kind: 'fallback' } | { kind: 'skip' };

/** The expectation column a set's labels go into. */
export type LabelColumn = 'expected_sequence' | 'expected_label';

const SEQUENCE = EXPECTATION_FIELDS.sequence.column;
const LABEL = EXPECTATION_FIELDS.label.column;
/** Every expectation column of a row (a label replaces whatever the row expected). */
export const EXPECTATION_COLUMNS: readonly string[] = EXPECTATION_KEYS.map((k) => EXPECTATION_FIELDS[k].column);

/**
 * The column the set uses for its labels: the one of expected_sequence and expected_label that more rows fill
 * (expected_sequence on a tie); with neither filled, expected_label when only that column is there, else
 * expected_sequence.
 */
export function labelColumn(columns: readonly string[], filled: ReadonlyMap<string, number>): LabelColumn {
  const seq = filled.get(SEQUENCE) ?? 0;
  const label = filled.get(LABEL) ?? 0;
  if (seq > 0 || label > 0) return label > seq ? LABEL : SEQUENCE;
  return columns.includes(LABEL) && !columns.includes(SEQUENCE) ? LABEL : SEQUENCE;
}

/**
 * A label that reads back as itself: not empty, no matcher prefix (`re:` would become a pattern), no `||` (which
 * separates alternatives).
 */
const plainLabel = (label: string | undefined): label is string =>
  label !== undefined && label.trim() === label && label !== '' && !label.includes('||') && !Object.keys(MATCHER_PREFIXES).some((p) => label.startsWith(p));

/**
 * The cells a decision sets in a row, given the row's values now (its expectation columns and `expect`): the
 * answer's label (in the set's label column, when it has a plain label) or its sequence number, and every other
 * expectation of the row cleared, `expect` cleared when it said fallback; or `expect` = fallback with every
 * expectation cleared. An empty value clears a cell (a JSONL key is removed). A skip sets nothing.
 */
export function cellChanges(decision: Decision, column: LabelColumn, row: Readonly<Record<string, string>>): Map<string, string> {
  const changes = new Map<string, string>();
  if (decision.kind === 'skip') return changes;
  const clear = (except?: string): void => {
    for (const c of EXPECTATION_COLUMNS) if (c !== except && (row[c] ?? '').trim() !== '') changes.set(c, '');
  };
  if (decision.kind === 'fallback') {
    clear();
    changes.set('expect', 'fallback');
    return changes;
  }
  const target = column === LABEL && plainLabel(decision.label) ? LABEL : SEQUENCE;
  clear(target);
  changes.set(target, target === LABEL ? decision.label! : String(decision.sequence));
  if ((row['expect'] ?? '').trim().toLowerCase() === 'fallback') changes.set('expect', '');
  return changes;
}

/** A row that expects nothing yet: no expectation column filled, no `expect`. */
export const isUnlabeledRow = (row: Readonly<Record<string, string>>): boolean => [...EXPECTATION_COLUMNS, 'expect'].every((c) => (row[c] ?? '').trim() === '');
