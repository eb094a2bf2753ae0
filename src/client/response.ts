import { z } from 'zod';
import type { AnswerItem, AnswerResponse } from '../model/answer.js';
import { fastParse } from './fast-parse.js';
import { fieldPath, MAX_DEPTH, tooDeepAt } from './nesting.js';
import { setOwn } from '../util/own.js';

// The public sample writes every value as a string ("42", "true", "a|b"); real numbers and booleans are accepted too.
// `\d+(?:\.\d*)?`, not `\d+\.?\d*`: that one splits a run of digits between its two quantifiers in every way when
// the text does not match (a reply's "1111…1x" of 40,000 digits held the process for 9 s; a megabyte, for hours)
const NUMERIC = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;

const SHOWN_CHARS = 60;

/** A value quoted in an error message, cut short: a reply may hold a field of a megabyte. */
function shown(v: unknown): string {
  if (typeof v === 'number') return String(v);
  // a string is cut before it is quoted, not quoted whole to keep sixty characters of it
  const text = JSON.stringify(typeof v === 'string' ? v.slice(0, SHOWN_CHARS + 1) : v) ?? String(v);
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}… (cut)` : text;
}

const expected = (what: string) => (issue: { input?: unknown }) => (issue.input === undefined ? 'is missing' : `expected ${what}, got ${shown(issue.input)}`);
const OUT_OF_RANGE = 'expected a finite number, got';
const expectedNumber = (issue: { input?: unknown }) => {
  const v = issue.input;
  // 1e309 (JSON.parse makes it Infinity) or "1e309": a number, but not one a double holds
  if (typeof v === 'number' || (typeof v === 'string' && NUMERIC.test(v.trim()))) return `${OUT_OF_RANGE} ${shown(v)} (out of range)`;
  return expected('a number such as "42"')(issue);
};

const num = z.preprocess((v) => {
  if (typeof v !== 'string' || !NUMERIC.test(v.trim())) return v;
  const n = Number(v);
  return Number.isFinite(n) ? n : v;
}, z.number({ error: expectedNumber }));
const bool = z.preprocess(
  (v) => {
    const s = typeof v === 'string' ? v.trim().toLowerCase() : v;
    if (s === 'true' || s === '1' || s === 1) return true;
    if (s === 'false' || s === '0' || s === 0) return false;
    return v;
  },
  z.boolean({ error: expected('"true" or "false"') }),
);
const text = z.preprocess((v) => (typeof v === 'number' ? String(v) : v), z.string({ error: expected('text') }));
const tags = z.preprocess(
  (v) => (typeof v === 'string' ? v.split('|').map((t) => t.trim()).filter((t) => t !== '') : v ?? []),
  z.array(z.string(), { error: expected('tags joined by "|"') }),
);

/** One answer item of spec 2.4, values coerced to their real types; unknown fields are kept. */
export const AnswerItemSchema = z.looseObject({
  answer: z.string({ error: expected('text') }),
  theme: text.optional(),
  context: text.optional(),
  snippet: text.optional(),
  sequence_number: num,
  answer_score: num,
  tags,
  label: text.optional(),
  category: text.optional(),
  sub_category: text.optional(),
  answer_language: text.optional(),
  is_agent_answer: bool,
  is_dummy_answer: bool,
  is_dummy_floor_answer: bool,
  is_suggestion_answer: bool,
  is_international_question: bool,
  is_dialog_in_progress: bool,
  is_dialogue_answer: bool,
  delay: num,
}) satisfies z.ZodType<AnswerItem>;

export const AnswerResponseSchema = z.looseObject({
  post_processed_answer: z.string().optional(),
  answers: z.array(AnswerItemSchema, { error: expected('an array of answer items') }),
}) satisfies z.ZodType<AnswerResponse>;

export type ParsedResponse = { ok: true; response: AnswerResponse } | { ok: false; message: string };

/**
 * The most answers a reply may hold, in any output: a ranked list's depth as TREC reads one (1,000 results a topic,
 * the depth of a run file answer-eval exports), far beyond what the metrics read (the top 5, and 1/rank: an answer
 * at rank 1,000 adds 0.001). More is no ranked list but a fault of the service (a text reply of `x\n\n` repeated is
 * 349,525 "answers" in a megabyte): a protocol error, found without reading the list whole.
 */
export const MAX_ANSWERS_PER_REPLY = 1_000;

/** The protocol error of a reply holding more than MAX_ANSWERS_PER_REPLY answers. */
export const tooManyAnswers = (body: string): string =>
  `the reply holds more than ${MAX_ANSWERS_PER_REPLY.toLocaleString('en-US')} answers (a ranked list is read up to ${MAX_ANSWERS_PER_REPLY.toLocaleString('en-US')}: more is no ranked list but a fault of the service): ${JSON.stringify(excerpt(body))}`;

const EXCERPT_CHARS = 160;

/** How far into a body an excerpt looks at most: what whitespace runs before its text may take. */
const EXCERPT_LOOK = 65_536;

/**
 * A short, single-line excerpt of a response body for the report. Only its start is flattened (a few KiB, more while
 * whitespace runs fill it): a megabyte of blank lines is not rewritten whole for 160 characters.
 */
export function excerpt(body: string): string {
  for (let look = 1_024; ; look *= 4) {
    const head = body.length > look ? body.slice(0, look) : body;
    const flat = head.replace(/\s+/g, ' ').trim();
    if (flat.length > EXCERPT_CHARS) return `${flat.slice(0, EXCERPT_CHARS)}…`;
    if (head === body) return flat;
    if (look >= EXCERPT_LOOK) return `${flat}…`;
  }
}

/**
 * Parses a 200 body of output=json; a body that is not JSON, nests too deep or breaks 2.4 is a protocol error
 * naming the field. The message is bounded whatever the body: a cut value and an excerpt.
 */
export function parseAnswerResponse(body: string): ParsedResponse {
  let json: unknown;
  try {
    json = JSON.parse(body); // iterative in V8: any depth parses
  } catch {
    return { ok: false, message: `the body is not JSON: ${JSON.stringify(excerpt(body))}` };
  }
  const deep = tooDeepAt(json);
  if (deep !== undefined) {
    return { ok: false, message: `${deep}: arrays and objects nested more than ${MAX_DEPTH} deep (a reply is taken up to ${MAX_DEPTH} levels) (body: ${JSON.stringify(excerpt(body))})` };
  }
  return checkAnswerResponse(json, body);
}

/**
 * Checks and coerces a reply read into JSON's shape (by JSON.parse, or from an xml or html body: src/client/markup.ts)
 * against 2.3/2.4: the fast path for a well-formed one, the schema to name the bad field; more answers than
 * MAX_ANSWERS_PER_REPLY before any is checked. `body` is quoted, cut short.
 */
export function checkAnswerResponse(json: unknown, body: string): ParsedResponse {
  const answers = (json as { answers?: unknown } | null)?.answers;
  if (Array.isArray(answers) && answers.length > MAX_ANSWERS_PER_REPLY) return { ok: false, message: tooManyAnswers(body) };
  const fast = fastParse(json);
  if (fast !== undefined) return errorWithoutAnswers(json, body) ?? { ok: true, response: keepProtoFields(json, fast) };
  const parsed = AnswerResponseSchema.safeParse(json);
  if (parsed.success) return errorWithoutAnswers(json, body) ?? { ok: true, response: keepProtoFields(json, parsed.data) };
  const issue = parsed.error.issues[0]!;
  let message = issue.message;
  // JSON.parse turned 1e309 into Infinity: say what the body held
  if (message === `${OUT_OF_RANGE} Infinity (out of range)` || message === `${OUT_OF_RANGE} -Infinity (out of range)`) {
    message = `${OUT_OF_RANGE} ${outOfRangeLiteral(body) ?? 'a number beyond ±1.8e308'} (out of range)`;
  }
  return { ok: false, message: `${fieldPath(issue.path)}: ${message} (body: ${JSON.stringify(excerpt(body))})` };
}

/**
 * A 200 reply with no answers and an `error` (or `errors`) member is the service failing, not refusing: read as a
 * refusal it would count as an out-of-scope question rightly refused. The spec shows no error body; any other
 * unknown member is ignored.
 */
function errorWithoutAnswers(json: unknown, body: string): ParsedResponse | undefined {
  const reply = json as { answers?: unknown; error?: unknown; errors?: unknown };
  if (Array.isArray(reply.answers) && reply.answers.length > 0) return undefined;
  const failed = (v: unknown): boolean => v !== undefined && v !== null && v !== false && v !== '' && !(Array.isArray(v) && v.length === 0);
  if (!failed(reply.error) && !failed(reply.errors)) return undefined;
  return { ok: false, message: `the reply has no answers and says "${failed(reply.error) ? 'error' : 'errors'}" (body: ${JSON.stringify(excerpt(body))})` };
}

const hasProto = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && Object.hasOwn(v, '__proto__');

/**
 * A `"__proto__"` key of the body (of the response or of an answer item) put back as the field it is. JSON.parse
 * keeps it as an own field, but neither parser copies it: copied by assignment it would become the copy's prototype,
 * and its `label` or `category` would answer for the item's own (a reply judged on fields it does not have). Last of
 * the fields, whichever parser ran, so both give the same object.
 */
function keepProtoFields(json: unknown, response: AnswerResponse): AnswerResponse {
  if (hasProto(json)) setOwn(response, '__proto__', json['__proto__']);
  const raw = (json as { answers: unknown[] }).answers;
  for (let i = 0; i < raw.length; i++) {
    const item = raw[i];
    if (hasProto(item)) setOwn(response.answers[i]!, '__proto__', item['__proto__']);
  }
  return response;
}

/** The first number literal of the body that a double cannot hold, e.g. 1e309; cut short. */
function outOfRangeLiteral(body: string): string | undefined {
  for (const [literal] of body.matchAll(/(?<![\w."])-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/g)) {
    if (!Number.isFinite(Number(literal))) return literal.length > SHOWN_CHARS ? `${literal.slice(0, SHOWN_CHARS)}… (cut)` : literal;
  }
  return undefined;
}
