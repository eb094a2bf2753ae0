import type { InputProblem } from '../errors.js';
import { compileValue, EXPECTATION_FIELDS, EXPECTATION_KEYS, isPlainValue, resolveSequence, type Aliases } from '../model/expectations.js';
import { normalizeText } from '../model/normalize.js';
import type { Question } from '../model/question.js';
import { metadataProblems } from './metadata.js';
import { regionLanguageNote } from './language-note.js';
import { unlabeledNote } from './unlabeled-note.js';
import type { KbRefs } from './kb-refs.js';
import type { DatasetScan } from './read.js';
import { quote } from '../model/quote.js';

export interface CheckOptions {
  kb?: KbRefs;
  aliases?: Aliases;
}

const error = (file: string, line: number, message: string): InputProblem => ({ file, line, message, severity: 'error' });
const warning = (file: string, line: number, message: string): InputProblem => ({ file, line, message, severity: 'warning' });

/**
 * Every problem of a scanned dataset, by line: the reader's row errors (including duplicate ids, bad regexes, bad
 * conversations and columns named like a known one), metadata columns left out or values cut (warnings), a language
 * written with a region (one warning: it is sent as its ISO 639-1 code), a set of which no question expects anything
 * (one warning), the same single question with conflicting expectations (errors;
 * the same expectations twice is a warning; a turn is not compared: what a turn expects depends on the turns
 * before it), and, with a knowledge base, expected sequence numbers and labels it lacks (errors) and categories
 * or tags it lacks (warnings), turns included.
 */
export function checkDataset(scan: DatasetScan, options: CheckOptions = {}): InputProblem[] {
  const file = scan.path;
  const problems: InputProblem[] = scan.problems.map((p) => ({ ...p, severity: p.severity ?? 'error' }));
  // a near miss of a known column is the reader's error; any other column is the dataset's own, kept as metadata
  for (const [column, line] of scan.columnLines) if (column.trim() === '') problems.push(warning(file, line, 'a column without a name is ignored'));
  problems.push(...metadataProblems(scan.metadata, file));
  const regions = regionLanguageNote(scan.regionLanguages, file);
  if (regions) problems.push(regions);
  problems.push(...conflicts(scan.questions, file));
  if (options.kb) for (const q of scan.questions) problems.push(...missingInKb(q, options.kb, file, options.aliases));
  // said once the set can be asked: with errors (a near miss of expected_label among them), those come first
  const unlabeled = problems.every((p) => p.severity === 'warning') && scan.questions.length > 0 ? unlabeledNote(file, scan.judged, scan.metadata.columns) : undefined;
  if (unlabeled) problems.push(unlabeled);
  return problems.sort((a, b) => a.line - b.line);
}

const signature = (q: Question): string => JSON.stringify([q.expect, ...EXPECTATION_KEYS.map((k) => (q.expected[k] ? [...q.expected[k]].sort() : null))]);

function conflicts(questions: readonly Question[], file: string): InputProblem[] {
  const first = new Map<string, Question>();
  const problems: InputProblem[] = [];
  for (const q of questions) {
    if (q.conversation) continue;
    const key = `${q.language ?? ''}\u0000${normalizeText(q.question)}`;
    const seen = first.get(key);
    if (!seen) first.set(key, q);
    else if (signature(seen) !== signature(q)) {
      problems.push(error(file, q.line, `the same question as line ${seen.line} (${quote(q.question)}) expects something else (give both rows the same expectations, or reword one)`));
    } else problems.push(warning(file, q.line, `the same question as line ${seen.line} (${quote(q.question)}), asked twice`));
  }
  return problems;
}

/** The expected values a knowledge base lacks: a problem of the field's severity (src/model/expectations.ts). */
export function missingInKb(q: Question, kb: KbRefs, file: string, aliases?: Aliases): InputProblem[] {
  const problems: InputProblem[] = [];
  for (const key of EXPECTATION_KEYS) {
    const { column, kind, missingInKb, noun } = EXPECTATION_FIELDS[key];
    if (missingInKb === null) continue;
    const report = missingInKb === 'error' ? error : warning;
    const values = kb[key];
    for (const v of q.expected[key] ?? []) {
      if (kind === 'sequence') {
        const n = resolveSequence(v, aliases);
        if (!values.has(String(n))) problems.push(report(file, q.line, `${column} ${v}${n !== Number(v) ? ` (alias of ${n})` : ''} is not in the knowledge base`));
        continue;
      }
      const test = isPlainValue(v) ? undefined : compileValue(v);
      if (!(test ? [...values].some((k) => test(k)) : values.has(normalizeText(v)))) problems.push(report(file, q.line, `${column} ${quote(v)}: no ${noun} in the knowledge base matches it`));
    }
  }
  return problems;
}
