import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NotAuthorizedError } from '../../src/errors.js';
import { runEvaluation } from '../../src/run/run.js';
import { item, startSpecServer, type SpecServer } from '../helpers/spec-server.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

const dir = tempDir();
const servers: SpecServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));
const serve = async (...args: Parameters<typeof startSpecServer>) => {
  const s = await startSpecServer(...args);
  servers.push(s);
  return s;
};
const fast = { baseMs: 1, capMs: 5 };

describe('runEvaluation against a spec server', () => {
  it('sends the body and header exactly per spec', async () => {
    const server = await serve(() => ({ body: { answers: [item(1, 90)] } }));
    const dataset = writeTemp(dir, 'one.csv', 'id,question,language,username,extra_data\nq1,How do I pay?,it,ann,<x>1</x>\nq2,Hello,,,\n');
    await runEvaluation({ dataset, baseUrl: `${server.url}/`, agent: 'agent-7', agentCode: 's3cret', concurrency: 1 });
    expect(server.received).toHaveLength(2);
    const [first, second] = server.received;
    expect(first!.headers['wikiclone_code']).toBe('s3cret');
    expect(first!.headers['content-type']).toBe('application/json; charset=UTF-8');
    expect(first!.raw).toBe(
      '{"wikiagent":"agent-7","username":"ann","guest":"1","question":{"text":"How do I pay?","extra_data":"<x>1</x>"},"force_subscription":"0","output":"json","language":"it"}',
    );
    expect(second!.body).toEqual({ wikiagent: 'agent-7', guest: '1', question: { text: 'Hello' }, force_subscription: '0', output: 'json', language: 'en' });
  });

  it('fails before sending anything when neither username nor guest is given', async () => {
    const server = await serve(() => ({ body: { answers: [] } }));
    const dataset = writeTemp(dir, 'noguest.csv', 'question\nhi\n');
    await expect(runEvaluation({ dataset, baseUrl: server.url, agent: 'a', agentCode: 'c', guest: false })).rejects.toThrow(
      /neither a username nor guest access is given: set --username NAME or --guest/,
    );
    expect(server.received).toHaveLength(0);
  });

  it('scores each outcome and matches a hand count', async () => {
    // the reply depends on the question text
    const replies: Record<string, unknown> = {
      right: { answers: [item(1, 90), item(2, 40)] },
      ascending: { answers: [item(2, 10), item(3, 20), item(1, 80)] },
      wrong: { answers: [item(2, 70)] },
      floor: { answers: [item(99, 5, { is_dummy_floor_answer: 'true' })] },
      empty: { answers: [] },
      hello: { answers: [item(50, 100, { is_dummy_answer: 'true', label: 'greeting', tags: 'hello|human' })] },
      weather: { answers: [item(99, 5, { is_dummy_floor_answer: 'true' })] },
      stocks: { answers: [item(4, 60, { is_suggestion_answer: 'true' })] },
      free: { post_processed_answer: 'again?', answers: [item(3, 50)] },
      broken: '{"answers": [',
      missing: { answers: [{ ...item(1, 90), answer_score: undefined }] },
    };
    const server = await serve((req) => {
      const text = (req.body['question'] as { text: string }).text;
      const body = replies[text];
      return { body };
    });
    const dataset = writeTemp(
      dir,
      'outcomes.jsonl',
      [
        { id: 'c1', question: 'right', expected_sequence: 1 },
        { id: 'c2', question: 'ascending', expected_label: 'label-1' },
        { id: 'w1', question: 'wrong', expected_sequence: 1 },
        { id: 'a1', question: 'floor', expected_sequence: 1 },
        { id: 'a2', question: 'empty', expected_sequence: 1 },
        { id: 'g1', question: 'hello', expected_label: 'greeting' },
        { id: 'f1', question: 'weather', expect: 'fallback' },
        { id: 'f2', question: 'stocks', expect: 'fallback' },
        { id: 'u1', question: 'free' },
        { id: 'e1', question: 'broken', expected_sequence: 1 },
        { id: 'e2', question: 'missing', expected_sequence: 1 },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n'),
    );
    const { report } = await runEvaluation({ dataset, baseUrl: server.url, agent: 'a', agentCode: 'c', concurrency: 4 });
    const outcome = Object.fromEntries(report.results.map((r) => [r.id, r.outcome]));
    expect(outcome).toEqual({
      c1: 'correct', c2: 'correct', w1: 'wrong', a1: 'abstained', a2: 'abstained', g1: 'correct',
      f1: 'fallback_ok', f2: 'fallback_missed', u1: 'unlabeled', e1: 'error', e2: 'error',
    });
    expect(report.results.map((r) => r.id)).toEqual(['c1', 'c2', 'w1', 'a1', 'a2', 'g1', 'f1', 'f2', 'u1', 'e1', 'e2']);
    const s = report.summary;
    expect(s.total).toBe(11);
    expect(s.outcomes).toEqual({ correct: 3, wrong: 1, abstained: 2, fallback_ok: 1, fallback_missed: 1, unlabeled: 1, check_failed: 0, error: 2, skipped: 0 });
    expect(s.top1Accuracy).toBeCloseTo(4 / 8, 12); // (3 correct + 1 fallback_ok) / (11 - 1 unlabeled - 2 errors)
    expect(s.answerableAccuracy).toBeCloseTo(3 / 6, 12);
    expect(s.rates).toEqual({ dummy: 1 / 11, floor: 2 / 11, suggestion: 1 / 11, empty: 1 / 11, error: 2 / 11 });
    expect(s.unorderedLists).toBe(1);

    const c2 = report.results[1]!;
    expect(c2.top1Index).toBe(2);
    expect(c2.unordered).toBe(true);
    const g1 = report.results[5]!;
    expect(g1.answers[0]).toMatchObject({ sequence_number: 50, answer_score: 100, is_dummy_answer: true, tags: ['hello', 'human'], delay: -1 });
    expect(report.results[8]!.postProcessedAnswer).toBe('again?');
    expect(report.results[9]!.error).toEqual({ kind: 'protocol', message: 'the body is not JSON: "{\\"answers\\": ["' });
    expect(report.results[10]!.error?.message).toMatch(/^answers\[0\]\.answer_score: is missing \(body: /);
    expect(report.run).toMatchObject({ status: 'completed', agent: 'a', baseUrl: server.url, dataset: { questions: 11 } });
    // every question that did not pass says why; the others say nothing
    const reason = Object.fromEntries(report.results.map((r) => [r.id, r.reason]));
    expect(reason).toEqual({
      c1: undefined, c2: undefined, g1: undefined, f1: undefined, u1: undefined, e1: undefined, e2: undefined,
      w1: 'expected sequence 1; top-1 is #2 "label-2" (score 70)',
      a1: 'expected sequence 1; the service refused with the floor answer (score 5)',
      a2: 'expected sequence 1; the service refused with an empty answer list',
      f2: 'expected a refusal (out of scope); top-1 is #4 "label-4" (score 60)',
    });
  });

  it('resumes from the journal alone: runEvaluation({ resume }) takes dataset, target and options from it, as the CLI does', async () => {
    const server = await serve(() => ({ body: { answers: [item(1, 90)] } }));
    const dataset = writeTemp(dir, 'resume-api.csv', 'id,question,expected_sequence\nr1,one,1\nr2,two,1\nr3,three,2\n');
    const out = tempDir();
    const first = await runEvaluation({ dataset, baseUrl: server.url, agent: 'agent-r', agentCode: 'c', timeoutMs: 1234, retries: 0, language: 'it', journalDir: out });
    const resumed = await runEvaluation({ resume: true, journalDir: out, agentCode: 'c', rerun: 'errors' });
    expect(resumed.report.run).toMatchObject({
      agent: 'agent-r',
      baseUrl: server.url,
      dataset: { path: dataset, questions: 3 },
      options: { timeoutMs: 1234, retries: 0, language: 'it' },
      resumed: { fromJournal: 3, asked: 0, rerun: 'errors' },
    });
    expect(resumed.report.results).toEqual(first.report.results);
    // it started when its journal did (trend orders nights by it), and its duration spans the pause
    expect(resumed.report.run.startedAt).toBe(first.report.run.startedAt);
    expect(resumed.report.run.durationMs).toBe(Date.parse(resumed.report.run.finishedAt) - Date.parse(first.report.run.startedAt));
    // an option that decides outcomes, given differently, is refused naming both values
    await expect(runEvaluation({ resume: true, journalDir: out, agentCode: 'c', timeoutMs: 99 })).rejects.toThrow('--timeout differs (journal 1234, now 99)');
    // a new run into it is refused before anything is sent: the journal is another run's
    const journal = readFileSync(join(out, 'journal.jsonl'), 'utf8');
    const sent = server.received.length;
    await expect(runEvaluation({ dataset, baseUrl: server.url, agent: 'agent-r', agentCode: 'c', journalDir: out })).rejects.toThrow(
      `${out} holds the journal of another run (${join(out, 'journal.jsonl')}): resume it, or journal this run elsewhere`,
    );
    expect([server.received.length, readFileSync(join(out, 'journal.jsonl'), 'utf8')]).toEqual([sent, journal]);
  });

  it('retries a 500 and counts the attempts', async () => {
    const server = await serve((_req, n) => (n === 1 ? { status: 500, body: { error: 'boom' } } : { body: { answers: [item(1, 90)] } }));
    const dataset = writeTemp(dir, 'retry.csv', 'question,expected_sequence\nhi,1\n');
    const { report } = await runEvaluation({ dataset, baseUrl: server.url, agent: 'a', agentCode: 'c', backoff: fast });
    expect(report.results[0]).toMatchObject({ outcome: 'correct', attempts: 2, error: null });
  });

  it('gives up after --retries and reports the error apart from wrong answers', async () => {
    const server = await serve(() => ({ status: 503, body: 'busy' }));
    const dataset = writeTemp(dir, 'down.csv', 'question,expected_sequence\nhi,1\n');
    const { report } = await runEvaluation({ dataset, baseUrl: server.url, agent: 'a', agentCode: 'c', retries: 1, backoff: fast });
    expect(report.results[0]).toMatchObject({ outcome: 'error', attempts: 2, error: { kind: 'http', status: 503 } });
    expect(server.received).toHaveLength(2);
    expect(report.summary.outcomes.wrong).toBe(0);
  });

  it('does not retry other 4xx', async () => {
    const server = await serve(() => ({ status: 400, body: { error: 'bad' } }));
    const dataset = writeTemp(dir, 'bad-request.csv', 'question\nhi\n');
    const { report } = await runEvaluation({ dataset, baseUrl: server.url, agent: 'a', agentCode: 'c', backoff: fast });
    expect(report.results[0]).toMatchObject({ outcome: 'error', attempts: 1, error: { kind: 'http', status: 400 } });
  });

  it('stops at once on a 404 and sends nothing more', async () => {
    const server = await serve(() => ({ status: 404, body: '' }));
    const rows = Array.from({ length: 50 }, (_, i) => `q${i}`).join('\n');
    const dataset = writeTemp(dir, 'many.csv', `question\n${rows}\n`);
    const { report, stoppedBy } = await runEvaluation({ dataset, baseUrl: server.url, agent: 'agent-x', agentCode: 'c', concurrency: 1 });
    expect(stoppedBy).toBeInstanceOf(NotAuthorizedError);
    expect(stoppedBy?.message).toBe(`404 from ${server.url}/api/v1/answer: agent "agent-x" is not authorized - check --agent and ANSWER_AGENT_CODE`);
    expect(server.received).toHaveLength(1);
    expect(report.run.status).toBe('partial');
  });

  it('turns a dropped connection and a timeout into errors for that question only', async () => {
    const server = await serve((req) => {
      const text = (req.body['question'] as { text: string }).text;
      if (text === 'reset') return { reset: true };
      if (text === 'slow') return { delayMs: 300, body: { answers: [] } };
      return { body: { answers: [item(1, 90)] } };
    });
    const dataset = writeTemp(dir, 'faults.csv', 'question,expected_sequence\nreset,1\nslow,1\nfine,1\n');
    const { report } = await runEvaluation({ dataset, baseUrl: server.url, agent: 'a', agentCode: 'c', retries: 0, timeoutMs: 100 });
    expect(report.results.map((r) => [r.outcome, r.error?.kind ?? null])).toEqual([
      ['error', 'network'],
      ['error', 'timeout'],
      ['correct', null],
    ]);
  });
});
