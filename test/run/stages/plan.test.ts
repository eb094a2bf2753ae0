import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { inShard } from '../../../src/dataset/shard.js';
import type { JournalEntry } from '../../../src/run/journal.js';
import type { RunOptions } from '../../../src/run/options.js';
import { runEvaluation } from '../../../src/run/run.js';
import { planRun, plannedWork, type Plan } from '../../../src/run/stages/plan.js';
import { OpenedDatasets } from '../../../src/run/stop-reasons.js';
import { ConversationWork } from '../../../src/run/conversation.js';
import { QuestionWork } from '../../../src/run/question.js';
import type { Work } from '../../../src/run/work.js';
import { item, startSpecServer } from '../../helpers/spec-server.js';
import { tempDir, writeTemp } from '../../helpers/tmp.js';
import { setLimitsForTests } from '../../helpers/limits.js';
import { DEFAULT_LIMITS } from '../../../src/util/limits.js';

// Stage 1, read and plan: nothing is sent (the base URL is a closed port), every problem is found, the work is planned.
const dir = tempDir('answer-eval-plan-');
const datasets = new OpenedDatasets();
afterEach(() => datasets.close());
const NOWHERE = 'http://127.0.0.1:9';
const plan = (over: Partial<RunOptions>) => planRun({ baseUrl: NOWHERE, agent: 'a', agentCode: 'code-1234', ...over }, datasets);

const jsonl = (rows: unknown[]): string => `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`;
const mixed = writeTemp(
  dir,
  'mixed.jsonl',
  jsonl([
    { id: 'q1', question: 'one' },
    { id: 'c1', turns: [{ question: 'hello' }, { question: 'and then' }, { question: 'bye' }] },
    { id: 'q2', question: 'two' },
  ]),
);

/** What pass 2 plans, as [kind, id, index, k], and what it keeps from the journal, as [index, k]. */
async function walk(p: Plan): Promise<{ work: [string, string, number, number][]; kept: [number, number][] }> {
  const work: [string, string, number, number][] = [];
  const kept: [number, number][] = [];
  const keep = (index: number, k: number, _entry: JournalEntry): void => void kept.push([index, k]);
  for await (const w of plannedWork(p, keep, (error) => expect.unreachable(error.message))) work.push(describeWork(w));
  return { work, kept };
}
const describeWork = (w: Work): [string, string, number, number] =>
  w instanceof QuestionWork ? ['question', w.q.id, w.index, w.k] : ['conversation', (w as ConversationWork).c.id, (w as ConversationWork).index, 0];

describe('plan', () => {
  it('counts questions and turns, and plans each question and each whole conversation at its dataset index', async () => {
    const p = await plan({ dataset: mixed });
    expect([p.total, p.toAsk]).toEqual([5, 5]);
    expect(p.dataset).toMatchObject({ path: mixed, questions: 5, conversations: 1 });
    expect(await walk(p)).toEqual({
      work: [
        ['question', 'q1', 0, 0],
        ['conversation', 'c1', 1, 0],
        ['question', 'q2', 4, 0],
      ],
      kept: [],
    });
  });

  it('a set that fits in memory is planned from what the check read; a larger one from the file read again, the same work', async () => {
    const ids = Array.from({ length: 40 }, (_, i) => `id-${i}`);
    const dataset = writeTemp(dir, 'forty.csv', `id,question\n${ids.map((id) => `${id},text of ${id}`).join('\n')}\n`);
    const size = readFileSync(dataset).length;
    const planned = async (keptItemsBytes: number, over: Partial<RunOptions>) => {
      const restore = setLimitsForTests({ keptItemsBytes });
      try {
        const p = await plan({ dataset, ...over });
        return { kept: p.items?.length, work: (await walk(p)).work };
      } finally {
        restore();
      }
    };
    for (const over of [{}, { repeat: 2 }, { shard: { index: 2, count: 3 } }]) {
      const mine = over.shard ? ids.filter((id) => inShard(id, over.shard)).length : 40; // a shard keeps its own
      const fits = await planned(2 * size + 512 * mine, over); // the estimate: the text at two bytes a character, 512 bytes a question
      const beyond = await planned(2 * size + 512 * mine - 1, over);
      expect([fits.kept, beyond.kept]).toEqual([mine, undefined]);
      expect(fits.work).toEqual(beyond.work);
      expect(fits.work).toHaveLength(mine * (over.repeat ?? 1));
    }
  });

  it('--repeat: each asking of every question, the dataset read again for each', async () => {
    const dataset = writeTemp(dir, 'three.csv', 'id,question\na,A\nb,B\nc,C\n');
    const p = await plan({ dataset, repeat: 2 });
    expect([p.total, p.toAsk]).toEqual([3, 6]);
    expect((await walk(p)).work.map(([, id, index, k]) => `${id}${index}/${k}`)).toEqual(['a0/0', 'b1/0', 'c2/0', 'a0/1', 'b1/1', 'c2/1']);
  });

  it('--repeat refuses conversations, naming the first, before anything is sent', async () => {
    await expect(plan({ dataset: mixed, repeat: 2 })).rejects.toThrow(
      `--repeat 2 cannot ask conversations (${mixed}:2: conversation "c1"): a conversation is asked once per run, as a new user each time`,
    );
  });

  it('--shard: each shard plans its own questions, indexed within the shard; the shards together plan every question once', async () => {
    const ids = Array.from({ length: 12 }, (_, i) => `id-${i}`);
    const dataset = writeTemp(dir, 'twelve.csv', `id,question\n${ids.map((id) => `${id},text of ${id}`).join('\n')}\n`);
    const planned: string[] = [];
    for (const index of [1, 2, 3]) {
      const shard = { index, count: 3 };
      const p = await plan({ dataset, shard });
      const mine = ids.filter((id) => inShard(id, shard));
      expect(p.total).toBe(mine.length);
      const { work } = await walk(p);
      expect(work.map(([, id, i]) => [id, i])).toEqual(mine.map((id, i) => [id, i]));
      planned.push(...work.map(([, id]) => id));
    }
    expect(planned.sort()).toEqual([...ids].sort());
  });

  it('warns of a dataset without ids, and of expectations the knowledge base cannot meet, in that order, before anything is sent', async () => {
    const dataset = writeTemp(dir, 'noid.csv', 'question,expected_label\nhi,greeting\nbye,farewell\n');
    const kb = writeTemp(dir, 'kb.jsonl', jsonl([{ sequence_number: 1, answer: 'Hello!', label: 'greeting' }]));
    const told: string[] = [];
    const p = await plan({ dataset, knowledgeBase: kb, onWarning: (m) => told.push(`warning: ${m}`), onKbMismatch: (first, count) => told.push(`kb: ${count} ${first[0]!.message}`) });
    expect(told).toHaveLength(2);
    expect(told[0]).toMatch(/^kb: 1 .*farewell/);
    expect(told[1]).toContain(`warning: ${dataset} has no id column: its questions are named by their line`);
    expect(p.dataset.idsByLine).toBe(true);
  });

  describe('resuming', () => {
    const servers: { close(): Promise<void> }[] = [];
    afterAll(() => Promise.all(servers.map((s) => s.close())));

    it('plans only what the journal lacks (here its errors, with rerun errors) and keeps the rest at its index', async () => {
      const server = await startSpecServer((req) => ((req.body['question'] as { text: string }).text === 'two' ? { status: 400, body: {} } : { body: { answers: [item(1, 80)] } }));
      servers.push(server);
      const journalDir = join(dir, 'rerun');
      await runEvaluation({ dataset: mixed, baseUrl: server.url, agent: 'a', agentCode: 'code-1234', journalDir, retries: 0 });
      for (const keptItemsBytes of [DEFAULT_LIMITS.keptItemsBytes, 0]) {
        const restore = setLimitsForTests({ keptItemsBytes }); // asked from memory, and read again
        const p = await plan({ baseUrl: server.url, resume: true, journalDir, rerun: 'errors' }).finally(restore);
        expect([p.total, p.toAsk, p.items === undefined]).toEqual([5, 1, keptItemsBytes === 0]);
        expect(await walk(p)).toEqual({ work: [['question', 'q2', 4, 0]], kept: [[0, 0], [1, 0], [2, 0], [3, 0]] });
      }
    });

    it('takes a conversation from the journal only whole: one whose last turn is missing is planned again from its first turn', async () => {
      const server = await startSpecServer(() => ({ body: { answers: [item(1, 80)] } }));
      servers.push(server);
      const journalDir = join(dir, 'torn');
      await runEvaluation({ dataset: mixed, baseUrl: server.url, agent: 'a', agentCode: 'code-1234', journalDir, concurrency: 1 });
      const journal = join(journalDir, 'journal.jsonl');
      const lines = readFileSync(journal, 'utf8').split('\n').filter((l) => l !== '');
      writeFileSync(journal, `${lines.filter((l) => !l.includes('"c1#3"')).join('\n')}\n`);
      for (const keptItemsBytes of [DEFAULT_LIMITS.keptItemsBytes, 0]) {
        const restore = setLimitsForTests({ keptItemsBytes });
        const p = await plan({ baseUrl: server.url, resume: true, journalDir }).finally(restore);
        expect([p.total, p.toAsk, p.items === undefined]).toEqual([5, 3, keptItemsBytes === 0]);
        expect(await walk(p)).toEqual({ work: [['conversation', 'c1', 1, 0]], kept: [[0, 0], [4, 0]] });
      }
    });
  });
});
