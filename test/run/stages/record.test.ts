import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AskResult } from '../../../src/model/ask-result.js';
import { parseAnswerResponse } from '../../../src/client/response.js';
import { ConfigError } from '../../../src/errors.js';
import type { Question } from '../../../src/model/question.js';
import { readJournal } from '../../../src/run/journal-read.js';
import type { RunOptions } from '../../../src/run/options.js';
import { planRun, plannedWork, type Plan } from '../../../src/run/stages/plan.js';
import { Recorder } from '../../../src/run/stages/record.js';
import { OpenedDatasets } from '../../../src/run/stop-reasons.js';
import { QuestionWork } from '../../../src/run/question.js';
import { item } from '../../helpers/spec-server.js';
import { tempDir, writeTemp } from '../../helpers/tmp.js';

// Stage 4, record: a real journal in a temporary directory; the results are judged from real questions and replies.
const dir = tempDir('answer-eval-record-');
const datasets = new OpenedDatasets();
afterEach(() => datasets.close());
const dataset = writeTemp(dir, 'qs.csv', 'id,question,expected_sequence\na,A?,1\nb,B?,1\nc,C?,2\n');
const plan = (over: Partial<RunOptions> = {}) => planRun({ dataset, baseUrl: 'http://127.0.0.1:9', agent: 'a', agentCode: 'code-1234', ...over }, datasets);
const reply = (seq: number): AskResult => {
  const parsed = parseAnswerResponse(JSON.stringify({ answers: [item(seq, 80)] }));
  if (!parsed.ok) throw new Error(parsed.message);
  return { ok: true, response: parsed.response, attempts: 1, latencyMs: 3 };
};
const never = (error: Error): void => expect.unreachable(error.message);

/** The planned questions of a plan, by asking: [question, index, k]. */
async function planned(p: Plan): Promise<[Question, number, number][]> {
  const out: [Question, number, number][] = [];
  for await (const w of plannedWork(p, () => undefined, never)) if (w instanceof QuestionWork) out.push([w.q, w.index, w.k]);
  return out;
}

describe('record', () => {
  it('journals each result as it is put (out of order too), and reads them back in dataset order, with their further askings', async () => {
    const journalDir = join(dir, 'repeat');
    const p = await plan({ journalDir, repeat: 2 });
    const record = await Recorder.open(p, never);
    // answered out of order: the last question first, the second asking before the first of another
    for (const [q, index, k] of (await planned(p)).reverse()) record.put(index, k, p.judge.question(q, reply(k === 0 ? 1 : 2)));
    await record.close();
    expect(await record.failure(journalDir)).toBeUndefined();
    expect([record.finished, record.fromJournal, record.repeats!.missing]).toEqual([3, 0, 0]);
    const results = [...record.results()];
    expect(results.map((r) => [r.id, r.outcome, r.repeats!.consistent, r.repeats!.others.length])).toEqual([
      ['a', 'correct', false, 1],
      ['b', 'correct', false, 1],
      ['c', 'wrong', false, 1],
    ]);
    const lines = readFileSync(join(journalDir, 'journal.jsonl'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1 + 6);
    const header = JSON.parse(lines[0]!) as { run: string; startedAt: string };
    expect(header.startedAt).toBe(record.startedAt.toISOString());
    expect(lines.slice(1).map((l) => JSON.parse(l) as { id: string; repeat?: number; run: string }).map((l) => [l.id, l.repeat ?? 0, l.run === header.run])).toEqual([
      ['c', 1, true],
      ['b', 1, true],
      ['a', 1, true],
      ['c', 0, true],
      ['b', 0, true],
      ['a', 0, true],
    ]);
  });

  it('without a journal, keeps the results themselves', async () => {
    const p = await plan();
    const record = await Recorder.open(p, never);
    const [first] = await planned(p);
    record.put(first![1], 0, p.judge.question(first![0], reply(1)));
    await record.close();
    expect([...record.results()].map((r) => r.id)).toEqual(['a']);
    expect(record.finished).toBe(1);
  });

  it("refuses a directory that holds another run's journal, and resumes one only for the same run, with its tag", async () => {
    const journalDir = join(dir, 'taken');
    const first = await Recorder.open(await plan({ journalDir }), never);
    const [q] = await planned(await plan());
    first.put(0, 0, (await plan()).judge.question(q![0], reply(1)));
    await first.close();
    await expect(Recorder.open(await plan({ journalDir }), never)).rejects.toThrow(
      new ConfigError(`${journalDir} holds the journal of another run (${join(journalDir, 'journal.jsonl')}): resume it, or journal this run elsewhere`),
    );
    await expect(plan({ journalDir, resume: true, language: 'it' }).then((p) => Recorder.open(p, never))).rejects.toThrow(
      `cannot resume ${journalDir}: --language differs (journal "en", now "it")`,
    );
    const resumed = await plan({ journalDir, resume: true });
    const record = await Recorder.open(resumed, never);
    for await (const w of plannedWork(resumed, record.keep, never)) {
      if (w instanceof QuestionWork) record.put(w.index, w.k, resumed.judge.question(w.q, reply(1)));
    }
    await record.close();
    expect([record.finished, record.fromJournal]).toEqual([3, 1]);
    const journal = await readJournal(journalDir);
    expect([...journal.results.keys()]).toEqual(['a', 'b', 'c']);
    expect(journal.droppedCount).toBe(0); // every line carries the journal's own tag
  });
});
