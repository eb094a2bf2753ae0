import { QuestionError, type AskResult } from '../../src/model/ask-result.js';
import type { Conversation, Question } from '../../src/model/question.js';
import { SCHEMA_VERSION, type QuestionResult, type Report, type ReportAnswer } from '../../src/model/report.js';
import { arraySource } from '../../src/model/source.js';
import { scoreConversation } from '../../src/score/conversation.js';
import { compileMatcher } from '../../src/score/match.js';
import { computeMetrics } from '../../src/score/metrics/index.js';
import { toResult } from '../../src/score/result.js';
import { summarize } from '../../src/score/summary.js';
import { ans } from './results.js';

/** A hostile question text: it must show as text wherever a page shows it. */
export const HOSTILE = '<img src=x onerror="window.__xss=1">';

const answer = (seq: number, label: string, score: number, over: Partial<ReportAnswer> = {}): ReportAnswer =>
  ans(seq, score, { label, answer: `Answer of ${label}.`, category: label.split('_')[0]!, ...over });
const reply = (a: ReportAnswer, post?: string): AskResult => ({ ok: true, response: { answers: [a], ...(post !== undefined ? { post_processed_answer: post } : {}) }, attempts: 1, latencyMs: 12 });
const failed: AskResult = { ok: false, error: new QuestionError('http', 'HTTP 503 from http://127.0.0.1:1/api/v1/answer'), attempts: 1, latencyMs: 4 };

function turns(id: string, line: number, list: [string, string, Question['checks']?][], over: Partial<Question> = {}): Conversation {
  return {
    id,
    line,
    turns: list.map(([question, label, checks], i) => ({
      id: `${id}#${i + 1}`, line, question, expect: 'answer', expected: { label: [label] }, tags: ['dialogue'], conversation: { id, turn: i + 1 }, ...(checks ? { checks } : {}), ...over,
    })),
  };
}

const single = (id: string, line: number, label: string, got: ReportAnswer): QuestionResult =>
  toResult({ id, line, question: `single question ${id}`, expect: 'answer', expected: { label: [label] }, tags: ['single'] }, reply(got), 'en', compileMatcher({ label: [label] }));

const score = (c: Conversation, replies: AskResult[], user = `answer-eval-0a1b2c3d-${c.id}`) =>
  scoreConversation(c, { user, replies, waitedMs: [] }, 'en', (q) => compileMatcher(q.expected));

/**
 * A run with single questions and conversations, scored as a run scores them: `move` passes, `meter` fails at turn 2
 * (wrong, its dialog check too), `hostile` fails at turn 1 on its post-processed check (its id and question carry
 * HOSTILE), `outage` ends in error at turn 2 (turn 3 skipped), `trasloco` (Italian) passes.
 */
export function conversationResults(): QuestionResult[] {
  const open = { dialog: 'in_progress' };
  const move = turns('move', 2, [["I'm moving house next month", 'moving_house', open], ['can you supply my new home too?', 'moving_keep_supply', open], ['yes, on the 1st of June', 'moving_date_known', { dialog: 'none' }]]);
  const meter = turns('meter', 3, [['I want to send a meter reading', 'submit_reading', open], ['it says 07321', 'meter_reading_value', { dialog: 'none' }]]);
  const hostile = turns(`hostile ${HOSTILE}`, 4, [[`where is my number? ${HOSTILE}`, 'customer_number', { post_processed: 'contains:already answer' }]]);
  const outage = turns('outage', 5, [['there is a power cut', 'power_outage', open], ['the whole street', 'outage_area'], ['thanks', 'thanks']]);
  const trasloco = turns('trasloco', 7, [['devo traslocare', 'trasloco', open], ['voglio restare con voi', 'trasloco_nuova_casa']], { language: 'it', tags: ['moving', 'it'] });
  const inDialog = { is_dialog_in_progress: true, is_dialogue_answer: true };
  return [
    single('q1', 1, 'payment_methods', answer(20, 'payment_methods', 81)),
    ...score(move, [
      reply(answer(50, 'moving_house', 72, inDialog)),
      reply(answer(220, 'moving_keep_supply', 66, inDialog)),
      reply(answer(222, 'moving_date_known', 70, { is_dialogue_answer: true })),
    ]),
    ...score(meter, [reply(answer(30, 'submit_reading', 73, inDialog)), reply(answer(201, 'meter_reading_number', 47.7, inDialog))]),
    ...score(hostile, [reply(answer(81, 'customer_number', 68.8, { answer: `Your number ${HOSTILE} is on the bill.` }))]),
    ...score(outage, [reply(answer(40, 'power_outage', 76, inDialog)), failed]),
    single('q6', 6, 'refund', answer(11, 'bill_too_high', 55)),
    ...score(trasloco, [reply(answer(150, 'trasloco', 70, { ...inDialog, answer_language: 'it' })), reply(answer(300, 'trasloco_nuova_casa', 64))], 'maria.rossi'),
  ];
}

/** conversationResults as a report.json, with summary and metrics. */
export function conversationReport(results: QuestionResult[] = conversationResults()): Report {
  return {
    schemaVersion: SCHEMA_VERSION,
    tool: { name: 'answer-eval', version: '0.1.0' },
    run: {
      startedAt: '2025-01-02T03:04:05.000Z',
      finishedAt: '2025-01-02T03:04:09.000Z',
      durationMs: 4000,
      status: 'completed',
      baseUrl: 'http://127.0.0.1:1',
      embeddedEngine: false,
      agent: 'dialogues',
      dataset: { path: 'dialogues.jsonl', sha256: 'ef'.repeat(32), questions: results.length, conversations: 5 },
      options: { concurrency: 2, timeoutMs: 1000, retries: 0, language: 'en', output: 'json', guest: true, forceSubscription: false, maxTurnDelayMs: 10_000 },
    },
    summary: summarize(results),
    metrics: computeMetrics(arraySource(results)),
    results,
  };
}
