import { describe, expect, it } from 'vitest';
import { fastParse } from '../../src/client/fast-parse.js';
import { AnswerResponseSchema } from '../../src/client/response.js';
import { mulberry32 } from '../../src/util/random.js';

// a seeded generator of answer bodies, well-formed and not
const rand = mulberry32(7);
const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)]!;
const FLAGS = ['is_agent_answer', 'is_dummy_answer', 'is_dummy_floor_answer', 'is_suggestion_answer', 'is_international_question', 'is_dialog_in_progress', 'is_dialogue_answer'];

function randomItem(): Record<string, unknown> {
  const it: Record<string, unknown> = {
    vendor: pick([undefined, 'x', 3]),
    answer: pick(['Pay by card', '', 42, null]),
    sequence_number: pick(['42', 42, ' 7 ', '1e2', 'x', -3, null]),
    answer_score: pick(['10', 10.5, '.5', 'NaN', Infinity, '0', '1e309', '-1e309', '1e308']),
    tags: pick([undefined, 'a|b', ' a | |b ', 'solo', ' solo ', '', '  ', ['x'], [1], 5]),
    label: pick([undefined, 'l', 7, null]),
    theme: pick([undefined, 't']),
    delay: pick(['-1', -1, '', 'soon']),
  };
  for (const f of FLAGS) it[f] = pick(['true', 'false', 'TRUE', ' 1', '0', true, false, 1, 0, 'yes', undefined]);
  for (const k of Object.keys(it)) if (it[k] === undefined) delete it[k];
  return it;
}

describe('fastParse', () => {
  it('gives exactly what the zod schema gives, or defers to it', () => {
    let fast = 0;
    for (let i = 0; i < 3000; i++) {
      const body: Record<string, unknown> = { answers: Array.from({ length: Math.floor(rand() * 3) }, randomItem) };
      if (rand() < 0.3) body['post_processed_answer'] = pick(['again?', 5]);
      if (rand() < 0.2) body['extra'] = { nested: true };
      const json: unknown = JSON.parse(JSON.stringify(body));
      const viaFast = fastParse(json);
      const viaZod = AnswerResponseSchema.safeParse(json);
      if (viaFast === undefined) {
        continue; // zod decides (and names the field when it fails)
      }
      fast++;
      expect(viaZod.success).toBe(true);
      expect(JSON.stringify(viaFast)).toBe(JSON.stringify(viaZod.data));
    }
    expect(fast).toBeGreaterThan(100);
  });

  it('agree on numbers out of range, written as numbers or as strings: neither takes them', () => {
    const item = { answer: 'a', sequence_number: '1', answer_score: '2', is_agent_answer: 'true', is_dummy_answer: 'false', is_dummy_floor_answer: 'false', is_suggestion_answer: 'false', is_international_question: 'false', is_dialog_in_progress: 'false', is_dialogue_answer: 'false', delay: '-1' };
    for (const score of ['1e309', '"1e309"', '-1e309', '" 1E400 "', '1' + '0'.repeat(400)]) {
      const json: unknown = JSON.parse(JSON.stringify({ answers: [item] }).replace('"answer_score":"2"', `"answer_score":${score}`));
      expect(fastParse(json)).toBeUndefined();
      expect(AnswerResponseSchema.safeParse(json).success).toBe(false);
    }
  });

  it('takes the fast path for the sample response shape', () => {
    const sample = { answers: [{ answer: 'a', sequence_number: '1', answer_score: '2', tags: 'x|y', is_agent_answer: 'true', is_dummy_answer: 'false', is_dummy_floor_answer: 'false', is_suggestion_answer: 'false', is_international_question: 'false', is_dialog_in_progress: 'false', is_dialogue_answer: 'false', delay: '-1' }] };
    expect(fastParse(sample)).toEqual(AnswerResponseSchema.parse(sample));
  });
});
