import { describe, expect, it } from 'vitest';
import { QuestionError, type AskResult } from '../../../src/model/ask-result.js';
import { parseAnswerResponse } from '../../../src/client/response.js';
import { checkQuestions, readDataset } from '../../../src/dataset/read.js';
import { openDataset } from '../../../src/dataset/source.js';
import { isConversation, type Conversation, type Question } from '../../../src/model/question.js';
import { Judge } from '../../../src/run/stages/judge.js';
import { item } from '../../helpers/spec-server.js';
import { tempDir, writeTemp } from '../../helpers/tmp.js';

// Stage 3, judge: real questions (read from a dataset) against replies as the client parses them.
const dir = tempDir('answer-eval-judge-');
const reply = (...answers: Record<string, string>[]): AskResult => {
  const parsed = parseAnswerResponse(JSON.stringify({ answers }));
  if (!parsed.ok) throw new Error(parsed.message);
  return { ok: true, response: parsed.response, attempts: 1, latencyMs: 5 };
};
const failed: AskResult = { ok: false, error: new QuestionError('http', 'HTTP 500 from the service', { status: 500 }), attempts: 3, latencyMs: 2 };

const questions = async (): Promise<Question[]> => {
  const path = writeTemp(dir, 'qs.csv', 'id,question,expected_sequence,language\na,pay?,1,\nb,pay now?,1,it\nc,refund?,2,\n');
  return (await readDataset(path)).questions;
};

describe('judge', () => {
  it('shares one compiled matcher between rows with the same expectations', async () => {
    const [a, b, c] = await questions();
    const judge = new Judge('en', undefined);
    expect(judge.matcherOf(a!)).toBe(judge.matcherOf(b!));
    expect(judge.matcherOf(a!)).not.toBe(judge.matcherOf(c!));
  });

  it("judges a question's reply: its outcome, top-1 and rank, in the question's language or the run's", async () => {
    const [a, b, c] = await questions();
    const judge = new Judge('en', undefined);
    const right = judge.question(a!, reply(item(1, 90), item(2, 40)));
    expect([right.outcome, right.top1Index, right.rank, right.language]).toEqual(['correct', 0, 1, 'en']);
    expect(judge.question(b!, reply(item(1, 90))).language).toBe('it');
    const wrong = judge.question(c!, reply(item(1, 90), item(2, 40)));
    expect([wrong.outcome, wrong.rank]).toEqual(['wrong', 2]);
    expect(judge.question(a!, failed)).toMatchObject({ outcome: 'error', error: { kind: 'http', status: 500 } });
  });

  it('applies --aliases to the expected sequence numbers', async () => {
    const [, , c] = await questions();
    expect(new Judge('en', new Map([[2, 7]])).question(c!, reply(item(7, 90))).outcome).toBe('correct');
  });

  it("judges a conversation turn by turn: the turns after one in error are skipped, and each carries the conversation's verdict", async () => {
    const path = writeTemp(dir, 'c.jsonl', `${JSON.stringify({ id: 'c', turns: [{ question: 'one', expected_sequence: 1 }, { question: 'two' }, { question: 'three' }] })}\n`);
    const c = await conversationOf(path);
    const results = new Judge('en', undefined).conversation(c, { user: 'u', replies: [reply(item(1, 90)), failed], waitedMs: [0] });
    expect(results.map((r) => [r.id, r.outcome, r.conversation!.verdict])).toEqual([
      ['c#1', 'correct', 'error'],
      ['c#2', 'error', 'error'],
      ['c#3', 'skipped', 'error'],
    ]);
  });

  it('judges a journaled result again: one whose outcome its answers do not give is not taken', async () => {
    const [a] = await questions();
    const judge = new Judge('en', undefined);
    const result = judge.question(a!, reply(item(2, 90)));
    expect(judge.journaled(a!, result)).toBeUndefined();
    expect(judge.journaled(a!, { ...result, outcome: 'correct' })).toBe('is "correct", where its answers give "wrong" (judged again)');
  });
});

/** The first conversation of a dataset, as the run reads it (checked, one item at a time). */
async function conversationOf(path: string): Promise<Conversation> {
  const source = await openDataset(path);
  const found: Conversation[] = [];
  try {
    await checkQuestions(source, (i) => void (isConversation(i) && found.push(i)));
  } finally {
    await source.close();
  }
  return found[0]!;
}
