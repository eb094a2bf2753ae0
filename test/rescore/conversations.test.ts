import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_CONVERSATIONS, SAMPLE_KB, startEngine, type RunningEngine } from '../../src/engine/index.js';
import type { Report } from '../../src/model/report.js';
import { toReport } from '../../src/model/source.js';
import { writeReports } from '../../src/report/write.js';
import { rescoreReport } from '../../src/rescore/rescore.js';
import { runEvaluation } from '../../src/run/run.js';
import { startFrontServer, type FrontServer } from '../helpers/front-server.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// rescore judges a conversation run's turns again: a turn keeps its place and its checks, a skipped turn stays
// skipped, and each conversation's verdict is decided again from its turns.
const dir = tempDir('answer-eval-rescore-');
const reportPath = join(dir, 'run', 'report.json');
let engine: RunningEngine;
let front: FrontServer;
let original: Report;

beforeAll(async () => {
  engine = await startEngine({ kb: SAMPLE_KB });
  // "thanks" fails: move-2 ends in error at its last turn, repeat-1 at turn 2 (its turn 3 skipped)
  front = await startFrontServer((text) => (text === 'thanks' ? { status: 500, body: { error: { message: 'down' } } } : undefined));
  front.target = { url: engine.url, code: engine.code };
  const outcome = await runEvaluation({ dataset: SAMPLE_CONVERSATIONS, baseUrl: front.url, agent: engine.agent, agentCode: 'c', retries: 0, journalDir: join(dir, 'run') });
  await writeReports(outcome.data, join(dir, 'run'), ['json']);
  original = outcome.report;
});
afterAll(async () => {
  await front.close();
  await engine.close();
});

const verdicts = (r: Report) => Object.fromEntries(r.results.filter((x) => x.conversation!.turn === 1).map((x) => [x.conversation!.id, [x.conversation!.verdict, x.conversation!.at]]));

describe('rescore of a run with conversations', () => {
  it('with nothing changed gives the report the run wrote', async () => {
    expect(verdicts(original)).toMatchObject({ 'move-2': ['error', 3], 'repeat-1': ['error', 2], 'repeat-2': ['failed', 2] });
    expect(original.results.find((r) => r.id === 'repeat-1#3')!.outcome).toBe('skipped');
    const again = toReport(await rescoreReport(reportPath));
    expect(again.results).toEqual(original.results);
    expect(again.metrics).toEqual(original.metrics);
  });

  it('against a corrected dataset: the turns judged again, each conversation decided again', async () => {
    const corrected = writeTemp(dir, 'corrected.jsonl', readFileSync(SAMPLE_CONVERSATIONS, 'utf8').replace(
      '{"question": "sorry, where\'s my customer number again?", "expected_label": "customer_number", "expect_post_processed": "contains:already answer"}',
      '{"question": "sorry, where\'s my customer number again?", "expected_label": "customer_number", "expect_post_processed": "none"}',
    ));
    const again = toReport(await rescoreReport(reportPath, { dataset: corrected }));
    expect(verdicts(again)['repeat-2']).toEqual(['passed', null]);
    expect(again.results.filter((r) => r.conversation!.id === 'repeat-2').map((r) => [r.outcome, r.checks, r.conversation!.user])).toEqual([
      ['correct', { post_processed: true }, original.results.find((r) => r.id === 'repeat-2#1')!.conversation!.user],
      ['correct', { post_processed: true }, original.results.find((r) => r.id === 'repeat-2#2')!.conversation!.user],
    ]);
    expect(again.results.find((r) => r.id === 'repeat-1#3')).toMatchObject({ outcome: 'skipped', reason: 'not asked: turn 2 of the conversation ended in error' });
    expect(again.metrics!.conversations!.verdicts).toEqual({ passed: 11, failed: 2, error: 2 });
  });
});
