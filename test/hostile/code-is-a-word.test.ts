import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SAMPLE_KB, SAMPLE_QUESTIONS, startEngine } from '../../src/engine/index.js';
import type { QuestionResult } from '../../src/model/report.js';
import { runEvaluation } from '../../src/run/run.js';
import { tempDir } from '../helpers/tmp.js';

// An agent code that is also a word of the knowledge base ("bill": labels bill_too_high, answers about bills) is
// judged as the service wrote the answers, and masked only in what the service sent: before, the reply was masked
// before it was judged, and every question expecting a bill_* entry came out wrong. The dataset's own text (its
// questions, its expectations) is the user's: written as it is, even where it holds the word. The run warns.

const dir = tempDir('answer-eval-code-word-');

async function runWith(code: string, out: string) {
  const engine = await startEngine({ kb: SAMPLE_KB, agent: 'demo', code });
  const warnings: string[] = [];
  try {
    const { data, report } = await runEvaluation({ dataset: SAMPLE_QUESTIONS, baseUrl: engine.url, agent: 'demo', agentCode: code, journalDir: join(dir, out), knowledgeBase: SAMPLE_KB, onWarning: (w) => warnings.push(w) });
    const results = readFileSync(join(dir, out, 'journal.jsonl'), 'utf8').trim().split('\n').slice(1).map((l) => JSON.parse(l) as QuestionResult);
    return { outcomes: [...report.results].map((r) => `${r.id} ${r.outcome}`), summary: data.head.summary, results, warnings };
  } finally {
    await engine.close();
  }
}

describe('an agent code that is also a word of the knowledge base', () => {
  it("judges the answers as a code that occurs nowhere does, masks it in what the service sent, keeps the dataset's text, and says so", async () => {
    const word = await runWith('bill', 'word');
    const random = await runWith('Zq8w-k3Vx-notaword', 'random');
    expect(word.outcomes).toEqual(random.outcomes);
    expect(word.summary.outcomes).toEqual(random.summary.outcomes);
    // what the service sent (answers, and the reasons quoting them) holds the mask, never the word nor its start
    const sent = word.results.map((r) => JSON.stringify({ answers: r.answers, reason: r.reason?.replace(/^expected [^;]*;/, ''), error: r.error }));
    expect(sent.join('\n')).toContain('<agent code>_too_high');
    expect(sent.join('\n')).not.toContain('bill'); // (a code written like a word is found in its own case only: 'Billing' is another word)
    expect(sent.join('\n')).not.toMatch(/\bbil?…/);
    // the user's own text as written: the questions, the expectations, and a reason's words about them
    const asked = random.results.map((r) => [r.question, r.expected]);
    expect(word.results.map((r) => [r.question, r.expected])).toEqual(asked);
    expect(word.results.some((r) => r.question.includes('bill'))).toBe(true);
    expect(word.results.find((r) => r.reason?.startsWith('expected label "bill_too_high"'))).toBeDefined();
    // said once, before asking, naming where the word occurs and never quoting it
    expect(word.warnings.filter((w) => w.startsWith('the agent code occurs in'))).toHaveLength(1);
    expect(word.warnings.join('\n')).not.toMatch(/\bbill\b/);
    expect(random.warnings).toEqual([]);
  });
});
