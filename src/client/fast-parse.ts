import type { AnswerItem, AnswerResponse } from '../model/answer.js';

// The hot path of every answered question. Checks and coerces a well-formed body by hand, producing exactly
// what AnswerResponseSchema would (same values, same key order); anything unusual returns undefined, and the
// zod schema then runs to name the bad field. test/client/fast-parse.test.ts holds the two to the same output.

// `\d+(?:\.\d*)?`, not `\d+\.?\d*`: that one splits a run of digits between its two quantifiers in every way when
// the text does not match (a reply's "1111…1x" of 40,000 digits held the process for 9 s; a megabyte, for hours)
const NUMERIC = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;
const FAIL = Symbol('fail');
type Fail = typeof FAIL;

const num = (v: unknown): number | Fail => {
  if (typeof v === 'number') return Number.isFinite(v) ? v : FAIL;
  const n = typeof v === 'string' && NUMERIC.test(v.trim()) ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : FAIL;
};
const bool = (v: unknown): boolean | Fail => {
  if (typeof v === 'boolean') return v;
  if (v === 'false') return false; // as the service writes them: no trimming, no lower-casing
  if (v === 'true') return true;
  const s = typeof v === 'string' ? v.trim().toLowerCase() : v;
  if (s === 'true' || s === '1' || s === 1) return true;
  if (s === 'false' || s === '0' || s === 0) return false;
  return FAIL;
};
const text = (v: unknown): string | Fail => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : FAIL);
const tags = (v: unknown): string[] | Fail => {
  if (v === undefined) return [];
  if (typeof v === 'string') {
    if (!v.includes('|')) {
      const t = v.trim();
      return t === '' ? [] : [t];
    }
    const out: string[] = [];
    for (const part of v.split('|')) {
      const t = part.trim();
      if (t !== '') out.push(t);
    }
    return out;
  }
  return Array.isArray(v) && v.every((t) => typeof t === 'string') ? (v as string[]) : FAIL;
};

/** Each field of an answer item in schema order, with its coercion and whether it must be there. */
const FIELDS: [string, (v: unknown) => unknown, boolean][] = [
  ['answer', (v) => (typeof v === 'string' ? v : FAIL), true],
  ['theme', text, false],
  ['context', text, false],
  ['snippet', text, false],
  ['sequence_number', num, true],
  ['answer_score', num, true],
  ['tags', tags, true],
  ['label', text, false],
  ['category', text, false],
  ['sub_category', text, false],
  ['answer_language', text, false],
  ['is_agent_answer', bool, true],
  ['is_dummy_answer', bool, true],
  ['is_dummy_floor_answer', bool, true],
  ['is_suggestion_answer', bool, true],
  ['is_international_question', bool, true],
  ['is_dialog_in_progress', bool, true],
  ['is_dialogue_answer', bool, true],
  ['delay', num, true],
];
// the same, as parallel arrays: the loop below runs for every answer of every reply
const KEYS = FIELDS.map(([key]) => key);
const COERCE = FIELDS.map(([, coerce]) => coerce);
const REQUIRED = FIELDS.map(([, , required]) => required);
const KNOWN = new Set(KEYS);

function item(raw: unknown): AnswerItem | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const src = raw as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  let present = 0;
  for (let i = 0; i < KEYS.length; i++) {
    const key = KEYS[i]!;
    const v = src[key];
    if (v === undefined) {
      if (!REQUIRED[i]) continue;
    } else present++;
    const c = COERCE[i]!(v);
    if (c === FAIL) return undefined;
    out[key] = c;
  }
  // fields of its own the service added are kept; most replies have none, which a count of keys tells. `__proto__`
  // is left to keepProtoFields (src/client/response.ts), as the schema leaves it
  let own = 0;
  for (const _key in src) own++;
  if (own !== present) for (const key in src) if (!KNOWN.has(key) && key !== '__proto__') out[key] = src[key];
  return out as AnswerItem;
}

/** The parsed response of a well-formed body, or undefined to let the schema say what is wrong. */
export function fastParse(json: unknown): AnswerResponse | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const src = json as Record<string, unknown>;
  const ppa = src['post_processed_answer'];
  if (ppa !== undefined && typeof ppa !== 'string') return undefined;
  const list = src['answers'];
  if (!Array.isArray(list)) return undefined;
  const answers: AnswerItem[] = new Array(list.length);
  for (let i = 0; i < list.length; i++) {
    const parsed = item(list[i]);
    if (parsed === undefined) return undefined;
    answers[i] = parsed;
  }
  const out: Record<string, unknown> = {};
  if (ppa !== undefined) out['post_processed_answer'] = ppa;
  out['answers'] = answers;
  for (const key in src) if (key !== 'post_processed_answer' && key !== 'answers' && key !== '__proto__') out[key] = src[key];
  return out as AnswerResponse;
}
