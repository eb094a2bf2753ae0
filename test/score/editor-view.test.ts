import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startEngine, type RunningEngine } from '../../src/engine/index.js';
import type { Metrics } from '../../src/model/metrics.js';
import { runEvaluation } from '../../src/run/run.js';
import { tempDir } from '../helpers/tmp.js';

// A knowledge base of the shape of CLINC150 (intents with a label, a domain as category, crowd-like examples),
// smaller: 6 domains × 5 intents, 12 examples each; questions: 4 per intent plus out-of-scope ones.
const dir = tempDir();
const DOMAINS = ['banking', 'travel', 'kitchen', 'auto', 'home', 'work'];
const THINGS = ['pin', 'visa', 'oven', 'tyre', 'boiler', 'payslip', 'card', 'flight', 'fridge', 'brakes', 'alarm', 'holiday', 'loan', 'hotel', 'kettle', 'oil', 'roof', 'meeting', 'cheque', 'luggage', 'blender', 'clutch', 'garden', 'pension', 'mortgage', 'passport', 'toaster', 'battery', 'window', 'laptop'];
const FORMS = ['how do i {v} my {t}', 'can you help me {v} the {t}', 'i need to {v} my {t} today', 'what is the way to {v} a {t}', 'please {v} my {t}', 'i want to {v} the {t} now'];
const VERBS = ['check', 'change', 'fix', 'renew'];

interface Intent { label: string; category: string; thing: string }
const intents: Intent[] = THINGS.map((thing, i) => ({ label: `${DOMAINS[i % 6]}_${thing}`, category: DOMAINS[i % 6]!, thing }));
const say = (form: string, v: string, t: string) => form.replace('{v}', v).replace('{t}', t);

function writeKb(name: string, without?: string): string {
  const rows = intents.map((it, i) => ({
    sequence_number: i + 1,
    answer: `[${it.label}] answer ${i + 1}`,
    label: it.label,
    category: it.category,
    language: 'en',
    examples: it.label === without ? [] : FORMS.flatMap((f) => VERBS.slice(0, 2).map((v) => say(f, v, it.thing))),
  }));
  const path = join(dir, name);
  writeFileSync(path, rows.map((r) => JSON.stringify(r)).join('\n'));
  return path;
}

const questions = join(dir, 'questions.jsonl');
writeFileSync(
  questions,
  [
    ...intents.flatMap((it) => VERBS.map((v, k) => ({ id: `${it.label}-${k}`, question: say(FORMS[(k + 2) % FORMS.length]!, v, it.thing), expected_label: it.label, tags: it.category }))),
    ...['what is the capital of peru', 'sing me a song about whales', 'who won the match yesterday', 'how tall is mount everest'].map((q, k) => ({ id: `oos-${k}`, question: q, expect: 'fallback', tags: 'oos' })),
  ].map((r) => JSON.stringify(r)).join('\n'),
);

let engine: RunningEngine | undefined;
afterEach(() => engine?.close());

async function metricsOf(kb: string, floorThreshold?: number): Promise<Metrics> {
  engine = await startEngine({ kb, ...(floorThreshold !== undefined ? { floorThreshold } : {}) });
  const { report } = await runEvaluation({ dataset: questions, baseUrl: engine.url, agent: engine.agent, agentCode: engine.code, knowledgeBase: kb, concurrency: 4 });
  return report.metrics!;
}

describe("the editor's view on a CLINC150-shaped knowledge base", () => {
  it('has one row per entry whose counts add up, and shows an intent whose examples were removed in its entry and its category', async () => {
    const full = await metricsOf(writeKb('kb.jsonl'));
    expect(full.entries).toHaveLength(30);
    expect(full.entries.reduce((n, e) => n + e.expected, 0)).toBe(120);
    expect(full.entries.reduce((n, e) => n + e.correct, 0)).toBe(full.intervals.answerableAccuracy.successes);
    const travel = (m: Metrics) => m.breakdowns.category.find((s) => s.key === 'travel')!;
    const entry = (m: Metrics) => m.entries.find((e) => e.key === 'travel_visa')!;
    expect(entry(full)).toMatchObject({ expected: 4, category: 'travel', text: '[travel_visa] answer 2' });
    expect(entry(full).recall).toBe(1);

    const broken = await metricsOf(writeKb('kb-without-visa.jsonl', 'travel_visa'));
    // the service never returns the entry again, but its questions stay in its category (the knowledge base names it)
    expect(entry(broken)).toMatchObject({ expected: 4, correct: 0, answered: 0, category: 'travel', text: '[travel_visa] answer 2' });
    expect(broken.breakdowns.category.map((s) => s.key)).not.toContain('(category unknown)');
    expect(travel(broken).total).toBe(travel(full).total);
    expect(travel(broken).top1Accuracy.value!).toBeLessThan(travel(full).top1Accuracy.value!);
    expect(entry(broken).losesTo.reduce((n, f) => n + f.count, 0)).toBe(4);
  });

  it('never advises a floor below the one the run was made with (the curve starts where the service answered)', async () => {
    const raised = await metricsOf(writeKb('kb-60.jsonl'), 60);
    expect(raised.thresholds.replayableFrom!).toBeGreaterThanOrEqual(60);
    expect(raised.thresholds.curve[0]!.threshold).toBeGreaterThanOrEqual(60);
    expect(raised.thresholds.recommended).not.toBeNull();
    expect(raised.thresholds.recommended!.threshold).toBeGreaterThanOrEqual(60);
  });
});
