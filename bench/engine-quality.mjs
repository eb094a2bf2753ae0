#!/usr/bin/env node
// Engine quality and speed on CLINC150, in-process (no HTTP). Run after `npm run build`:
//   node bench/engine-quality.mjs [--clinc DIR] [--val] [--answer-weight W] [--classifier-weight W] [--speed-ms MS]
// The floor threshold is chosen on val.jsonl, the figures are measured on test.jsonl.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createRetriever, DEFAULT_FLOOR_THRESHOLD, loadKnowledgeBase, SAMPLE_KB, SAMPLE_QUESTIONS } from '../dist/engine/index.js';
import { parse } from 'csv-parse/sync';

const { values } = parseArgs({
  options: {
    clinc: { type: 'string', default: '../shared/data/clinc150' },
    'answer-weight': { type: 'string' },
    'classifier-weight': { type: 'string' },
    'speed-ms': { type: 'string', default: '3000' },
    val: { type: 'boolean', default: false }, // validation figures only (while tuning)
  },
});
const options = {
  ...(values['answer-weight'] && { answerWeight: Number(values['answer-weight']) }),
  ...(values['classifier-weight'] && { classifierWeight: Number(values['classifier-weight']) }),
};

const readJsonl = (file) => readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

/** Top answer and its score for each question. */
function predict(retriever, questions) {
  return questions.map((q) => {
    const [top] = retriever.answer(q.question, q.language || 'en', 1);
    return { q, label: top?.entry.label, seq: top?.entry.sequenceNumber, smallTalk: top?.entry.smallTalk, score: top?.score ?? 0 };
  });
}

/** In-scope accuracy (right answer above the floor) and out-of-scope recall (refused) at a floor. */
function measure(predictions, floor, isRight) {
  let inScope = 0, correct = 0, oos = 0, refused = 0;
  for (const p of predictions) {
    // A small-talk (dummy) answer refuses an out-of-scope question; it is right for a greeting.
    if (p.q.expect === 'fallback') { oos++; if (p.score < floor || p.smallTalk) refused++; }
    else { inScope++; if (p.score >= floor && isRight(p)) correct++; }
  }
  return { accuracy: correct / inScope, oosRecall: refused / oos, inScope, oos };
}

/** The floor maximizing accuracy + recall (equal weight) on the given predictions. */
function chooseFloor(predictions, isRight) {
  let best = { floor: 0, value: -1 };
  for (let floor = 0; floor <= 100; floor += 0.5) {
    const m = measure(predictions, floor, isRight);
    const value = m.accuracy + m.oosRecall;
    if (value > best.value) best = { floor, value, ...m };
  }
  return best;
}

const pct = (x) => `${(100 * x).toFixed(1)}%`;

async function clinc(dir) {
  if (!existsSync(join(dir, 'kb.jsonl'))) {
    console.log(`CLINC150 not found in ${resolve(dir)} (pass --clinc DIR): skipped.`);
    return;
  }
  let t = performance.now();
  const kb = await loadKnowledgeBase(join(dir, 'kb.jsonl'));
  const retriever = createRetriever(kb, options);
  console.log(`CLINC150: ${kb.entries.length} entries indexed in ${(performance.now() - t).toFixed(0)} ms`);
  const isRight = (p) => p.label === p.q.expected_label;
  const val = predict(retriever, readJsonl(join(dir, 'val.jsonl')));
  const chosen = chooseFloor(val, isRight);
  const top1 = measure(val, 0, isRight);
  console.log(`val:  floor ${chosen.floor} -> in-scope accuracy ${pct(chosen.accuracy)}, OOS recall ${pct(chosen.oosRecall)} (top-1 without floor ${pct(top1.accuracy)})`);
  const testQuestions = readJsonl(join(dir, 'test.jsonl'));
  const test = values.val ? undefined : measure(predict(retriever, testQuestions), chosen.floor, isRight);
  if (test) console.log(`test: floor ${chosen.floor} -> in-scope accuracy ${pct(test.accuracy)} (${test.inScope}), OOS recall ${pct(test.oosRecall)} (${test.oos})`);
  for (const target of [0.25, 0.3, 0.5]) {
    // The floor at which val reaches a given OOS recall, for a curve next to the published numbers.
    let floor = 0;
    while (floor < 100 && measure(val, floor, isRight).oosRecall < target) floor += 0.5;
    const v = measure(val, floor, isRight);
    console.log(`val at OOS recall ${pct(target)} (floor ${floor}): accuracy ${pct(v.accuracy)}, OOS recall ${pct(v.oosRecall)}`);
    if (values.val) continue;
    const m = measure(predict(retriever, testQuestions), floor, isRight);
    console.log(`test at val OOS recall ${pct(target)} (floor ${floor}): accuracy ${pct(m.accuracy)}, OOS recall ${pct(m.oosRecall)}`);
  }
  const budget = Number(values['speed-ms']);
  let n = 0;
  t = performance.now();
  while (performance.now() - t < budget) {
    for (let i = 0; i < 100; i++) retriever.answer(testQuestions[(n + i) % testQuestions.length].question, 'en');
    n += 100;
  }
  console.log(`speed: ${Math.round(n / ((performance.now() - t) / 1000))} answers/s on one core (${n} answers)`);
}

async function sample() {
  const kb = await loadKnowledgeBase(SAMPLE_KB);
  const retriever = createRetriever(kb, options);
  const rows = parse(readFileSync(SAMPLE_QUESTIONS, 'utf8'), { columns: true, bom: true, skip_empty_lines: true });
  const isRight = (p) => (p.q.expected_label ? p.label === p.q.expected_label : String(p.seq) === p.q.expected_sequence);
  const predictions = predict(retriever, rows);
  const chosen = chooseFloor(predictions, isRight);
  console.log(`sample: best floor here ${chosen.floor} (accuracy ${pct(chosen.accuracy)}, refused ${pct(chosen.oosRecall)})`);
  if (process.env.SHOW_MISSES) for (const p of predictions) if (!isRight(p) || p.score < 30) console.log(p.score, p.q.question, '->', p.label, '| want', p.q.expected_label || 'fallback');
  for (const floor of [DEFAULT_FLOOR_THRESHOLD - 5, DEFAULT_FLOOR_THRESHOLD - 2, DEFAULT_FLOOR_THRESHOLD, DEFAULT_FLOOR_THRESHOLD + 2, DEFAULT_FLOOR_THRESHOLD + 5]) {
    const m = measure(predictions, floor, isRight);
    console.log(`sample at floor ${floor}: answerable accuracy ${pct(m.accuracy)} (${m.inScope}), out-of-scope refused ${pct(m.oosRecall)} (${m.oos})`);
  }
}

await clinc(values.clinc);
if (existsSync(SAMPLE_QUESTIONS)) await sample();
