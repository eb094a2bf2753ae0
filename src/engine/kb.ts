import { extname } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { cellValue } from '../model/csv-cell.js';
import { z } from 'zod';
import { readBounded, UnreadableFile } from '../util/bounded-read.js';
import { parseJsonText, printable, type JsonTextError } from '../util/json-lines.js';
import { readFailureMessage } from '../util/read-failure.js';
import { InputError, type InputProblem } from '../errors.js';
import { cut, quote, quoteList } from '../model/quote.js';

/** One knowledge-base entry: an answer and the questions it answers. */
export interface KbEntry {
  sequenceNumber: number;
  answer: string;
  theme?: string;
  context?: string;
  snippet?: string;
  tags: string[];
  label?: string;
  category?: string;
  subCategory?: string;
  /** ISO 639-1 code; `en` when the row leaves it out. */
  language: string;
  /** Phrasings of the questions this entry answers. */
  examples: string[];
  /** Greeting / small talk: answered with `is_dummy_answer: "true"`. */
  smallTalk: boolean;
  /**
   * Sequence numbers of the entries that may answer the same user's next question: an entry with follow-ups
   * opens a dialogue (docs/engine.md#dialogues). Empty for most entries.
   */
  followUps: number[];
  /** Reachable only as a follow-up inside a dialogue: left out of the normal index. */
  dialogueOnly: boolean;
  /** Seconds the caller should wait before the next question (`delay`); absent: `"-1"`, none asked. */
  delay?: number;
  /** 1-based line of the entry in its file. */
  line: number;
}

export interface KnowledgeBase {
  file: string;
  entries: KbEntry[];
}

export const KB_FIELDS = [
  'sequence_number', 'answer', 'theme', 'context', 'snippet', 'tags', 'label',
  'category', 'sub_category', 'language', 'examples', 'small_talk', 'follow_ups', 'dialogue_only', 'delay',
] as const;

const DELAY_HINT = 'seconds to wait before the next question, a number >= 0 such as 2 (leave it out for "-1", none)';

const yesNo = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'yes', 'no', ''])])
  .optional()
  .nullable()
  .transform((v) => v === true || v === 'true' || v === '1' || v === 'yes');

const optionalText = z
  .string()
  .transform((s) => s.trim())
  .optional()
  .nullable()
  .transform((s) => (s ? s : undefined));

const rowSchema = z
  .object({
    sequence_number: z.union([
      z.number().int().nonnegative(),
      z.string().trim().regex(/^\d+$/, 'a whole number such as 42').transform(Number),
    ]),
    answer: z.string().trim().min(1, 'a non-empty text'),
    theme: optionalText,
    context: optionalText,
    snippet: optionalText,
    tags: z
      .union([z.string(), z.array(z.string())])
      .optional()
      .nullable()
      .transform((t) => (Array.isArray(t) ? t : (t ?? '').split('|')).map((s) => s.trim()).filter(Boolean)),
    label: optionalText,
    category: optionalText,
    sub_category: optionalText,
    language: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^([a-z]{2})?$/, 'an ISO 639-1 code such as en or it')
      .optional()
      .nullable()
      .transform((l) => l || 'en'),
    examples: z
      .union([z.array(z.string()), z.string()])
      .optional()
      .nullable()
      .transform((e) => (Array.isArray(e) ? e : (e ?? '').split(' || ')).map((s) => s.trim()).filter(Boolean)),
    small_talk: yesNo,
    follow_ups: z
      .union([
        z.array(z.number().int().nonnegative()),
        z.string().trim().regex(/^(\d+(\s*\|\s*\d+)*)?$/).transform((s) => (s ? s.split('|').map(Number) : [])),
      ])
      .optional()
      .nullable()
      .transform((f) => f ?? []),
    dialogue_only: yesNo,
    delay: z
      .union([z.number().nonnegative(DELAY_HINT).finite(DELAY_HINT), z.string().trim().regex(/^\d+(\.\d+)?$/).transform(Number)])
      .optional()
      .nullable()
      .transform((d) => d ?? undefined),
  })
  .strict();

/** Checks one raw row; returns the entry or the problems found, each naming its field. */
export function parseKbRow(raw: unknown, file: string, line: number): KbEntry | InputProblem[] {
  const result = rowSchema.safeParse(raw);
  if (!result.success) {
    return result.error.issues.map((issue) => ({ file, line, message: describeIssue(issue, raw) }));
  }
  const r = result.data;
  return {
    sequenceNumber: r.sequence_number,
    answer: r.answer,
    ...(r.theme && { theme: r.theme }),
    ...(r.context && { context: r.context }),
    ...(r.snippet && { snippet: r.snippet }),
    tags: r.tags,
    ...(r.label && { label: r.label }),
    ...(r.category && { category: r.category }),
    ...(r.sub_category && { subCategory: r.sub_category }),
    language: r.language,
    examples: r.examples,
    smallTalk: r.small_talk,
    followUps: r.follow_ups,
    dialogueOnly: r.dialogue_only,
    ...(r.delay !== undefined && { delay: r.delay }),
    line,
  };
}

function describeIssue(issue: z.core.$ZodIssue, raw: unknown): string {
  if (issue.code === 'unrecognized_keys') {
    return `unknown field ${quoteList(issue.keys)} (known fields: ${KB_FIELDS.join(', ')})`;
  }
  const field = issue.path.length ? `field ${quote(issue.path.join('.'))}` : 'row';
  if (issue.code === 'invalid_type' && issue.input === undefined) {
    return `${field} is missing (every entry needs it)`;
  }
  // a union's issue does not carry its input: whether the row has the field says missing from wrong
  const given = typeof raw === 'object' && raw !== null && issue.path.length === 1 && (raw as Record<string, unknown>)[String(issue.path[0])] !== undefined;
  if (issue.code === 'invalid_union' && !given) return `${field} is missing (every entry needs it: ${UNION_HINTS[String(issue.path[0])] ?? 'see docs/engine.md'})`;
  if (issue.code === 'invalid_union') return `${field} has the wrong type (${UNION_HINTS[String(issue.path[0])] ?? 'see docs/engine.md'})`;
  return `${field}: ${issue.message}`;
}

const UNION_HINTS: Record<string, string> = {
  sequence_number: 'a whole number such as 42',
  tags: 'a string "a|b" or an array of strings',
  examples: 'an array of strings, or in CSV a text with " || " between examples',
  small_talk: 'true or false',
  dialogue_only: 'true or false',
  follow_ups: 'an array of sequence numbers such as [31, 32], or in CSV "31|32"',
  delay: DELAY_HINT,
};

/** The most problems a knowledge base's rows give before reading stops (a file that is no knowledge base). */
const MAX_PROBLEMS = 1000;

const stopped = (file: string, line: number): InputProblem => ({ file, line, message: `reading stopped after ${MAX_PROBLEMS} problems: is this the knowledge base you meant?` });

/** Entries from JSONL text: one JSON object per line, blank lines skipped. */
export function parseKbJsonl(text: string, file: string): { entries: KbEntry[]; problems: InputProblem[] } {
  const entries: KbEntry[] = [];
  const problems: InputProblem[] = [];
  let rows = 0;
  let questionRows = 0;
  const body = text.replace(/^\uFEFF/, '');
  // line by line without splitting the whole text (a file of millions of short lines would be millions of strings)
  for (let start = 0, line = 1; start < body.length; line++) {
    if (problems.length >= MAX_PROBLEMS) {
      problems.push(stopped(file, line));
      break;
    }
    const nl = body.indexOf('\n', start);
    const end = nl < 0 ? body.length : nl;
    const content = body.slice(start, body[end - 1] === '\r' ? end - 1 : end);
    start = end + 1;
    if (!content.trim()) continue;
    let raw: unknown;
    try {
      raw = parseJsonText(content);
    } catch (error) {
      const e = error as JsonTextError;
      problems.push({ file, line, message: e.deep ? `${e.message} (one JSON object per line)` : `not valid JSON: ${e.message} (one JSON object per line)` });
      continue;
    }
    rows++;
    if (isQuestionRow(raw)) questionRows++;
    const parsed = parseKbRow(raw, file, line);
    if (Array.isArray(parsed)) problems.push(...parsed);
    else entries.push(parsed);
  }
  // every row a question: one problem, not three a row
  if (rows > 0 && questionRows === rows) {
    return { entries: [], problems: [{ file, line: problems[0]?.line ?? 1, message: `no row has "sequence_number" and "answer", and each has "question" or "turns": a knowledge base has a row per entry; ${QUESTION_SET_HINT}` }] };
  }
  return { entries, problems };
}

/** The columns a CSV knowledge base cannot do without. */
const REQUIRED_COLUMNS = ['sequence_number', 'answer'];

/** A row of a question set (`question` or `turns`, and neither field an entry cannot do without), not an entry. */
const isQuestionRow = (raw: unknown): boolean =>
  typeof raw === 'object' && raw !== null && ('question' in raw || 'turns' in raw) && !REQUIRED_COLUMNS.some((c) => c in raw);

const QUESTION_SET_HINT = 'this looks like a question set (give it as --dataset)';

/** Entries from CSV text with a header row of the JSONL field names. */
export function parseKbCsv(text: string, file: string): { entries: KbEntry[]; problems: InputProblem[] } {
  // the header first: a file that is no knowledge base is told so without parsing every row of it
  let header: string[] = [];
  try {
    header = ((parseCsv(text, { bom: true, to_line: 1, relax_quotes: true, relax_column_count: true }) as string[][])[0] ?? []).map((h) => h.trim());
  } catch {
    // said by the whole parse below
  }
  const missing = REQUIRED_COLUMNS.filter((c) => !header.includes(c));
  if (header.length > 0 && missing.length > 0) return { entries: [], problems: [lackingColumns(file, missing, header)] };
  let records: { record: Record<string, string>; info: { lines: number; raw?: string } }[];
  try {
    // `'=x` is =x, as a spreadsheet wrote it (model/csv-cell.ts)
    records = parseCsv(text, { bom: true, columns: true, skip_empty_lines: true, info: true, raw: true, relax_quotes: true, cast: (value) => cellValue(value) }) as typeof records;
  } catch (error) {
    const e = error as Error & { lines?: number };
    return { entries: [], problems: [{ file, line: e.lines ?? 1, message: `not valid CSV: ${e.message}` }] };
  }
  const columns = Object.keys(records[0]?.record ?? {});
  const lacking = REQUIRED_COLUMNS.filter((c) => !columns.includes(c));
  if (records.length > 0 && lacking.length > 0) return { entries: [], problems: [lackingColumns(file, lacking, columns)] };
  const entries: KbEntry[] = [];
  const problems: InputProblem[] = [];
  for (const { record, info } of records) {
    if (problems.length >= MAX_PROBLEMS) {
      problems.push(stopped(file, info.lines));
      break;
    }
    // info.lines is the record's last line; a quoted field may span several.
    const line = info.lines - (info.raw?.trimEnd().split('\n').length ?? 1) + 1;
    const raw = Object.fromEntries(Object.entries(record).filter(([, v]) => v !== ''));
    const parsed = parseKbRow(raw, file, line);
    if (Array.isArray(parsed)) problems.push(...parsed);
    else entries.push(parsed);
  }
  return { entries, problems };
}

/** One problem, not three a row: most often a question set given as the knowledge base. */
function lackingColumns(file: string, lacking: readonly string[], columns: readonly string[]): InputProblem {
  const hint = columns.includes('question') ? `; ${QUESTION_SET_HINT}` : '';
  return { file, line: 1, message: `the header has no ${lacking.map((c) => `"${c}"`).join(' or ')} column (found: ${quoteList(columns, 20, cut)}): a knowledge base has a row per entry, with sequence_number and answer${hint}` };
}

/**
 * Problems that need the whole file: duplicate sequence numbers, an empty file, follow-ups naming no entry or
 * an entry in another language, dialogue-only entries that no dialogue leads to.
 */
export function checkKb(entries: KbEntry[], file: string): InputProblem[] {
  const problems: InputProblem[] = [];
  const seen = new Map<number, KbEntry>();
  for (const e of entries) {
    const first = seen.get(e.sequenceNumber);
    if (first !== undefined) {
      problems.push({ file, line: e.line, message: `sequence_number ${e.sequenceNumber} is already used on line ${first.line} (each entry needs its own)` });
    } else seen.set(e.sequenceNumber, e);
  }
  if (entries.length === 0) problems.push({ file, line: 1, message: 'no entries (a knowledge base needs at least one answer)' });
  for (const e of entries) {
    for (const n of e.followUps) {
      const target = seen.get(n);
      if (!target) {
        problems.push({ file, line: e.line, message: `field "follow_ups": no entry has sequence_number ${n} (a follow-up names another entry of this file)` });
      } else if (target.language !== e.language) {
        problems.push({ file, line: e.line, message: `field "follow_ups": entry ${n} is in ${quote(target.language)}, this one in ${quote(e.language)} (a dialogue stays in one language)` });
      }
    }
  }
  const reached = reachable(entries, seen);
  for (const e of entries) {
    if (e.dialogueOnly && !reached.has(e.sequenceNumber)) {
      problems.push({ file, line: e.line, message: 'dialogue_only entry that no dialogue leads to (list its sequence_number in the follow_ups of an entry that is not dialogue_only, or of a step such an entry leads to)' });
    }
  }
  return problems;
}

/** Sequence numbers reachable through follow_ups from the entries of the normal index. */
function reachable(entries: KbEntry[], bySequence: Map<number, KbEntry>): Set<number> {
  const reached = new Set<number>();
  const queue = entries.filter((e) => !e.dialogueOnly);
  for (let e = queue.pop(); e; e = queue.pop()) {
    for (const n of e.followUps) {
      const target = bySequence.get(n);
      if (target && !reached.has(n)) {
        reached.add(n);
        queue.push(target);
      }
    }
  }
  return reached;
}

/** The largest knowledge base read: 256 MiB (it is held in memory whole, with the engine's index). */
export const MAX_KB_BYTES = 256 * 1024 * 1024;

/**
 * The bytes of a knowledge base, read in bounded memory: a device, a pipe that never ends or a binary file is
 * refused (an InputError naming the file, and the line of a NUL byte). Other read errors go to `failure`.
 */
export async function readKbBytes(path: string, failure: (error: unknown) => Error = (error) => kbReadFailure(path, error)): Promise<Buffer> {
  return readBounded(path, { maxBytes: MAX_KB_BYTES, text: true, ...(extname(path).toLowerCase() === '.csv' ? {} : { firstLine: notJsonlStart }) }).catch((error: unknown) => {
    if (error instanceof UnreadableFile) throw new InputError([{ file: path, line: error.line, message: `${error.message} (expected a .jsonl or .csv knowledge base)` }], { cause: error });
    throw failure(error);
  });
}

/** Why a first line cannot begin a JSONL knowledge base (it is no JSON object), or undefined. A CSV's header is judged by parseKbCsv, as cheaply. */
function notJsonlStart(line: string): string | undefined {
  const text = line.replace(/^\uFEFF/, '').trim();
  return text === '' || text.startsWith('{') ? undefined : `its first line ("${printable(text, 40)}") is not a JSON object: not a knowledge base`;
}

const kbReadFailure = (path: string, error: unknown): InputError =>
  new InputError([{ file: path, line: 0, message: readFailureMessage(error, 'a .jsonl or .csv knowledge base') ?? `cannot read the knowledge base: ${(error as Error).message}` }], { cause: error });

/** Reads a `.jsonl` or `.csv` knowledge base; throws one InputError listing every bad row. */
export async function loadKnowledgeBase(path: string): Promise<KnowledgeBase> {
  return parseKnowledgeBase((await readKbBytes(path)).toString('utf8'), path);
}

/** A knowledge base from the text of its file (`.csv` by the name's extension, else JSONL); throws one InputError listing every bad row. */
export function parseKnowledgeBase(text: string, path: string): KnowledgeBase {
  const isCsv = extname(path).toLowerCase() === '.csv';
  const { entries, problems } = isCsv ? parseKbCsv(text, path) : parseKbJsonl(text, path);
  if (entries.length > 0 || problems.length === 0) problems.push(...checkKb(entries, path)); // "no entries" says nothing more after the rows' problems
  if (problems.length) throw new InputError(problems);
  return { file: path, entries };
}
