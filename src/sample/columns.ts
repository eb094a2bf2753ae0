import { canonicalColumn } from '../dataset/columns.js';

/**
 * The names each column of a log is found by, the first present winning, compared as canonicalColumn spells them
 * (case, spaces, `-`, `.` and camelCase set aside: `User Message`, `userMessage` and `user-message` are user_message).
 */
export const COLUMN_NAMES = {
  question: ['question', 'question_text', 'query', 'user_query', 'search_query', 'text', 'user_text', 'utterance', 'user_utterance', 'message', 'user_message', 'msg', 'q', 'input', 'user_input', 'prompt'],
  language: ['language', 'lang', 'language_code', 'lang_code', 'locale'],
  timestamp: ['timestamp', 'time', 'ts', 'datetime', 'date_time', 'date', 'created_at', 'created', 'asked_at', 'event_time', 'time_stamp'],
  user: ['user', 'user_id', 'userid', 'username', 'user_name', 'customer_id', 'client_id', 'visitor_id', 'session_id', 'session'],
} as const satisfies Record<string, readonly string[]>;

export type ColumnKind = keyof typeof COLUMN_NAMES;
export const COLUMN_KINDS = Object.keys(COLUMN_NAMES) as ColumnKind[];

/** The flag that names each column. */
export const COLUMN_FLAGS: Record<ColumnKind, string> = { question: '--question-column', language: '--language-column', timestamp: '--timestamp-column', user: '--user-column' };

/** The columns of a log as its header (or a JSONL line's keys) names them; the question's is always there. */
export type LogColumns = { question: string } & Partial<Record<Exclude<ColumnKind, 'question'>, string>> & {
  /** The column --stratify names (the language column when it names that one: then the strata are languages). */
  stratify?: string;
};

/** Columns named by flags: a name as written in the header (or in any case and spelling canonicalColumn sets aside). */
export type NamedColumns = Partial<Record<ColumnKind | 'stratify', string>>;

/** canonicalColumn, remembered: a JSONL log asks for the same few keys on every line. */
const canonical = new Map<string, string>();
function canon(name: string): string {
  let c = canonical.get(name);
  if (c === undefined) {
    c = canonicalColumn(name);
    if (canonical.size < 10_000) canonical.set(name, c);
  }
  return c;
}

/** The name among `names` that a flag's value names: the same, else the same once both are canonical. */
export function namedIn(names: readonly string[], named: string): string | undefined {
  return names.includes(named) ? named : names.find((n) => canon(n) === canon(named));
}

/** The name among `names` of a column of this kind: the one named by its flag, else the first of COLUMN_NAMES present. */
export function columnIn(names: readonly string[], kind: ColumnKind, named?: string): string | undefined {
  if (named !== undefined) return namedIn(names, named);
  for (const candidate of COLUMN_NAMES[kind]) {
    const found = names.find((n) => canon(n) === candidate);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Whether a canonical header name may be the question column: for the CSV separator (csvDelimiter). */
export const mayBeQuestion = (named: string | undefined) => (name: string): boolean =>
  named === undefined ? (COLUMN_NAMES.question as readonly string[]).includes(name) : name === canon(named);

/** `question, question_text, query, ...`: what was looked for, in a message. */
export const lookedFor = (kind: ColumnKind): string => COLUMN_NAMES[kind].join(', ');
