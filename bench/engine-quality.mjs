#!/usr/bin/env node
// Engine quality and speed on CLINC150, in-process (no HTTP). Run after `npm run build`:
//   node bench/engine-quality.mjs [--clinc DIR] [--val] [--answer-weight W] [--classifier-weight W] [--speed-ms MS] [--typo-seed N]
// Protocol: every floor is chosen on val.jsonl; test.jsonl is only measured. Questions are judged by the harness's own
// code (dist/score): each answer list goes through toResult as a run would, the floor is the one the report recommends
// (thresholdAnalysis, the report's objectives), and the test figures are those of a run made at that floor.
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  buildAnswers,
  createRetriever,
  DEFAULT_FLOOR_THRESHOLD,
  DEFAULT_SUGGESTION_THRESHOLD,
  loadKnowledgeBase,
  SAMPLE_KB,
  SAMPLE_QUESTIONS,
} from '../dist/engine/index.js';
import { readDataset } from '../dist/dataset/read.js';
import { parseAnswerResponse } from '../dist/client/response.js';
import { toResult } from '../dist/score/result.js';
import { thresholdAnalysis } from '../dist/score/metrics/thresholds.js';
import { seeded, withTypos } from './typos.mjs';

const { values } = parseArgs({
  options: {
    clinc: { type: 'string', default: '../shared/data/clinc150' },
    'answer-weight': { type: 'string' },
    'classifier-weight': { type: 'string' },
    'speed-ms': { type: 'string', default: '3000' },
    'typo-seed': { type: 'string', default: '28' },
    val: { type: 'boolean', default: false }, // validation figures only (while designing)
  },
});
const options = {
  ...(values['answer-weight'] && { answerWeight: Number(values['answer-weight']) }),
  ...(values['classifier-weight'] && { classifierWeight: Number(values['classifier-weight']) }),
};

const pct = (x) => `${(100 * x).toFixed(1)}%`;
const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

/** Results as a run at `floor` would record them (the engine's reply to each question, judged by toResult). */
function resultsAt(ranked, questions, floor) {
  const thresholds = { floor, suggestion: DEFAULT_SUGGESTION_THRESHOLD, maxSuggestions: 2 };
  return questions.map((q, i) => {
    const language = q.language ?? 'en';
    // the reply as the client reads it off the wire (answer_score as a number, flags as booleans)
    const parsed = parseAnswerResponse(JSON.stringify({ answers: buildAnswers(ranked[i], language, thresholds) }));
    if (!parsed.ok) throw new Error(`the engine's reply to ${q.id} does not parse: ${parsed.message}`);
    return toResult(q, { ok: true, response: parsed.response, attempts: 1, latencyMs: 0 }, 'en');
  });
}

/** The engine's ranked lists, once (a floor changes only how they are replied). */
const rankAll = (retriever, questions) => questions.map((q) => retriever.answer(q.question, q.language ?? 'en', 5));

/** In-scope accuracy and out-of-scope recall of a run made at `floor`, as its report counts them. */
function figuresAt(ranked, questions, floor) {
  const analysis = thresholdAnalysis(resultsAt(ranked, questions, floor));
  const own = analysis.curve[0]; // the run's own floor: nothing more refused
  return { accuracy: own.answeredCorrectly, oosRecall: own.refusedCorrectly, answerable: analysis.answerable, outOfScope: analysis.outOfScope };
}

/** The curve on val (every floor the report can replay), from a run without a floor. */
const valCurve = (ranked, questions, objective) => thresholdAnalysis(resultsAt(ranked, questions, 0), objective);

const OBJECTIVES = [
  ['F1 (the report\'s default)', {}],
  ['--oos-share 0.5 (accuracy + recall, the objective of this bench before)', { oosShare: 0.5 }],
  ['--keep-accuracy 1', { objective: 'keep-accuracy', maxAccuracyDrop: 0.01 }],
];

const PUBLISHED = [
  ['SVM', 0.882, 0.18],
  ['DialogFlow', 0.908, 0.267],
  ['Rasa', 0.909, 0.312],
  ['BERT', 0.962, 0.523],
];

async function clinc(dir) {
  if (!existsSync(join(dir, 'kb.jsonl'))) {
    console.log(`CLINC150 not found in ${resolve(dir)} (pass --clinc DIR): skipped.`);
    return;
  }
  console.log(`machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}), Node ${process.version}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const heapBefore = process.memoryUsage();
  const t0 = performance.now();
  const kb = await loadKnowledgeBase(join(dir, 'kb.jsonl'));
  const t1 = performance.now();
  const retriever = createRetriever(kb, options);
  const t2 = performance.now();
  globalThis.gc?.();
  const mem = process.memoryUsage();
  const examples = kb.entries.reduce((n, e) => n + e.examples.length, 0);
  console.log(`start-up: ${kb.entries.length} entries, ${examples} examples: read ${(t1 - t0).toFixed(0)} ms + indexed and trained ${(t2 - t1).toFixed(0)} ms = ${((t2 - t0) / 1000).toFixed(2)} s`);
  console.log(`memory after start-up: RSS ${mb(mem.rss)}, heap ${mb(mem.heapUsed)} (+${mb(mem.heapUsed - heapBefore.heapUsed)}), array buffers ${mb(mem.arrayBuffers)}${globalThis.gc ? '' : ' (run with --expose-gc for a settled heap)'}`);

  const val = (await readDataset(join(dir, 'val.jsonl'))).questions;
  const valRanked = rankAll(retriever, val);
  const noFloor = figuresAt(valRanked, val, 0);
  console.log(`\nval (${noFloor.answerable} in scope, ${noFloor.outOfScope} out of scope): top-1 without a floor ${pct(noFloor.accuracy)}`);
  const test = values.val ? undefined : (await readDataset(join(dir, 'test.jsonl'))).questions;
  const testRanked = test && rankAll(retriever, test);

  console.log('\nfloor recommended on val as the report does (thresholdAnalysis), measured on test:');
  for (const [name, objective] of OBJECTIVES) {
    const { recommended } = valCurve(valRanked, val, objective);
    const floor = recommended.threshold;
    const line = `  ${name}: floor ${floor}, val ${pct(recommended.answeredCorrectly)} / ${pct(recommended.refusedCorrectly)}`;
    if (!test) console.log(line);
    else {
      const m = figuresAt(testRanked, test, floor);
      console.log(`${line} -> test in-scope accuracy ${pct(m.accuracy)}, out-of-scope recall ${pct(m.oosRecall)} (${m.answerable} / ${m.outOfScope})`);
    }
  }
  if (test) {
    const m = figuresAt(testRanked, test, DEFAULT_FLOOR_THRESHOLD);
    console.log(`  the default floor ${DEFAULT_FLOOR_THRESHOLD}: test ${pct(m.accuracy)} / ${pct(m.oosRecall)}`);
  }

  // The curve: for each published system, the floor at which val reaches its out-of-scope recall, measured on test.
  const curve = valCurve(valRanked, val, {}).curve;
  const floorForRecall = (recall) => curve.find((p) => p.refusedCorrectly >= recall)?.threshold ?? curve.at(-1).threshold;
  console.log('\ncurve: in-scope accuracy at the out-of-scope recall of the published systems (floor reaching it on val; test)');
  const targets = [...PUBLISHED, ['', null, 0.8], ['', null, 0.9]];
  for (const [name, accuracy, recall] of targets) {
    const floor = floorForRecall(recall);
    const published = accuracy === null ? `recall ${pct(recall)}: ` : `${name} ${pct(accuracy)} / ${pct(recall)}; `;
    const v = curve.find((p) => p.threshold === floor);
    const t = test ? figuresAt(testRanked, test, floor) : undefined;
    console.log(`  ${published}this engine at floor ${floor}: val ${pct(v.answeredCorrectly)} / ${pct(v.refusedCorrectly)}${t ? `, test ${pct(t.accuracy)} / ${pct(t.oosRecall)}` : ''}`);
  }
  // One figure for the curve's upper half, to compare designs on val: a single point moves by one of val's 100
  // out-of-scope questions at a time (a paired bootstrap put the noise of this mean at 0.2-0.6 points: docs/engine.md).
  const RECALLS = [0.7, 0.8, 0.85, 0.9, 0.95];
  const upper = RECALLS.reduce((sum, r) => sum + curve.find((p) => p.refusedCorrectly >= r).answeredCorrectly, 0) / RECALLS.length;
  console.log(`  mean val in-scope accuracy at val recall ${RECALLS.map((r) => 100 * r).join('/')}%: ${pct(upper)}`);

  // Typos: the same in-scope questions with seeded keyboard typos, at the default floor.
  const clean = (test ?? val).filter((q) => q.expect === 'answer');
  const random = seeded(Number(values['typo-seed']));
  const typed = clean.map((q) => ({ ...q, question: withTypos(q.question, random) }));
  const changed = typed.filter((q, i) => q.question !== clean[i].question).length;
  const cleanFig = figuresAt(rankAll(retriever, clean), clean, DEFAULT_FLOOR_THRESHOLD);
  const typoFig = figuresAt(rankAll(retriever, typed), typed, DEFAULT_FLOOR_THRESHOLD);
  console.log(`\ntypos (${test ? 'test' : 'val'} in-scope questions, ${changed} of ${clean.length} changed, seed ${values['typo-seed']}; e.g. "${typed[7].question}"):`);
  console.log(`  default floor ${DEFAULT_FLOOR_THRESHOLD}: clean ${pct(cleanFig.accuracy)}, with typos ${pct(typoFig.accuracy)}: ${(typoFig.accuracy / cleanFig.accuracy).toFixed(3)} of clean`);

  const questions = test ?? val;
  const budget = Number(values['speed-ms']);
  let n = 0;
  const t = performance.now();
  while (performance.now() - t < budget) {
    for (let i = 0; i < 100; i++) retriever.answer(questions[(n + i) % questions.length].question, 'en', 5);
    n += 100;
  }
  console.log(`\nspeed: ${Math.round(n / ((performance.now() - t) / 1000))} answers/s on one core (${n} answers, in-process); load average now ${loadavg()[0].toFixed(2)}`);
}

async function sample() {
  const kb = await loadKnowledgeBase(SAMPLE_KB);
  const retriever = createRetriever(kb, options);
  const questions = (await readDataset(SAMPLE_QUESTIONS)).questions;
  const ranked = rankAll(retriever, questions);
  const { recommended } = valCurve(ranked, questions, {});
  console.log(`\nsample: recommended floor here ${recommended.threshold} (answerable accuracy ${pct(recommended.answeredCorrectly)}, refused ${pct(recommended.refusedCorrectly)}; in-sample)`);
  for (const floor of [DEFAULT_FLOOR_THRESHOLD - 5, DEFAULT_FLOOR_THRESHOLD - 2, DEFAULT_FLOOR_THRESHOLD, DEFAULT_FLOOR_THRESHOLD + 2, DEFAULT_FLOOR_THRESHOLD + 5]) {
    const m = figuresAt(ranked, questions, floor);
    console.log(`sample at floor ${floor}: answerable accuracy ${pct(m.accuracy)} (${m.answerable}), out-of-scope refused ${pct(m.oosRecall)} (${m.outOfScope})`);
  }
}

await clinc(values.clinc);
if (existsSync(SAMPLE_QUESTIONS)) await sample();
