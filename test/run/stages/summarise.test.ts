import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AskResult } from '../../../src/model/ask-result.js';
import { parseAnswerResponse } from '../../../src/client/response.js';
import type { RunOptions } from '../../../src/run/options.js';
import { QuestionWork } from '../../../src/run/question.js';
import { planRun, plannedWork } from '../../../src/run/stages/plan.js';
import { Recorder } from '../../../src/run/stages/record.js';
import { summarise } from '../../../src/run/stages/summarise.js';
import { OpenedDatasets } from '../../../src/run/stop-reasons.js';
import { item } from '../../helpers/spec-server.js';
import { tempDir, writeTemp } from '../../helpers/tmp.js';

// Stage 5, summarise: a plan and a record as the stages before leave them (the questions judged from real replies).
const dir = tempDir('answer-eval-summarise-');
const datasets = new OpenedDatasets();
afterEach(() => datasets.close());
const dataset = writeTemp(dir, 'qs.csv', 'id,question,expected_sequence\na,A?,1\nb,B?,1\nc,C?,2\nd,D?,\n');
const reply = (seq: number): AskResult => {
  const parsed = parseAnswerResponse(JSON.stringify({ answers: [item(seq, 80)] }));
  if (!parsed.ok) throw new Error(parsed.message);
  return { ok: true, response: parsed.response, attempts: 1, latencyMs: 3 };
};

/** Plans the dataset, records the first `answered` questions (each answered with sequence 1), and summarises. */
async function summary(answered: number, stoppedBy: unknown, over: Partial<RunOptions> = {}) {
  const plan = await planRun({ dataset, baseUrl: 'http://127.0.0.1:9', agent: 'a', agentCode: 'code-12345', ...over }, datasets);
  const record = await Recorder.open(plan, () => undefined);
  for await (const w of plannedWork(plan, record.keep, () => undefined)) {
    if (w instanceof QuestionWork && w.index < answered) record.put(w.index, w.k, plan.judge.question(w.q, reply(1)));
  }
  await record.close();
  const finishedAt = new Date(record.startedAt.getTime() + 1500);
  return summarise(plan, record, { ...(stoppedBy === undefined ? {} : { stoppedBy }), finishedAt });
}

describe('summarise', () => {
  it('a completed run: what it was, how long it took, and its results scored in dataset order', async () => {
    const { report, stoppedBy } = await summary(4, undefined, { journalDir: join(dir, 'done') });
    expect(stoppedBy).toBeUndefined();
    expect(report.run).toMatchObject({ status: 'completed', durationMs: 1500, agent: 'a', dataset: { path: dataset, questions: 4 } });
    expect(report.run.stopReason).toBeUndefined();
    expect(report.results.map((r) => `${r.id} ${r.outcome}`)).toEqual(['a correct', 'b correct', 'c wrong', 'd unlabeled']);
    expect(report.summary).toMatchObject({ total: 4, top1Accuracy: 2 / 3 });
  });

  it('a run stopped early: partial, with the reason, every secret in it masked', async () => {
    const { report, stoppedBy } = await summary(2, new Error('the service said code-12345'));
    expect(stoppedBy!.message).toBe('the service said <agent code>');
    expect(report.run).toMatchObject({ status: 'partial', stopReason: 'the service said <agent code>' });
    expect(report.results.map((r) => r.id)).toEqual(['a', 'b']);
  });
});
