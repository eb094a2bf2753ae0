import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { parse } from 'csv-parse/sync';
import { InputError, type InputProblem } from '../errors.js';
import { normalizeText } from '../score/normalize.js';

/**
 * What a dataset may refer to in a knowledge base: sequence numbers, and labels, categories and tags
 * (normalized as answers are compared). A stand-in for the engine's loader (src/engine/kb.ts) until it lands.
 */
export interface KbRefs {
  sequences: Set<number>;
  labels: Set<string>;
  categories: Set<string>;
  tags: Set<string>;
}

type Entry = Record<string, unknown>;

/** Reads sequence_number, label, category and tags from a JSONL or CSV knowledge base (tags: array or `a|b`). */
export async function readKbRefs(path: string): Promise<KbRefs> {
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new InputError([{ file: path, line: 0, message: error.code === 'ENOENT' ? 'no such file' : error.message }]);
  });
  const problems: InputProblem[] = [];
  const entries = ['.jsonl', '.ndjson'].includes(extname(path).toLowerCase()) ? jsonlEntries(text, path, problems) : csvEntries(text, path, problems);
  const refs: KbRefs = { sequences: new Set(), labels: new Set(), categories: new Set(), tags: new Set() };
  for (const { entry, line } of entries) {
    const seq = Number(typeof entry['sequence_number'] === 'string' ? entry['sequence_number'].trim() : entry['sequence_number']);
    if (entry['sequence_number'] === '' || !Number.isInteger(seq)) {
      problems.push({ file: path, line, message: `sequence_number is ${JSON.stringify(entry['sequence_number'])} (expected a whole number)` });
      continue;
    }
    refs.sequences.add(seq);
    for (const [key, set] of [['label', refs.labels], ['category', refs.categories]] as const) {
      const v = entry[key];
      if (typeof v === 'string' && v.trim() !== '') set.add(normalizeText(v));
    }
    const tags = entry['tags'];
    const list = Array.isArray(tags) ? tags : typeof tags === 'string' ? tags.split('|') : [];
    for (const t of list) if (typeof t === 'string' && t.trim() !== '') refs.tags.add(normalizeText(t));
  }
  if (problems.length > 0) throw new InputError(problems);
  return refs;
}

function jsonlEntries(text: string, file: string, problems: InputProblem[]): { entry: Entry; line: number }[] {
  const out: { entry: Entry; line: number }[] = [];
  text.replace(/^\uFEFF/, '').split(/\r?\n/).forEach((raw, i) => {
    if (raw.trim() === '') return;
    try {
      const value: unknown = JSON.parse(raw);
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) out.push({ entry: value as Entry, line: i + 1 });
      else problems.push({ file, line: i + 1, message: 'expected a JSON object such as {"sequence_number": 1, ...}' });
    } catch (error) {
      problems.push({ file, line: i + 1, message: `not valid JSON: ${(error as Error).message}` });
    }
  });
  return out;
}

function csvEntries(text: string, file: string, problems: InputProblem[]): { entry: Entry; line: number }[] {
  try {
    const rows = parse(text, { bom: true, columns: (h: string[]) => h.map((c) => c.trim()), skip_empty_lines: true, info: true }) as { record: Entry; info: { lines: number } }[];
    return rows.map(({ record, info }) => ({ entry: record, line: info.lines }));
  } catch (error) {
    const e = error as { lines?: number; message: string };
    problems.push({ file, line: e.lines ?? 0, message: `unreadable CSV: ${e.message}` });
    return [];
  }
}
