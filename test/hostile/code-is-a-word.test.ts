import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SAMPLE_KB, SAMPLE_QUESTIONS, startEngine } from '../../src/engine/index.js';
import { runEvaluation } from '../../src/run/run.js';
import { tempDir } from '../helpers/tmp.js';

// An agent code that is also a word of the knowledge base ("bill": labels bill_too_high, answers about bills) is
// judged as the service wrote the answers, and masked only in what is stored: before, the reply was masked before it
// was judged, and every question expecting a bill_* entry came out wrong.

const dir = tempDir('answer-eval-code-word-');

async function runWith(code: string, out: string) {
  const engine = await startEngine({ kb: SAMPLE_KB, agent: 'demo', code });
  try {
    const { data, report } = await runEvaluation({ dataset: SAMPLE_QUESTIONS, baseUrl: engine.url, agent: 'demo', agentCode: code, journalDir: join(dir, out) });
    return { outcomes: [...report.results].map((r) => `${r.id} ${r.outcome}`), summary: data.head.summary, journal: readFileSync(join(dir, out, 'journal.jsonl'), 'utf8') };
  } finally {
    await engine.close();
  }
}

describe('an agent code that is also a word of the knowledge base', () => {
  it('judges the answers as a code that occurs nowhere does, and stores none of it', async () => {
    const word = await runWith('bill', 'word');
    const random = await runWith('Zq8w-k3Vx-notaword', 'random');
    expect(word.outcomes).toEqual(random.outcomes);
    expect(word.summary.outcomes).toEqual(random.summary.outcomes);
    expect(word.journal).toContain('<agent code>_too_high'); // masked where it is stored
    expect(word.journal).not.toContain('bill'); // (the code is case-sensitive: 'Billing' is another word)
    expect(word.journal).not.toMatch(/\bbil?…/); // nor its start, where a reason cut a quoted answer
  });
});
