import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_CONVERSATIONS, SAMPLE_KB, startEngine, type RunningEngine } from '../../src/engine/index.js';
import { compileValue } from '../../src/model/expectations.js';
import { askAs, type AnswerBody } from './helpers.js';

// Plays datasets/sample/conversations.jsonl against the embedded engine, each conversation as its own username,
// turn by turn over HTTP, and checks each turn as the conversation file says (the format the conversation
// harness reads, issue 15). This documents the sample's expected results: which conversations pass, and which
// fail at which turn and on which expectation.

type Values = string | string[];
interface Turn {
  question: string;
  expected_answer?: Values;
  expected_sequence?: Values;
  expected_label?: Values;
  expected_category?: Values;
  expected_tag?: Values;
  expect?: 'answer' | 'fallback';
  expect_post_processed?: string;
  expect_dialog?: 'in_progress' | 'none';
}
interface Conversation {
  id: string;
  username?: string;
  language?: string;
  tags?: string;
  turns: Turn[];
}

const conversations = readFileSync(SAMPLE_CONVERSATIONS, 'utf8')
  .split('\n')
  .filter((line) => line.trim())
  .map((line) => JSON.parse(line) as Conversation);

const anyOf = (values: Values, text: string | undefined): boolean => [values].flat().some((v) => compileValue(v)(text));

/** The expectations of a turn that the reply does not meet (empty: the turn passes). */
function unmet(turn: Turn, body: AnswerBody): string[] {
  const top = body.answers[0];
  const refused = !top || top.is_dummy_floor_answer === 'true' || top.is_dummy_answer === 'true';
  const failed: string[] = [];
  const text: [keyof Turn, string | undefined][] = [
    ['expected_answer', top?.answer],
    ['expected_sequence', top?.sequence_number],
    ['expected_label', top?.label],
    ['expected_category', top?.category],
  ];
  for (const [field, actual] of text) {
    const want = turn[field] as Values | undefined;
    if (want !== undefined && !anyOf(want, actual)) failed.push(field);
  }
  if (turn.expected_tag !== undefined && !(top?.tags ?? '').split('|').some((tag) => anyOf(turn.expected_tag!, tag))) failed.push('expected_tag');
  if (turn.expect === 'fallback' && !refused) failed.push('expect');
  if (turn.expect === 'answer' && top?.is_dummy_floor_answer !== 'false') failed.push('expect');
  const post = turn.expect_post_processed;
  if (post !== undefined && (post === 'none' ? body.post_processed_answer !== undefined : !anyOf(post, body.post_processed_answer))) {
    failed.push('expect_post_processed');
  }
  const dialog = turn.expect_dialog;
  if (dialog !== undefined && (top?.is_dialog_in_progress === 'true') !== (dialog === 'in_progress')) failed.push('expect_dialog');
  return failed;
}

/** Per conversation: undefined when every turn passes, else its first failing turn (1-based), what failed and the top-1's sequence number. */
type Outcome = { turn: number; unmet: string[]; got: string | undefined } | undefined;

/**
 * The conversations meant to fail against the embedded engine, so that a report shows both kinds:
 * - meter-3: the customer gives the reading before the meter number; numbers match by shape, so the engine takes
 *   "it says 07321" for the meter number and asks for the reading (meter_reading_number, dialogue still open).
 * - outage-2: "nah mate, the whole block is pitch black" is not understood as "the neighbours are out too"
 *   (below the follow-up threshold); the dialogue closes and normal retrieval reads "mate", a word the knowledge
 *   base lacks, as a typo of "late": late_payment, a wrong answer.
 * - repeat-2: the engine notices the same question again, not a rephrasing of it, so no post_processed_answer.
 */
const EXPECTED_FAILURES: Record<string, NonNullable<Outcome>> = {
  'meter-3': { turn: 3, unmet: ['expected_label', 'expect_dialog'], got: '201' }, // meter_reading_number
  'outage-2': { turn: 2, unmet: ['expected_label'], got: '22' }, // late_payment
  'repeat-2': { turn: 2, unmet: ['expect_post_processed'], got: '81' }, // customer_number, rightly
};

let engine: RunningEngine;
const outcomes = new Map<string, Outcome>();
beforeAll(async () => {
  engine = await startEngine({ kb: SAMPLE_KB });
  // All conversations at once, each its own user: they must not see each other's dialogues.
  await Promise.all(
    conversations.map(async (c) => {
      let outcome: Outcome;
      for (const [i, turn] of c.turns.entries()) {
        const body = await askAs(engine, c.username ?? `sample-${c.id}`, turn.question, c.language ?? 'en');
        const failed = unmet(turn, body);
        if (failed.length && !outcome) outcome = { turn: i + 1, unmet: failed, got: body.answers[0]?.sequence_number };
      }
      outcomes.set(c.id, outcome);
    }),
  );
});
afterAll(() => engine.close());

describe('the sample conversations against the embedded engine', () => {
  it('has a dozen or more dialogues with unique ids, in the conversation format', () => {
    expect(conversations.length).toBeGreaterThanOrEqual(12);
    expect(new Set(conversations.map((c) => c.id)).size).toBe(conversations.length);
    for (const c of conversations) {
      expect(Object.keys(c).every((k) => ['id', 'username', 'language', 'tags', 'turns'].includes(k)), c.id).toBe(true);
      expect(c.turns.length, c.id).toBeGreaterThanOrEqual(2);
    }
  });

  it('passes every conversation except the ones meant to fail', () => {
    const passing = conversations.map((c) => c.id).filter((id) => !(id in EXPECTED_FAILURES));
    expect(passing.length).toBeGreaterThanOrEqual(10);
    expect(Object.fromEntries(passing.map((id) => [id, outcomes.get(id)]))).toEqual(Object.fromEntries(passing.map((id) => [id, undefined])));
  });

  it('fails the ones meant to fail, at the intended turn and expectation', () => {
    expect(Object.fromEntries(Object.keys(EXPECTED_FAILURES).map((id) => [id, outcomes.get(id)]))).toEqual(EXPECTED_FAILURES);
  });

  it('carries the delay of the step that asks to wait: "2" seconds on dispute_charge, "-1" elsewhere', async () => {
    const dispute = conversations.find((c) => c.id === 'dispute-charge')!;
    const replies = [];
    for (const turn of dispute.turns) replies.push((await askAs(engine, 'delay-check', turn.question)).answers[0]);
    expect(replies.map((a) => [a?.label, a?.delay])).toEqual([
      ['bill_too_high', '-1'],
      ['bill_dispute', '-1'],
      ['dispute_charge', '2'],
      ['dispute_charge_opened', '-1'],
    ]);
  });
});
