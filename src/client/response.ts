import { z } from 'zod';
import { fastParse } from './fast-parse.js';

// The public sample writes every value as a string ("42", "true", "a|b"); real numbers and booleans are accepted too.
const NUMERIC = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const expected = (what: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? 'is missing' : `expected ${what}, got ${JSON.stringify(issue.input)}`;

const num = z.preprocess(
  (v) => (typeof v === 'string' && NUMERIC.test(v.trim()) ? Number(v) : v),
  z.number({ error: expected('a number such as "42"') }).finite(),
);
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
});

export const AnswerResponseSchema = z.looseObject({
  post_processed_answer: z.string().optional(),
  answers: z.array(AnswerItemSchema, { error: expected('an array of answer items') }),
});

export type AnswerItem = z.infer<typeof AnswerItemSchema>;
export type AnswerResponse = z.infer<typeof AnswerResponseSchema>;

export type ParsedResponse = { ok: true; response: AnswerResponse } | { ok: false; message: string };

const EXCERPT_CHARS = 160;

/** A short, single-line excerpt of a response body for the report. */
export function excerpt(body: string): string {
  const flat = body.replace(/\s+/g, ' ').trim();
  return flat.length > EXCERPT_CHARS ? `${flat.slice(0, EXCERPT_CHARS)}…` : flat;
}

/** Parses a 200 body of output=json; a body that is not JSON or breaks 2.4 is a protocol error naming the field. */
export function parseAnswerResponse(body: string): ParsedResponse {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { ok: false, message: `the body is not JSON: ${JSON.stringify(excerpt(body))}` };
  }
  const fast = fastParse(json);
  if (fast !== undefined) return { ok: true, response: fast };
  const parsed = AnswerResponseSchema.safeParse(json);
  if (parsed.success) return { ok: true, response: parsed.data };
  const issue = parsed.error.issues[0]!;
  const field = issue.path.length > 0 ? issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '') : 'body';
  return { ok: false, message: `${field}: ${issue.message} (body: ${JSON.stringify(excerpt(body))})` };
}

/** Index of the top-1 answer: the highest answer_score, the earlier one on ties, whatever order the server used. */
export function topIndex(answers: readonly AnswerItem[]): number {
  let best = -1;
  for (let i = 0; i < answers.length; i++) {
    if (best < 0 || answers[i]!.answer_score > answers[best]!.answer_score) best = i;
  }
  return best;
}

/** Whether the list is in non-increasing score order, as the engine should send it. */
export function isDescending(answers: readonly AnswerItem[]): boolean {
  for (let i = 1; i < answers.length; i++) {
    if (answers[i]!.answer_score > answers[i - 1]!.answer_score) return false;
  }
  return true;
}
