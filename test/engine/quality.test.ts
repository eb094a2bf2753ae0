import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { createRetriever, DEFAULT_FLOOR_THRESHOLD, DEFAULT_SUGGESTION_THRESHOLD, buildAnswers, loadKnowledgeBase, SAMPLE_KB, SAMPLE_QUESTIONS } from '../../src/engine/index.js';
import { toScale } from '../../src/engine/retrieval.js';

const kb = await loadKnowledgeBase(SAMPLE_KB);
const retriever = createRetriever(kb);
const thresholds = { floor: DEFAULT_FLOOR_THRESHOLD, suggestion: DEFAULT_SUGGESTION_THRESHOLD, maxSuggestions: 2 };

describe('sample set quality at the default thresholds', () => {
  const rows = parse(readFileSync(SAMPLE_QUESTIONS, 'utf8'), { columns: true, bom: true }) as Record<string, string>[];

  it('has 40+ entries, 10+ Italian, small talk, and 100+ questions with 15+ out of scope', () => {
    expect(kb.entries.length).toBeGreaterThanOrEqual(40);
    expect(kb.entries.filter((e) => e.language === 'it').length).toBeGreaterThanOrEqual(10);
    expect(kb.entries.some((e) => e.smallTalk)).toBe(true);
    expect(rows.length).toBeGreaterThanOrEqual(100);
    expect(rows.filter((r) => r.expect === 'fallback').length).toBeGreaterThanOrEqual(15);
  });

  it('answers >= 85% of answerable questions right and refuses >= 80% of out-of-scope ones', () => {
    let answerable = 0, correct = 0, oos = 0, refused = 0;
    for (const row of rows) {
      const [top] = buildAnswers(retriever.answer(row.question ?? '', row.language ?? 'en'), row.language ?? 'en', thresholds);
      if (row.expect === 'fallback') {
        oos++;
        if (top?.is_dummy_floor_answer === 'true' || top?.is_dummy_answer === 'true') refused++;
      } else {
        answerable++;
        if (top?.sequence_number === row.expected_sequence) correct++;
      }
    }
    expect(correct / answerable).toBeGreaterThanOrEqual(0.85);
    expect(refused / oos).toBeGreaterThanOrEqual(0.8);
  });
});

describe('score scale', () => {
  it('maps the ratio to 0-100 monotonically', () => {
    expect([0, 0.04, 0.25, 1, 4].map(toScale)).toEqual([0, 28.6, 50, 66.7, 80]);
    expect(toScale(1e9)).toBeLessThanOrEqual(100);
  });
});
