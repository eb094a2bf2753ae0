import { stat } from 'node:fs/promises';
import { dirname, extname } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { ConfigError } from '../errors.js';
import { EXPECTATION_FIELDS } from '../model/expectations.js';
import { mkdirs, reasonOf } from '../util/out-dir.js';
import { writeFileAtomically } from '../util/temp-file.js';
import { safeCell } from '../model/csv-cell.js';

/** One question of the set written: its stable id, the text, and what the log says of it. */
export interface SampledQuestion {
  id: string;
  question: string;
  language?: string;
  /** How many times it (and its folded repeats) was asked. */
  count: number;
  /** How many users asked it, when the log has a user column. */
  users?: number;
  /** `log.csv:12,40,51`: the log and the first lines it was asked on. */
  source: string;
}

export type SetFormat = 'csv' | 'jsonl';

/** The format of a question set by its file name: `.csv`, or `.jsonl` / `.ndjson`. */
export function setFormat(path: string): SetFormat {
  const ext = extname(path).toLowerCase();
  if (ext === '.csv') return 'csv';
  if (ext === '.jsonl' || ext === '.ndjson') return 'jsonl';
  throw new ConfigError(`--out ${path}: the question set is written as CSV or JSONL by its extension: name it .csv or .jsonl`);
}

/**
 * The expectation columns, left empty for labeling: the set reads as unlabeled questions until they are filled
 * (expected_sequence or expected_label, and expect = fallback for a question that should be refused).
 */
const LABEL_COLUMNS = [EXPECTATION_FIELDS.sequence.column, EXPECTATION_FIELDS.label.column, 'expect'] as const;


/**
 * The question set as text: CSV (UTF-8 with a BOM, for spreadsheets) or JSONL, columns id, question, language (when
 * any question has one), the empty expectation columns, count, users (when known) and source. Pure.
 */
export function renderSet(questions: readonly SampledQuestion[], format: SetFormat): string {
  const withLanguage = questions.some((q) => q.language !== undefined);
  const withUsers = questions.some((q) => q.users !== undefined);
  const row = (q: SampledQuestion): Record<string, string | number | null> => ({
    id: q.id,
    question: q.question,
    ...(withLanguage ? { language: q.language ?? null } : {}),
    ...Object.fromEntries(LABEL_COLUMNS.map((c) => [c, null])),
    count: q.count,
    ...(withUsers ? { users: q.users ?? null } : {}),
    source: q.source,
  });
  if (format === 'jsonl') return questions.map((q) => `${JSON.stringify(row(q))}\n`).join('');
  const columns = ['id', 'question', ...(withLanguage ? ['language'] : []), ...LABEL_COLUMNS, 'count', ...(withUsers ? ['users'] : []), 'source'];
  const cells = questions.map((q) => {
    const r = row(q);
    return columns.map((c) => (typeof r[c] === 'string' ? safeCell(r[c]) : (r[c] ?? '')));
  });
  // a lone CR is quoted too (a spreadsheet reading universal newlines would start a row after it)
  return stringify(cells, { header: true, columns, bom: true, record_delimiter: 'unix', quoted_match: /\r/ });
}

/** Refuses to write over `path` (before the log is read) unless `overwrite`. */
export async function checkNotThere(path: string, flag: string, overwrite: boolean): Promise<void> {
  if (overwrite) return;
  const info = await stat(path).catch(() => undefined);
  if (info !== undefined) throw new ConfigError(`${flag} ${path} exists; nothing was read or written: add --overwrite to replace it, or choose another path`);
}

/**
 * Writes `text` to `path` atomically (writeFileAtomically): a reader sees the old file or the new one, never half of
 * one. Without `overwrite`, a file that appeared at `path` meanwhile is kept.
 */
export async function writeAtomically(path: string, text: string, overwrite: boolean): Promise<void> {
  try {
    await mkdirs(dirname(path));
  } catch (error) {
    throw new ConfigError(`--out ${path}: its directory cannot be made: ${reasonOf(error)}`);
  }
  try {
    await writeFileAtomically(path, text, { overwrite });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST' && !overwrite) throw new ConfigError(`${path} appeared while the log was being sampled; it was kept: add --overwrite to replace it`);
    throw new ConfigError(`${path} cannot be written: ${reasonOf(error)}`);
  }
}
