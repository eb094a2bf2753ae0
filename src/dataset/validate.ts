import type { InputProblem } from '../errors.js';
import { compileValue, resolveSequence, type Aliases } from '../score/match.js';
import { normalizeText } from '../score/normalize.js';
import type { KbRefs } from './kb-refs.js';
import { DATASET_COLUMNS, type Question } from './question.js';
import type { DatasetScan } from './read.js';

export interface CheckOptions {
  kb?: KbRefs;
  aliases?: Aliases;
}

const error = (file: string, line: number, message: string): InputProblem => ({ file, line, message, severity: 'error' });
const warning = (file: string, line: number, message: string): InputProblem => ({ file, line, message, severity: 'warning' });

/**
 * Every problem of a scanned dataset, by line: the reader's row errors (including duplicate ids and bad
 * regexes), unknown columns (warnings), the same question with conflicting expectations (errors; the
 * same expectations twice is a warning), and, with a knowledge base, expected sequence numbers and labels
 * it lacks (errors) and categories or tags it lacks (warnings).
 */
export function checkDataset(scan: DatasetScan, options: CheckOptions = {}): InputProblem[] {
  const file = scan.path;
  const problems: InputProblem[] = scan.problems.map((p) => ({ ...p, severity: p.severity ?? 'error' }));
  const known = new Set<string>(DATASET_COLUMNS);
  for (const [column, line] of scan.columnLines) {
    if (!known.has(column)) problems.push(warning(file, line, `unknown column "${column}" is ignored (known: ${DATASET_COLUMNS.join(', ')})`));
  }
  problems.push(...conflicts(scan.questions, file));
  if (options.kb) for (const q of scan.questions) problems.push(...missingRefs(q, options.kb, file, options.aliases));
  return problems.sort((a, b) => a.line - b.line);
}

const signature = (q: Question): string =>
  JSON.stringify([q.expect, ...(['answer', 'sequence', 'label', 'category', 'tag'] as const).map((k) => (q.expected[k] ? [...q.expected[k]].sort() : null))]);

function conflicts(questions: readonly Question[], file: string): InputProblem[] {
  const first = new Map<string, Question>();
  const problems: InputProblem[] = [];
  for (const q of questions) {
    const key = `${q.language ?? ''}\u0000${normalizeText(q.question)}`;
    const seen = first.get(key);
    if (!seen) first.set(key, q);
    else if (signature(seen) !== signature(q)) {
      problems.push(error(file, q.line, `the same question as line ${seen.line} ("${q.question}") expects something else (give both rows the same expectations, or reword one)`));
    } else problems.push(warning(file, q.line, `the same question as line ${seen.line} ("${q.question}"), asked twice`));
  }
  return problems;
}

function missingRefs(q: Question, kb: KbRefs, file: string, aliases?: Aliases): InputProblem[] {
  const problems: InputProblem[] = [];
  for (const s of q.expected.sequence ?? []) {
    const n = resolveSequence(s, aliases);
    if (!kb.sequences.has(n)) problems.push(error(file, q.line, `expected_sequence ${s}${n !== Number(s) ? ` (alias of ${n})` : ''} is not in the knowledge base`));
  }
  const fields = [
    ['label', 'expected_label', kb.labels, error],
    ['category', 'expected_category', kb.categories, warning],
    ['tag', 'expected_tag', kb.tags, warning],
  ] as const;
  for (const [key, column, values, report] of fields) {
    for (const v of q.expected[key] ?? []) {
      const plain = !v.startsWith('re:') && !v.startsWith('contains:');
      const test = plain ? undefined : compileValue(v);
      if (!(test ? [...values].some((k) => test(k)) : values.has(normalizeText(v)))) problems.push(report(file, q.line, `${column} "${v}": no ${key} in the knowledge base matches it`));
    }
  }
  return problems;
}
